/**
 * Payselection's two HMAC-SHA256 signatures, hex, keyed with the merchant's secret key.
 *
 * Requests to the gateway carry `X-SITE-ID`, `X-REQUEST-ID` and `X-REQUEST-SIGNATURE` over
 * "METHOD\nPATH\nSITE_ID\nREQUEST_ID\nBODY", the path with its leading slash and no host
 * (Payselection-PayApp-SDK-PHP src/Library.php `sendRequest`; Payselection-PayApp-SDK-Python
 * src/payselection/core/utils/signature_formation.py `get_signature_body` with a request id).
 *
 * Webhooks carry `X-SITE-ID` and `X-WEBHOOK-SIGNATURE` over "POST\nNOTIFICATION_URL\nSITE_ID\nBODY",
 * the notification URL being the full `WebhookUrl` the payment was created with
 * (Payselection-PayApp-SDK-PHP src/BaseHook.php; the Python SDK's webhook/services.py and
 * docs/examples/08-webhook.md, which sign `str(request.url)`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedRequest {
  method: string;
  /** `/payments/requests/single`: the path only, as the SDKs sign it. */
  path: string;
  siteId: string;
  requestId: string;
  /** The body's exact bytes as sent; empty for a GET. */
  body: string;
}

export function payselectionRequestSignature(request: SignedRequest, secretKey: string): string {
  const signed = `${request.method.toUpperCase()}\n${request.path}\n${request.siteId}\n${request.requestId}\n${request.body}`;
  return createHmac('sha256', secretKey).update(signed).digest('hex');
}

export interface SignedWebhook {
  /** The `WebhookUrl` the notification was sent to, exactly as the payment request gave it. */
  notificationUrl: string;
  siteId: string;
  body: string | Buffer;
}

export function payselectionWebhookSignature(webhook: SignedWebhook, secretKey: string): string {
  return createHmac('sha256', secretKey)
    .update(`POST\n${webhook.notificationUrl}\n${webhook.siteId}\n`)
    .update(webhook.body)
    .digest('hex');
}

/**
 * Whether `offered` is the signature under one of `secretKeys`. Every key is tried, so the time
 * taken says nothing of which one matched; each comparison is timing-safe.
 */
export function signedByAnyKey(offered: string, secretKeys: readonly string[], sign: (key: string) => string): boolean {
  const given = Buffer.from(offered.toLowerCase());
  let signed = false;
  for (const key of secretKeys) {
    const expected = Buffer.from(sign(key));
    if (given.length === expected.length && timingSafeEqual(given, expected)) signed = true;
  }
  return signed;
}
