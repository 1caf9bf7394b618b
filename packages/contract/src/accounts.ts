import * as z from 'zod/mini';
import { ErrorKeys } from './errors.ts';
import {
  EMAIL_MAX,
  LOCALES,
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  REVIEW_TEXT_MAX,
  REVIEW_TEXT_MIN,
} from './limits.ts';
import { cleanText } from './text.ts';

// ---------------------------------------------------------------------------------------------
// Field rules, one definition for the server's parsing and the client's forms. Lengths are measured
// on trimmed text; every message is a key the client translates. Written with zod/mini like the
// catalogue: the web app's forms share zod's core with its first page, and the classic API would make
// that shared core carry every string format it knows.

/** Letters a password may hold: Latin, Cyrillic and Devanagari letters, and digits. */
export const PASSWORD_PATTERN = /^[A-Za-z0-9\u0400-\u04FF\u0900-\u097F]+$/;
export const NAME_PATTERN = /^[A-Za-z0-9]+$/;
/**
 * An address the store can write to and tell apart from every other: the RFC 5322 dot-atom local
 * part (the characters of WHATWG's "valid e-mail address", which browsers check for type=email,
 * without empty dot-separated parts) of at most 64 characters, then a host name of RFC 1035 labels
 * (letters, digits, inner hyphens, at most 63 each) with at least one dot and a top-level domain
 * of letters or an IDNA `xn--` label. ASCII only, so no look-alike, control, zero-width or
 * direction-changing characters; no comments, quotes or address literals, so `a@example.com(x)`
 * is refused rather than stored as an account whose mail goes to `a@example.com`.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TOP_LEVEL_DOMAIN = '(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{0,57}[A-Za-z0-9])';
export const EMAIL_PATTERN = new RegExp(
  `^(?=[^@]{1,64}@)${ATEXT}+(?:\\.${ATEXT}+)*@(?:${DOMAIN_LABEL}\\.)+${TOP_LEVEL_DOMAIN}$`,
);

const requiredText = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.trim(), z.minLength(1, { error: ErrorKeys.requiredField }), cleanText());

export const EmailSchema = z.pipe(
  requiredText.check(
    z.maxLength(EMAIL_MAX, { error: ErrorKeys.tooLong }),
    z.regex(EMAIL_PATTERN, { error: ErrorKeys.invalidEmailFormat }),
  ),
  z.transform((email: string) => email.toLowerCase()),
);

export const NameSchema = requiredText.check(
  z.minLength(NAME_MIN, { error: ErrorKeys.nameTooShort }),
  z.maxLength(NAME_MAX, { error: ErrorKeys.nameTooLong }),
  z.regex(NAME_PATTERN, { error: ErrorKeys.onlyLatinAndNumbers }),
);

/** The password a login sends: anything non-blank up to the maximum; the server does the rest. */
export const LoginPasswordSchema = z.string({ error: ErrorKeys.requiredField }).check(
  z.minLength(1, { error: ErrorKeys.requiredField }),
  z.maxLength(PASSWORD_MAX, { error: ErrorKeys.tooLong }),
  z.refine((value: string) => value.trim().length > 0, { error: ErrorKeys.requiredField }),
  cleanText(),
);

/** A new password: PASSWORD_MIN to PASSWORD_MAX letters of the allowed scripts and digits. */
export const NewPasswordSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.minLength(1, { error: ErrorKeys.requiredField }),
    z.maxLength(PASSWORD_MAX, { error: ErrorKeys.tooLong }),
    z.regex(PASSWORD_PATTERN, { error: ErrorKeys.passwordInvalid }),
    z.minLength(PASSWORD_MIN, { error: ErrorKeys.passwordTooShort }),
  );

/** Tokens from emailed links: 43 characters of base64url (32 random bytes). */
export const EmailTokenSchema = z
  .string({ error: (issue) => (issue.input === undefined ? ErrorKeys.requiredField : ErrorKeys.tokenInvalid) })
  .check(z.regex(/^[A-Za-z0-9_-]{43}$/, { error: ErrorKeys.tokenInvalid }));

// ---------------------------------------------------------------------------------------------
// Requests of the calls in docs/api.md, "Accounts and profile".

export const LoginRequestSchema = z.object({ email: EmailSchema, password: LoginPasswordSchema });
export type LoginRequest = z.input<typeof LoginRequestSchema>;

/** The repeat of a new password: compared with it by `matches`, so only its length is checked here. */
const PasswordRepeatSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.maxLength(PASSWORD_MAX, { error: ErrorKeys.tooLong }));

/**
 * Refuses a body whose `repeat` field differs from its `password` field, under the repeat. A repeat
 * the schema leaves optional is compared only when it was sent.
 */
const matches =
  <K extends string, R extends string>(password: K, repeat: R) =>
  <T extends Record<K, string> & Partial<Record<R, string>>>(body: T, ctx: z.core.$RefinementCtx<T>) => {
    const repeated: string | undefined = body[repeat];
    if (repeated !== undefined && body[password] !== repeated) {
      ctx.addIssue({ code: 'custom', path: [repeat], message: ErrorKeys.passwordsDoNotMatch });
    }
  };

export const RegisterRequestSchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: NewPasswordSchema,
    password_confirmation: PasswordRepeatSchema,
    /** The customer's interface language; the emails are written in it. */
    locale: z.optional(z.enum(['pt-BR', 'en', 'ru', 'hi'])),
  })
  .check(z.superRefine(matches('password', 'password_confirmation')));
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

export const PasswordResetRequestSchema = z.object({ email: EmailSchema });
export type PasswordResetRequest = z.input<typeof PasswordResetRequestSchema>;

/** "Tell me when it is back" on a sold-out product: where to write, and in which language. */
export const StockNotificationRequestSchema = z.object({
  email: EmailSchema,
  lang: z.enum(LOCALES, { error: ErrorKeys.unknownOption }),
});
export type StockNotificationRequest = z.input<typeof StockNotificationRequestSchema>;

/**
 * The request is kept. `confirm_by_email`: a link to confirm it was mailed to the address, and
 * nothing else is written there until it is followed (a guest, or another address than the
 * signed-in customer's own verified one); false: it stands already.
 */
export const StockNotificationResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  confirm_by_email: z.boolean(),
});
export type StockNotificationResponse = z.infer<typeof StockNotificationResponseSchema>;

/**
 * The `code` of a 409 from POST /stock-notifications/confirm, beside the usual `message`: the link
 * was followed already (the request stands), or it expired first (asking again mails a new one). A
 * link the store does not know is a 422 for `token`, as every emailed link's.
 */
export const STOCK_NOTIFICATION_LINK_USED = 'stockNotification.linkUsed';
export const STOCK_NOTIFICATION_LINK_EXPIRED = 'stockNotification.linkExpired';

/** A request confirmed by its emailed link; `lang` is the one it was asked in, for the page to speak. */
export const StockNotificationConfirmedSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  lang: z.enum(LOCALES),
});
export type StockNotificationConfirmed = z.infer<typeof StockNotificationConfirmedSchema>;

/**
 * PATCH /password-reset/{token}: the new password, and its repeat when the client asks for one (the
 * web app's form does); a repeat sent must match.
 */
export const PasswordResetConfirmSchema = z
  .object({
    password: NewPasswordSchema,
    password_confirmation: z.optional(PasswordRepeatSchema),
  })
  .check(z.superRefine(matches('password', 'password_confirmation')));
export type PasswordResetConfirm = z.input<typeof PasswordResetConfirmSchema>;

export const TokenParamsSchema = z.object({ token: EmailTokenSchema });
export const TokenBodySchema = z.object({ token: EmailTokenSchema });
export type TokenBody = z.input<typeof TokenBodySchema>;

export const EmailUpdateRequestSchema = z.object({
  email: EmailSchema,
  /**
   * The current password, checked when sent (the web app's form asks for it). A session alone may
   * ask for the change: what keeps one on a borrowed device or from a stolen token from moving the
   * account elsewhere is the old address, which is told of the change with a link that undoes it
   * (docs/api.md, "Changing the address").
   */
  password: z.optional(LoginPasswordSchema),
});
export type EmailUpdateRequest = z.input<typeof EmailUpdateRequestSchema>;

export const PasswordUpdateRequestSchema = z
  .object({
    /** The current password. */
    password: LoginPasswordSchema,
    newPassword: NewPasswordSchema,
    new_password_confirmation: PasswordRepeatSchema,
  })
  .check(z.superRefine(matches('newPassword', 'new_password_confirmation')));
export type PasswordUpdateRequest = z.input<typeof PasswordUpdateRequestSchema>;

export const NameUpdateRequestSchema = z.object({ name: NameSchema });
export type NameUpdateRequest = z.input<typeof NameUpdateRequestSchema>;

export const LocaleUpdateRequestSchema = z.object({ locale: z.enum(['pt-BR', 'en', 'ru', 'hi']) });

/** A whole number sent as a JSON number or as a string of digits (a route parameter passed on). */
const wholeNumber = (min: number, max: number) =>
  z.pipe(
    z.pipe(
      z.union(
        [
          z.number({ error: ErrorKeys.notANumber }),
          z.string().check(z.regex(/^\d{1,10}$/, { error: ErrorKeys.notANumber })),
        ],
        { error: (issue) => (issue.input === undefined ? ErrorKeys.requiredField : ErrorKeys.notANumber) },
      ),
      z.transform(Number),
    ),
    z
      .int({ error: ErrorKeys.notANumber })
      .check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(max, { error: ErrorKeys.tooLarge })),
  );

export const ReviewCreateRequestSchema = z.object({
  productId: wholeNumber(1, 2_147_483_647),
  rating: wholeNumber(1, 5),
  text: requiredText.check(
    z.minLength(REVIEW_TEXT_MIN, { error: ErrorKeys.tooShort }),
    z.maxLength(REVIEW_TEXT_MAX, { error: ErrorKeys.tooLong }),
  ),
});
export type ReviewCreateRequest = z.input<typeof ReviewCreateRequestSchema>;

const reviewText = requiredText.check(
  z.minLength(REVIEW_TEXT_MIN, { error: ErrorKeys.tooShort }),
  z.maxLength(REVIEW_TEXT_MAX, { error: ErrorKeys.tooLong }),
);

/** `PATCH /reviews/{id}`: the author's new rating, text, or both (at least one: the server says so under `text`). */
export const ReviewUpdateRequestSchema = z.object({
  rating: z.optional(wholeNumber(1, 5)),
  text: z.optional(reviewText),
});
export type ReviewUpdateRequest = z.input<typeof ReviewUpdateRequestSchema>;

export const ReviewIdParamsSchema = z.object({
  id: z
    .string()
    .check(
      z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: ErrorKeys.invalidValue }),
    ),
});

/** `DELETE /profile`: the current password confirms that the account's owner asks. */
export const AccountDeleteRequestSchema = z.object({ password: LoginPasswordSchema });
export type AccountDeleteRequest = z.input<typeof AccountDeleteRequestSchema>;
