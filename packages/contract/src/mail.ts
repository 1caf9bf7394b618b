import { z } from 'zod';

import { LOCALES } from './limits.ts';

/** Every email is written in the customer's language. */
export const LocaleSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof LocaleSchema>;

/**
 * The emails that carry a token in their link (docs/architecture.md, "Email: the outbox"). Each links
 * to a route of the web app:
 * - account-activation: `/?accountToken=…` after registration;
 * - email-verify: `/verify-email/{token}`;
 * - password-reset: `/password-reset/{token}`;
 * - email-change: `/?emailToken=…`, sent to the new address;
 * - password-change: `/?passwordToken=…`;
 * - back-in-stock-confirm: `/product/{id}?backInStockToken=…`, to an address given on a sold-out
 *   product's page by a guest (or by a customer, other than the account's own verified one): nothing
 *   else is written to it until the link is followed.
 */
export const TOKEN_EMAIL_TEMPLATES = [
  'account-activation',
  'email-verify',
  'password-reset',
  'email-change',
  'password-change',
  'back-in-stock-confirm',
] as const;
export type TokenEmailTemplate = (typeof TOKEN_EMAIL_TEMPLATES)[number];

/**
 * The notices: each tells of something done, and says what to do if the reader did not do it.
 * - email-changed: to the old address once a change is confirmed. Its link,
 *   `/email-change-undo/{token}`, carries a token that works for a week: it puts the old address
 *   back, signs the account out everywhere and ends its password, so a change made from a stolen
 *   session does not keep the account;
 * - email-in-use: to an address someone tried to move another account to; that caller is told
 *   the same as for a free address, so the change form does not reveal who has an account; the
 *   link opens the store;
 * - back-in-stock: to whoever asked on a sold-out product's page and confirmed the address, once,
 *   when its stock returns; the link opens the product.
 */
export const NOTICE_TEMPLATES = ['email-changed', 'email-in-use', 'back-in-stock'] as const;
export type NoticeTemplate = (typeof NOTICE_TEMPLATES)[number];

/**
 * What happened to the balance, told to its owner; each links to the profile and names the order:
 * - balance-topup: a paid top-up was credited;
 * - balance-refund: money went back to the balance (an operator refunded an order, or a payment
 *   arrived for an order another payment had paid already).
 * A shortfall at fulfilment is told in the order's receipt instead.
 */
export const BALANCE_TEMPLATES = ['balance-topup', 'balance-refund'] as const;
export type BalanceTemplate = (typeof BALANCE_TEMPLATES)[number];

/**
 * Every email the store sends: the token emails, the notices, the balance notices and the receipt
 * of a completed order, which links to the profile (`/profile`) and never holds a code.
 */
export const EMAIL_TEMPLATES = [
  ...TOKEN_EMAIL_TEMPLATES,
  ...NOTICE_TEMPLATES,
  ...BALANCE_TEMPLATES,
  'order-receipt',
] as const;
export const EmailTemplateSchema = z.enum(EMAIL_TEMPLATES);
export type EmailTemplate = z.infer<typeof EmailTemplateSchema>;
export const isNoticeTemplate = (template: EmailTemplate): template is NoticeTemplate =>
  (NOTICE_TEMPLATES as readonly EmailTemplate[]).includes(template);
export const isBalanceTemplate = (template: EmailTemplate): template is BalanceTemplate =>
  (BALANCE_TEMPLATES as readonly EmailTemplate[]).includes(template);

/** What a receipt lists: the order, what each line delivered, and what went back to the balance. */
export const ReceiptDataSchema = z.object({
  orderId: z.uuid(),
  currency: z.string().min(3).max(8),
  totalMinor: z.number().int().nonnegative(),
  refundedMinor: z.number().int().nonnegative(),
  lines: z
    .array(
      z.object({
        name: z.string().max(200),
        quantity: z.number().int().positive(),
        delivered: z.number().int().nonnegative(),
      }),
    )
    .max(100),
});
export type ReceiptData = z.infer<typeof ReceiptDataSchema>;

/**
 * What a balance notice tells: the order the money came from, the amount, the balance after it
 * (all in minor units of `currency`), and for a refund why.
 */
export const BalanceNoticeDataSchema = z.object({
  orderId: z.uuid(),
  currency: z.string().min(3).max(8),
  amountMinor: z.number().int().positive(),
  balanceMinor: z.number().int().nonnegative(),
  /**
   * `order_refunded`: an operator gave an order's price back; `paid_twice`: a second payment of a paid
   * order, going back to its card (nothing came onto the balance); `late_returned`: a payment that came
   * after its order had ended, whose promo code it could no longer have, going back to its card.
   */
  cause: z.enum(['topup', 'order_refunded', 'paid_twice', 'late_returned']),
});
export type BalanceNoticeData = z.infer<typeof BalanceNoticeDataSchema>;

/** What a template is rendered with; stored in `outbound_emails.data`. */
export const EmailDataSchema = z.object({
  /** The customer's name, for the greeting. */
  name: z.string(),
  /** Absolute link the message's button opens. */
  link: z.url(),
  /** How long the link works, in minutes; for a receipt, how long it is worth sending. */
  expiresInMinutes: z.number().int().positive(),
  /** The order of an `order-receipt`. */
  receipt: ReceiptDataSchema.optional(),
  /** The movement of a `balance-topup` or `balance-refund`. */
  balance: BalanceNoticeDataSchema.optional(),
});
export type EmailData = z.infer<typeof EmailDataSchema>;

/**
 * Token lifetimes, in minutes. For a notice without a token the figure is how long it stays worth
 * sending (a notice that could not go out for a week is stale news, no longer a warning); the
 * email-changed notice's undo link works as long.
 */
export const EMAIL_TOKEN_TTL_MINUTES: Record<TokenEmailTemplate | NoticeTemplate, number> = {
  'account-activation': 72 * 60,
  'email-verify': 72 * 60,
  'password-reset': 60,
  'email-change': 60,
  'password-change': 60,
  'back-in-stock-confirm': 24 * 60,
  'email-changed': 7 * 24 * 60,
  'email-in-use': 7 * 24 * 60,
  'back-in-stock': 3 * 24 * 60,
};

/** A receipt or balance notice that could not go out for a week is dropped rather than sent that late. */
export const RECEIPT_SEND_WINDOW_MINUTES = 7 * 24 * 60;
