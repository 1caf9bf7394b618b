import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A payment event as the provider writes it (about 450 bytes), padded to `bytes` when asked: a forger
 * may send up to the callback route's body limit.
 */
export function eventBody(bytes = 0): string {
  const at = new Date().toISOString();
  const body = JSON.stringify({
    type: 'payment.succeeded',
    timestamp: at,
    data: {
      id: `pay_${randomBytes(12).toString('hex')}`,
      order_id: randomUUID(),
      method: 'widget',
      status: 'succeeded',
      amount_minor: 2_990,
      currency: 'BRL',
      refunded_minor: 0,
      failure_reason: null,
      card: { brand: 'visa', last4: '4242' },
      version: 2,
      created_at: at,
      updated_at: at,
    },
  });
  const padding = bytes - body.length - ',"padding":""'.length;
  return padding > 0 ? `${body.slice(0, -1)},"padding":"${'x'.repeat(padding)}"}` : body;
}
