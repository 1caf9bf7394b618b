import { freePort } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';
import { CARDS, cardFields, customerWithOrder } from '../../test/payments.ts';

// The provider out of reach: nothing is known of the charge, so the shopper is told to try again in
// a moment (503 with Retry-After), and the order waits, unpaid, for that attempt.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  const nowhere = await freePort();
  ctx = await buildTestApp({
    SANDBOX_URL: `http://127.0.0.1:${nowhere}/sandbox`,
    SANDBOX_API_KEY: 'sk_test_provider_that_is_not_there_000000',
    PAYMENTS_WEBHOOK_SECRETS: 'whsec_dGhlIHByb3ZpZGVyIGlzIG5vdCB0aGVyZSBub3cu',
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('a payment while the provider cannot be reached', () => {
  it('answers 503 with Retry-After, and the order stays open for another attempt', async () => {
    const buyer = await customerWithOrder(ctx.app, ctx.database.prisma);
    const response = await call(ctx.app, 'POST', '/api/payment', {
      token: buyer.token,
      body: { type: 'purchase', ...cardFields(CARDS.success) },
    });
    expect(response.status).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.body).toEqual({ message: 'The payment provider cannot be reached now. Please try again.' });
    const order = await ctx.database.prisma.order.findUniqueOrThrow({ where: { id: buyer.orderId } });
    expect(order.status).toBe('PENDING');
  });
});
