import { z } from 'zod';
import { ErrorKeys } from './errors.ts';
import { hasForbiddenCharacters } from './text.ts';

/**
 * The development mailbox (`GET /dev/mailbox.json`), served outside production only. Browser tests
 * read activation and reset links from it; nothing in the shop itself uses it.
 */
export const DevMailboxQuerySchema = z.object({
  /** Only messages to this address (compared case-insensitively). */
  to: z
    .string()
    .trim()
    .max(128)
    .refine((value) => !hasForbiddenCharacters(value), { error: ErrorKeys.invalidCharacters })
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DevMailboxQuery = z.infer<typeof DevMailboxQuerySchema>;

export const DevMailboxMessageSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  /** One of EMAIL_TEMPLATES, and the language the message was written in. */
  template: z.string(),
  locale: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** Every http(s) link of the message, in order; the first is the button's. */
  links: z.array(z.string()),
  status: z.enum(['PENDING', 'SENT', 'FAILED']),
  attempts: z.number().int(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});
export type DevMailboxMessage = z.infer<typeof DevMailboxMessageSchema>;

/** Newest first. */
export const DevMailboxResponseSchema = z.object({ messages: z.array(DevMailboxMessageSchema) });
export type DevMailboxResponse = z.infer<typeof DevMailboxResponseSchema>;
