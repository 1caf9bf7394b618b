import { z } from 'zod';

/** The interface languages; every email is written in the customer's. */
export const LOCALES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export const LocaleSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof LocaleSchema>;

/**
 * Every email the store sends. Each links to a route of the web app (SPEC.md sections 2 and 4):
 * - account-activation: `/?accountToken=…` after registration;
 * - email-verify: `/verify-email/{token}`;
 * - password-reset: `/password-reset/{token}`;
 * - email-change: `/?emailToken=…`, sent to the new address;
 * - password-change: `/?passwordToken=…`.
 */
export const EMAIL_TEMPLATES = [
  'account-activation',
  'email-verify',
  'password-reset',
  'email-change',
  'password-change',
] as const;
export const EmailTemplateSchema = z.enum(EMAIL_TEMPLATES);
export type EmailTemplate = z.infer<typeof EmailTemplateSchema>;

/** What a template is rendered with; stored in `outbound_emails.data`. */
export const EmailDataSchema = z.object({
  /** The customer's name, for the greeting. */
  name: z.string(),
  /** Absolute link the message's button opens. */
  link: z.url(),
  /** How long the link works, in minutes. */
  expiresInMinutes: z.number().int().positive(),
});
export type EmailData = z.infer<typeof EmailDataSchema>;

/** Token lifetimes, in minutes. */
export const EMAIL_TOKEN_TTL_MINUTES: Record<EmailTemplate, number> = {
  'account-activation': 72 * 60,
  'email-verify': 72 * 60,
  'password-reset': 60,
  'email-change': 60,
  'password-change': 60,
};
