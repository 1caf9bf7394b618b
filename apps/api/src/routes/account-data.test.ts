import { randomBytes, randomUUID } from 'node:crypto';
import { AccountExportSchema, CreateOrderResponseSchema, ErrorKeys, ReviewSchema } from '@store/contract';
import { accounts, createLedgerService, transfer } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, expectFieldError, PASSWORD, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createCodedProduct, fund } from '../../test/orders.ts';
import { customerWithCardPayment } from '../../test/payments.ts';

// The customer's data: everything the store holds about them as one download, and the account's
// deletion, which erases what is personal and keeps the books exactly as they were.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const exportData = (token?: string) => call(ctx.app, 'GET', '/api/profile/export', { token });
const deleteAccount = (token: string | undefined, body: unknown) =>
  call(ctx.app, 'DELETE', '/api/profile', { token, body });
const login = (email: string, password = PASSWORD) =>
  call(ctx.app, 'POST', '/api/login', { body: { email, password } });

/**
 * A customer who used the store: bought two codes from the balance with a promo code, reviewed the
 * product, asked to hear when another is back, and signed in a second time.
 */
async function customerWithHistory() {
  const customer = await registerUser(ctx.app);
  const { product, codes } = await createCodedProduct(db(), { stock: 3, priceMinor: 2_000 });
  const promo = `DATA${randomBytes(3).toString('hex').toUpperCase()}`;
  await db().promoCode.create({ data: { code: promo, discountPercent: 10 } });
  await fund(ctx.database.sql, customer.user.id, 10_000);
  const flush = await call(ctx.app, 'PATCH', '/api/basket', {
    token: customer.token,
    body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 2 }] },
  });
  expect(flush.status).toBe(200);
  const created = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
    token: customer.token,
    body: { type: 'spending', code: promo },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { order_id: orderId } = CreateOrderResponseSchema.parse(created.body);
  const spent = await call(ctx.app, 'POST', `/api/payment/spending-balance-handle?orderId=${orderId}`, {
    token: customer.token,
  });
  expect(spent.body.status).toBe('fulfilled');
  // The codes shown once, which records from where.
  expect((await call(ctx.app, 'GET', `/api/payment-confirm/${orderId}`, { token: customer.token })).status).toBe(200);
  const review = await call(ctx.app, 'POST', '/api/products/feedbacks', {
    token: customer.token,
    body: { productId: product.id, rating: 5, text: 'Worked at once.' },
  });
  expect(review.status).toBe(201);
  const soldOut = await createCodedProduct(db(), { stock: 0 });
  const watched = await call(ctx.app, 'POST', `/api/products/${soldOut.product.id}/stock-notifications`, {
    token: customer.token,
    body: { email: customer.email, lang: 'en' },
  });
  expect(watched.status).toBe(200);
  const second = await login(customer.email);
  expect(second.status).toBe(200);
  return {
    ...customer,
    secondToken: second.body.token as string,
    product,
    codes,
    promo,
    orderId,
    reviewId: ReviewSchema.parse(review.body).id,
    watchedProductId: soldOut.product.id,
  };
}

/** Every account's total in the books, keyed by account and provider, and the whole ledger's sum. */
async function books() {
  const ledger = createLedgerService({ sql: ctx.database.sql });
  const totals = await ledger.accountTotals();
  return {
    totals: Object.fromEntries(totals.map((t) => [`${t.account}:${t.provider ?? ''}`, t.balanceMinor])),
    problems: await ledger.verifyBooks(),
  };
}

describe('GET /api/profile/export', () => {
  it('is everything the store holds about the customer, as a JSON download, with no secret in it', async () => {
    const customer = await customerWithHistory();
    const response = await exportData(customer.token);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="account-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data = AccountExportSchema.parse(response.body);

    expect(data.profile).toMatchObject({
      id: customer.user.id,
      email: customer.email,
      name: customer.user.name,
      balance_minor: 10_000 - 3_600,
      owed_minor: 0,
    });
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({
      id: customer.orderId,
      type: 'spending',
      status: 'fulfilled',
      subtotal_minor: 4_000,
      discount_minor: 400,
      total_minor: 3_600,
      promo_code: customer.promo,
      lines: [{ product_id: customer.product.id, quantity: 2, unit_price_minor: 2_000, codes_delivered: 2 }],
    });
    expect(data.payments.every((payment) => payment.order_id === customer.orderId)).toBe(true);
    expect(data.ledger.map((entry) => [entry.kind, entry.account, entry.amount_minor])).toEqual([
      ['adjustment', 'customer_balance', 10_000],
      ['spend', 'customer_balance', -3_600],
    ]);
    expect(data.reviews).toEqual([
      expect.objectContaining({ id: customer.reviewId, rating: 5, text: 'Worked at once.' }),
    ]);
    expect(data.sessions).toHaveLength(2);
    expect(data.stock_notifications).toEqual([
      expect.objectContaining({ product_id: customer.watchedProductId, email: customer.email }),
    ]);
    expect(data.promo_uses).toEqual([expect.objectContaining({ code: customer.promo, order_id: customer.orderId })]);
    expect(data.code_views.length).toBeGreaterThanOrEqual(2);
    expect(data.code_views.every((view) => view.product_id === customer.product.id)).toBe(true);
    const templates = data.emails.map((email) => email.template);
    expect(templates).toContain('account-activation');
    expect(templates).toContain('order-receipt');
    expect(data.emails.every((email) => email.to === customer.email)).toBe(true);

    // No working link, token, password hash or code.
    const text = JSON.stringify(response.body);
    const activation = await emailedToken(db(), customer.email, 'account-activation');
    expect(text).not.toContain(activation.token);
    expect(text).not.toContain('"link"');
    expect(text).not.toContain(customer.token);
    expect(text).not.toMatch(/argon2/);
    for (const code of customer.codes) expect(text).not.toContain(code);
  });

  it('needs a session and holds only the caller’s own data', async () => {
    expect((await exportData()).status).toBe(401);
    const other = await customerWithHistory();
    const stranger = await registerUser(ctx.app);
    const data = AccountExportSchema.parse((await exportData(stranger.token)).body);
    expect(data.profile.id).toBe(stranger.user.id);
    expect(data.orders).toEqual([]);
    expect(data.reviews).toEqual([]);
    expect(data.ledger).toEqual([]);
    expect(JSON.stringify(data)).not.toContain(other.email);
  });
});

describe('DELETE /api/profile', () => {
  it('erases the personal data, keeps the orders anonymised and the books unchanged, and frees the address', async () => {
    const customer = await customerWithHistory();
    const before = await books();
    expect(before.problems).toEqual([]);

    const response = await deleteAccount(customer.token, { password: PASSWORD });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.ok).toBe(true);

    // Signed out everywhere, and no way back in.
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.secondToken })).status).toBe(401);
    expect(await db().session.count({ where: { userId: customer.user.id } })).toBe(0);
    expectFieldError(await login(customer.email), 'password', ErrorKeys.invalidCredentials);

    // The row stays for the books, with nothing left of who it was.
    const row = await db().user.findUniqueOrThrow({ where: { id: customer.user.id } });
    expect(row.email).toBe(`deleted-${customer.user.id}@deleted.invalid`);
    expect(row.name).toBe('deleted');
    expect(row.deletedAt).not.toBeNull();
    expect(row.emailVerifiedAt).toBeNull();
    expect(row.passwordHash).not.toMatch(/argon2/);
    expectFieldError(await login(row.email, ''), 'password', ErrorKeys.requiredField);
    expectFieldError(await login(row.email, 'anything1'), 'password', ErrorKeys.invalidCredentials);

    const order = await db().order.findUniqueOrThrow({ where: { id: customer.orderId }, include: { lines: true } });
    expect(order).toMatchObject({ userId: customer.user.id, status: 'FULFILLED', totalMinor: 3_600n });
    expect(order.lines).toHaveLength(1);
    expect(await db().promoRedemption.count({ where: { orderId: customer.orderId } })).toBe(1);
    const after = await books();
    expect(after.totals).toEqual(before.totals);
    expect(after.problems).toEqual([]);
    expect(Number(row.balanceMinor)).toBe(6_400);

    // Personal data gone.
    expect(await db().review.count({ where: { userId: customer.user.id } })).toBe(0);
    expect(await db().emailToken.count({ where: { userId: customer.user.id } })).toBe(0);
    expect(await db().outboundEmail.count({ where: { toAddress: customer.email } })).toBe(0);
    const erased = await db().outboundEmail.findMany({ where: { toAddress: row.email } });
    expect(erased.length).toBeGreaterThan(0);
    expect(erased.every((email) => JSON.stringify(email.data) === '{}')).toBe(true);
    expect(await db().stockNotification.count({ where: { email: customer.email } })).toBe(0);
    expect(await db().codeReveal.count({ where: { userId: customer.user.id, ip: { not: null } } })).toBe(0);

    // An audit record without personal data.
    const events = await db().accountEvent.findMany({ where: { userId: customer.user.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'deleted', actor: 'customer' });
    expect(events[0]?.detail).toMatchObject({ orders_kept: 1, reviews_deleted: 1, sessions_ended: 2 });
    const audit = JSON.stringify(events[0]?.detail);
    expect(audit).not.toContain(customer.email);
    expect(audit).not.toContain(customer.user.name);

    // The address is free for a new account, which starts empty.
    const again = await registerUser(ctx.app, { email: customer.email });
    expect(again.user.id).not.toBe(customer.user.id);
    const fresh = AccountExportSchema.parse((await exportData(again.token)).body);
    expect(fresh.orders).toEqual([]);
    expect(fresh.emails.map((email) => email.template)).toEqual(['account-activation']);
  });

  it('says a wrong or missing password under the field, and changes nothing', async () => {
    const customer = await registerUser(ctx.app);
    expectFieldError(
      await deleteAccount(customer.token, { password: 'Wrong1234' }),
      'password',
      ErrorKeys.wrongPassword,
    );
    expectFieldError(await deleteAccount(customer.token, {}), 'password', ErrorKeys.requiredField);
    expectFieldError(await deleteAccount(customer.token, { password: '   ' }), 'password', ErrorKeys.requiredField);
    expect((await deleteAccount(undefined, { password: PASSWORD })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(200);
    expect((await login(customer.email)).status).toBe(200);
    expect(await db().accountEvent.count({ where: { userId: customer.user.id } })).toBe(0);
  });

  it('refuses with 409 while a payment of an order is being decided', async () => {
    const customer = await customerWithCardPayment(ctx.app, db());
    const response = await deleteAccount(customer.token, { password: PASSWORD });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'payment_deciding' });
    expect(response.body.message).toMatch(/payment/);
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(200);

    // Once it failed, the account may go.
    await db().payment.update({ where: { id: customer.paymentId }, data: { status: 'FAILED' } });
    expect((await deleteAccount(customer.token, { password: PASSWORD })).status).toBe(200);
  });

  it('refuses with 409 while the customer owes the store', async () => {
    const customer = await registerUser(ctx.app);
    await ctx.database.sql.transaction((tx) =>
      transfer(tx, {
        key: `test-debt:${randomUUID()}`,
        kind: 'ADJUSTMENT',
        from: accounts.receivable(customer.user.id),
        to: accounts.adjustments,
        amountMinor: 1_500,
      }),
    );
    const response = await deleteAccount(customer.token, { password: PASSWORD });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'balance_owed' });
    expect((await login(customer.email)).status).toBe(200);
    const row = await db().user.findUniqueOrThrow({ where: { id: customer.user.id } });
    expect(row.deletedAt).toBeNull();
  });
});
