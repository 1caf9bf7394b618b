import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type Language, normaliseLanguage } from './i18n.ts';
import { CURRENCIES, DECIMAL_AMOUNT_PATTERN } from './money.ts';
import { LanguageField } from './schemas.ts';

/**
 * The hosted page's `Request` (docs/sandbox.md, "The hosted page's request"): base64 of a JSON object whose `signature` is
 * HMAC-SHA256, keyed with the merchant's secret key, over
 *   token|order_id|request_date|amount.value|amount.currency|request_ip|return_url|callback_url
 * as lowercase hex. A field holding `|` is refused: the joined string would be ambiguous.
 *
 * `language` (pt-BR, en, ru or hi) is the shopper's language for the pages; it is not signed, as it
 * changes only what the pages read like, and a value the sandbox does not speak is dropped.
 */
const Field = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !value.includes('|'), 'separator');

export const HostedRequestSchema = z.object({
  token: Field(128),
  order_id: Field(64).regex(/^[A-Za-z0-9_-]+$/),
  request_date: z.iso.datetime({ offset: true }),
  amount: z.object({
    value: Field(16).regex(DECIMAL_AMOUNT_PATTERN),
    currency: z.enum(CURRENCIES),
  }),
  request_ip: Field(64),
  return_url: Field(2_048),
  callback_url: Field(2_048),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
  language: LanguageField,
});
export type HostedRequest = z.infer<typeof HostedRequestSchema>;

export function hostedRequestSignature(request: Omit<HostedRequest, 'signature'>, key: string): string {
  const values = [
    request.token,
    request.order_id,
    request.request_date,
    request.amount.value,
    request.amount.currency,
    request.request_ip,
    request.return_url,
    request.callback_url,
  ];
  return createHmac('sha256', key).update(values.join('|'), 'utf8').digest('hex');
}

export type DecodeResult =
  | { ok: true; request: HostedRequest }
  | {
      ok: false;
      problem: 'malformed' | 'bad_signature';
      fields?: Record<string, string[]>;
      /** The request's language, when it could be read: the page refusing it is in that language. */
      language?: Language;
    };

/** Decodes the hidden field and checks its signature; nothing of a request that fails is used. */
export function decodeHostedRequest(encoded: unknown, key: string): DecodeResult {
  if (typeof encoded !== 'string' || encoded.length === 0 || encoded.length > 16_384) {
    return { ok: false, problem: 'malformed', fields: { Request: ['required'] } };
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return { ok: false, problem: 'malformed', fields: { Request: ['invalid'] } };
  }
  const language = normaliseLanguage((json as { language?: unknown } | null)?.language);
  const parsed = HostedRequestSchema.safeParse(json);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'Request'] = ['invalid'];
    return { ok: false, problem: 'malformed', fields, language };
  }
  const expected = Buffer.from(hostedRequestSignature(parsed.data, key), 'hex');
  const given = Buffer.from(parsed.data.signature, 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, problem: 'bad_signature', language };
  return { ok: true, request: parsed.data };
}
