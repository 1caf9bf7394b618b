import * as z from 'zod/mini';

/**
 * `GET /profile/export`: everything the store holds about the signed-in customer, as one JSON
 * document (docs/privacy.md). Money is integer minor units of `currency` (the store's, BRL, unless a
 * row says otherwise); times are ISO 8601. Left out on purpose: the gift-card codes themselves (the
 * profile shows them to their owner), the password's hash, session tokens and the links of emails
 * not sent yet (each a secret that would work for whoever reads the file).
 */
export const ACCOUNT_EXPORT_FORMAT = 'store-account-export/1';

const money = z.int();
const time = z.string();
const maybeTime = z.nullable(z.string());

export const AccountExportSchema = z.object({
  format: z.literal(ACCOUNT_EXPORT_FORMAT),
  exported_at: time,
  profile: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    locale: z.string(),
    email_verified_at: maybeTime,
    activated_at: maybeTime,
    created_at: time,
    balance_minor: money,
    owed_minor: money,
  }),
  orders: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      status: z.string(),
      currency: z.string(),
      subtotal_minor: money,
      discount_minor: money,
      total_minor: money,
      refunded_minor: money,
      promo_code: z.nullable(z.string()),
      created_at: time,
      paid_at: maybeTime,
      fulfilled_at: maybeTime,
      lines: z.array(
        z.object({
          product_id: z.int(),
          product_name: z.string(),
          quantity: z.int(),
          unit_price_minor: money,
          discount_minor: money,
          codes_delivered: z.int(),
        }),
      ),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      order_id: z.string(),
      provider: z.string(),
      method: z.string(),
      status: z.string(),
      amount_minor: money,
      currency: z.string(),
      refunded_minor: money,
      charged_back_minor: money,
      card_brand: z.nullable(z.string()),
      card_last4: z.nullable(z.string()),
      failure_reason: z.nullable(z.string()),
      created_at: time,
    }),
  ),
  /** The legs of the ledger on the customer's own accounts (balance and receivable). */
  ledger: z.array(
    z.object({
      transfer_id: z.string(),
      kind: z.string(),
      account: z.string(),
      amount_minor: money,
      order_id: z.nullable(z.string()),
      created_at: time,
    }),
  ),
  reviews: z.array(
    z.object({
      id: z.string(),
      product_id: z.int(),
      rating: z.int(),
      text: z.string(),
      created_at: time,
      edited_at: maybeTime,
    }),
  ),
  /** Sign-ins: where from and until when; never the token. */
  sessions: z.array(
    z.object({
      id: z.string(),
      user_agent: z.nullable(z.string()),
      ip: z.nullable(z.string()),
      created_at: time,
      last_seen_at: time,
      expires_at: time,
      revoked_at: maybeTime,
    }),
  ),
  /** Emails written to the customer's addresses, with what they said (links left out). */
  emails: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      template: z.string(),
      locale: z.string(),
      status: z.string(),
      created_at: time,
      sent_at: maybeTime,
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  stock_notifications: z.array(
    z.object({
      product_id: z.int(),
      email: z.string(),
      locale: z.string(),
      created_at: time,
      confirmed_at: maybeTime,
      notified_at: maybeTime,
    }),
  ),
  promo_uses: z.array(z.object({ code: z.string(), order_id: z.string(), created_at: time })),
  /** Each time a code of the customer's was shown: when, from where, through which call. */
  code_views: z.array(
    z.object({ product_id: z.int(), route: z.string(), ip: z.nullable(z.string()), created_at: time }),
  ),
});
export type AccountExport = z.infer<typeof AccountExportSchema>;
