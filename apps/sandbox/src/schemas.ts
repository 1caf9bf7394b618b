import { z } from 'zod';
import { cardDigits, passesLuhn } from './cards.ts';
import { normaliseLanguage } from './i18n.ts';
import { AMOUNT_MAX_MINOR, CURRENCIES, DECIMAL_AMOUNT_PATTERN, decimalStringToMinor } from './money.ts';
import { isOnOrigins } from './redirects.ts';

// What the sandbox accepts, with zod. Failed checks name a code (README "Errors"): "required",
// "invalid", or the refinement's own ("luhn", "foreign_origin", "sum_mismatch"...).

export const OrderId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2_048);

const Decimal = z.string().regex(DECIMAL_AMOUNT_PATTERN);

/**
 * The shopper's language for the provider's pages: pt-BR, en, ru or hi in any case, or a plain pt.
 * Any other value is dropped, not refused: the pages then fall back to the browser's languages.
 */
export const LanguageField = z
  .unknown()
  .transform((value) => normaliseLanguage(value))
  .optional();

/** A card as the card API and the card forms take it; the number may keep the mask's spaces. */
export const CardNumber = z
  .string()
  .max(32)
  .transform(cardDigits)
  .superRefine((digits, ctx) => {
    if (!/^\d{12,19}$/.test(digits)) ctx.addIssue({ code: 'custom', message: 'invalid' });
    else if (!passesLuhn(digits)) ctx.addIssue({ code: 'custom', message: 'luhn' });
  });

export const Cvc = z.string().regex(/^\d{3,4}$/);

/** A URL the browser will be sent to: absolute, http(s), on one of the store's origins. */
function storeUrl(origins: readonly string[]) {
  return z
    .string()
    .max(2_048)
    .refine((url) => isOnOrigins(url, origins), 'foreign_origin');
}

/** The widget request (docs/payments.md, "The widget request"); amounts are decimal strings, the receipt must add up. */
export const WidgetRequestSchema = z
  .object({
    order_id: OrderId,
    amount: Decimal,
    currency: z.enum(CURRENCIES),
    description: z.string().trim().min(1).max(256),
    language: LanguageField,
    receipt: z.object({
      email: z.email().max(128),
      items: z
        .array(
          z.object({
            name: z.string().trim().min(1).max(128),
            price: Decimal,
            quantity: z.int().min(1).max(1_000),
            sum: Decimal,
            payment_method: z.literal('full_prepayment'),
            payment_object: z.literal('service'),
            vat: z.literal('none'),
          }),
        )
        .min(1)
        .max(100),
      payments: z.tuple([z.object({ type: z.literal('electronic'), sum: Decimal })]),
    }),
  })
  .superRefine((request, ctx) => {
    const amount = decimalStringToMinor(request.amount) ?? 0;
    if (amount <= 0 || amount > AMOUNT_MAX_MINOR)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'invalid' });
    let total = 0;
    request.receipt.items.forEach((item, index) => {
      const price = decimalStringToMinor(item.price) ?? 0;
      const sum = decimalStringToMinor(item.sum) ?? 0;
      if (price * item.quantity !== sum) {
        ctx.addIssue({ code: 'custom', path: ['receipt', 'items', index, 'sum'], message: 'sum_mismatch' });
      }
      total += sum;
    });
    if (total !== amount) ctx.addIssue({ code: 'custom', path: ['receipt', 'items'], message: 'total_mismatch' });
    const payment = decimalStringToMinor(request.receipt.payments[0].sum);
    if (payment !== amount) {
      ctx.addIssue({ code: 'custom', path: ['receipt', 'payments', 0, 'sum'], message: 'total_mismatch' });
    }
  });
export type WidgetRequest = z.infer<typeof WidgetRequestSchema>;

/**
 * When a QR or UPI payment may no longer be paid (the store's order expiry), with any UTC offset.
 * How far ahead it must be is checked when the payment is made, not here: a retry under the same
 * Idempotency-Key gets the first answer, however late it comes.
 */
const ExpiresAt = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .optional();

/** The server API's POST /api/v1/payments, one shape per method. */
export function createPaymentSchema(origins: readonly string[]) {
  const base = {
    order_id: OrderId,
    amount_minor: z.int().min(1).max(AMOUNT_MAX_MINOR),
    currency: z.enum(CURRENCIES),
    description: z.string().trim().min(1).max(256),
    callback_url: HttpUrl,
    language: LanguageField,
  };
  return z.discriminatedUnion('method', [
    z.object({
      method: z.literal('card'),
      ...base,
      return_url: storeUrl(origins),
      card: z.object({
        number: CardNumber,
        exp_month: z.int().min(1).max(12),
        exp_year: z.int().min(2000).max(2100),
        cvc: Cvc,
      }),
      browser: z.object({
        ip: z.string().min(1).max(64),
        screen_height: z.int().min(0).max(100_000).optional(),
        screen_width: z.int().min(0).max(100_000).optional(),
        time_zone_offset: z.int().min(-1_440).max(1_440).optional(),
        user_agent: z.string().max(512).optional(),
      }),
    }),
    z
      .object({
        method: z.literal('qr'),
        ...base,
        scheme: z.enum(['pix', 'sbp']),
        return_url: storeUrl(origins).optional(),
        payer: z
          .object({ personal_id: z.string().max(32).optional(), first_name: z.string().max(64).optional() })
          .optional(),
        expires_at: ExpiresAt,
      })
      .superRefine((request, ctx) => {
        // Each rail settles in its own currency only, as the real ones do.
        if (request.scheme === 'pix' && request.currency !== 'BRL') {
          ctx.addIssue({ code: 'custom', path: ['currency'], message: 'pix_requires_brl' });
        }
        if (request.scheme === 'sbp' && request.currency !== 'RUB') {
          ctx.addIssue({ code: 'custom', path: ['currency'], message: 'sbp_requires_rub' });
        }
      }),
    z
      .object({
        method: z.literal('upi'),
        ...base,
        customer: z.object({
          first_name: z.string().trim().min(1).max(64),
          account_number: z.string().trim().min(1).max(64),
          email: z.email().max(128),
          phone: z.string().regex(/^\+?[\d\s()-]{5,20}$/),
          zip: z.string().trim().min(1).max(16),
          address: z.string().trim().min(1).max(256),
        }),
        success_url: storeUrl(origins),
        decline_url: storeUrl(origins),
        cancel_url: storeUrl(origins),
        expires_at: ExpiresAt,
      })
      .refine((request) => request.currency === 'INR', { path: ['currency'], message: 'upi_requires_inr' }),
  ]);
}
export type CreatePaymentBody = z.infer<ReturnType<typeof createPaymentSchema>>;

export const RefundSchema = z.object({ amount_minor: z.int().min(1).max(AMOUNT_MAX_MINOR) });

export const ChargebackSchema = z.object({ amount_minor: z.int().min(1).max(AMOUNT_MAX_MINOR) });

export const ChaosSchema = z.object({
  duplicate: z.boolean(),
  out_of_order: z.boolean(),
  delay_ms: z.int().min(0).max(600_000),
});

/** The card form of the hosted page and the widget: number, MM/YY (the slash may be left out), CVC. */
export const CardFormSchema = z.object({
  card_number: CardNumber,
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/?\s*(\d{2})$/)
    .transform((expiry) => {
      const digits = expiry.replace(/\D/g, '');
      return `${digits.slice(0, 2)}/${digits.slice(2)}`;
    }),
  cvc: Cvc,
});

export function expiryParts(expiry: string): { expMonth: number; expYear: number } {
  const [month, year] = expiry.split('/').map((part) => Number(part.trim()));
  return { expMonth: month ?? 0, expYear: 2000 + (year ?? 0) };
}
