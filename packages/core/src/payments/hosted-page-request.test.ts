import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeHostedPageRequest, type HostedPageRequest, signHostedPageRequest } from './hosted-page-request.ts';

const request = {
  token: 'pay-attempt-1',
  order_id: 'order-42',
  request_date: '2026-11-23T12:00:00.000Z',
  amount: { value: '150.00', currency: 'RUB' },
  request_ip: '203.0.113.7',
  return_url: 'http://localhost:3000/?paymentConfirmOrder=order-42',
  callback_url: 'http://127.0.0.1:3000/api/payments/callback',
};

describe('hosted page request', () => {
  it('signs the listed fields, joined by | in their order, with HMAC-SHA256 in hex', () => {
    const joined =
      'pay-attempt-1|order-42|2026-11-23T12:00:00.000Z|150.00|RUB|203.0.113.7|' +
      'http://localhost:3000/?paymentConfirmOrder=order-42|http://127.0.0.1:3000/api/payments/callback';
    expect(signHostedPageRequest(request, 'merchant-key')).toBe(
      createHmac('sha256', 'merchant-key').update(joined).digest('hex'),
    );
  });

  it('changes with every signed field and with the key', () => {
    const base = signHostedPageRequest(request, 'merchant-key');
    expect(signHostedPageRequest({ ...request, order_id: 'order-43' }, 'merchant-key')).not.toBe(base);
    expect(signHostedPageRequest({ ...request, amount: { value: '1.00', currency: 'RUB' } }, 'merchant-key')).not.toBe(
      base,
    );
    expect(signHostedPageRequest(request, 'another-key')).not.toBe(base);
  });

  it('refuses a field holding the separator, which would make the joined string ambiguous', () => {
    expect(() => signHostedPageRequest({ ...request, return_url: 'http://localhost:3000/a|b' }, 'k')).toThrow(
      /return_url/,
    );
  });

  it('encodes the signed request as base64 JSON', () => {
    const decoded = JSON.parse(Buffer.from(encodeHostedPageRequest(request, 'k'), 'base64').toString('utf8'));
    expect(decoded as HostedPageRequest).toEqual({ ...request, signature: signHostedPageRequest(request, 'k') });
  });
});
