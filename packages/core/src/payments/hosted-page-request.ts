import { createHmac } from 'node:crypto';

/**
 * The hosted page's request (docs/sandbox.md): the JSON the store signs and the browser posts, base64
 * encoded, in the hidden field `Request` of a form to the provider's hosted page.
 *
 * The signature is HMAC-SHA256, keyed with the merchant's secret key, over these fields joined by
 * `|` in this order, as lowercase hex:
 *
 *   token | order_id | request_date | amount.value | amount.currency | request_ip | return_url | callback_url
 *
 * No field may contain `|`: with a separator inside a field, two different requests could join to
 * the same string (moving characters between neighbours), so such a request is refused rather than
 * escaped.
 */
export interface HostedPageRequest {
  /** The store's id of this payment attempt: the same token opens the same payment at the provider. */
  token: string;
  order_id: string;
  /** ISO 8601 in UTC; the provider refuses a request much older than now. */
  request_date: string;
  amount: { value: string; currency: string };
  request_ip: string;
  return_url: string;
  callback_url: string;
  /** The customer's language for the page; not signed: it changes what the page says, not what is paid. */
  language?: string;
  signature: string;
}

export const HOSTED_PAGE_SIGNED_FIELDS = [
  'token',
  'order_id',
  'request_date',
  'amount.value',
  'amount.currency',
  'request_ip',
  'return_url',
  'callback_url',
] as const;

export const HOSTED_PAGE_FIELD_SEPARATOR = '|';

export function hostedPageSignedValues(request: Omit<HostedPageRequest, 'signature'>): string[] {
  return [
    request.token,
    request.order_id,
    request.request_date,
    request.amount.value,
    request.amount.currency,
    request.request_ip,
    request.return_url,
    request.callback_url,
  ];
}

export function signHostedPageRequest(request: Omit<HostedPageRequest, 'signature'>, key: string): string {
  const values = hostedPageSignedValues(request);
  const withSeparator = values.findIndex((value) => value.includes(HOSTED_PAGE_FIELD_SEPARATOR));
  if (withSeparator !== -1) {
    throw new RangeError(
      `${HOSTED_PAGE_SIGNED_FIELDS[withSeparator]} must not contain "${HOSTED_PAGE_FIELD_SEPARATOR}"`,
    );
  }
  return createHmac('sha256', key).update(values.join(HOSTED_PAGE_FIELD_SEPARATOR), 'utf8').digest('hex');
}

/** The value of the hidden `Request` field: the signed request as base64 of its JSON. */
export function encodeHostedPageRequest(request: Omit<HostedPageRequest, 'signature'>, key: string): string {
  const signed: HostedPageRequest = { ...request, signature: signHostedPageRequest(request, key) };
  return Buffer.from(JSON.stringify(signed), 'utf8').toString('base64');
}
