import { randomBytes } from 'node:crypto';
import { convertToCharge, ErrorKeys } from '@store/contract';
import { eventually, eventuallyPasses } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailedToken, uniqueCustomer } from './accounts.ts';
import { createCodedProduct, fund } from './orders.ts';
import { CARDS, listeningTestApp } from './payments.ts';

/**
 * The product's calls, one after the other, as a client that knows only them makes them: the two
 * headers it sends on every call (a JSON content type and X-Requested-With, with or without a body),
 * the bearer token once it holds one, and in each body only the fields of LISTED_FIELDS, none the
 * store added (a basket flush's id, a password with a change of address, a repeat with a reset).
 * Each answer is checked for its status and for what that client reads from it. Where a flow needs
 * state the client would get from an email or from money (a link's token, a funded balance), it
 * comes from the outbox or the database.
 */

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;
const db = () => ctx.database.prisma;

/** The product's calls; the last test checks that each was sent. */
const LISTED_CALLS = [
  'POST /login',
  'POST /register',
  'POST /logout',
  'GET /user',
  'GET /user/balance',
  'POST /password-reset',
  'PATCH /password-reset/{token}',
  'POST /profile/email-verify',
  'PATCH /profile/email-update',
  'PATCH /profile/password-update',
  'PATCH /profile/email-update-confirmation/{token}',
  'POST /profile/password-update-confirmation',
  'PATCH /profile/name-update',
  'POST /card-type',
  'POST /payment',
  'POST /payment-sbp',
  'POST /orders/create',
  'POST /orders/create-upi',
  'POST /orders/create-qr',
  'POST /payment/status',
  'POST /payment/initialize',
  'POST /orders/confirm/{id}',
  'GET /payment-confirm/{orderId}',
  'POST /payment/spending-balance-handle',
  'GET /payment-products/{id}',
  'GET /categories',
  'GET /categories/{id}',
  'GET /products/{id}',
  'GET /products/for-basket/{id}',
  'GET /products/{id}/similar-products',
  'GET /products/feedbacks/{id}',
  'POST /products/feedbacks',
  'GET /popular-products',
  'GET /novelties',
  'GET /discounts',
  'GET /basket',
  'PATCH /basket',
  'POST /promocode',
  'GET /profile/products/purchased/search',
  'GET /countries',
  'GET /currencies',
  'GET /search/hints/{query}',
  'GET /search/products/{query}/filter',
] as const;
const sent = new Set<string>();

/** The body fields that client sends with each call. */
const LISTED_FIELDS: Record<string, readonly string[]> = {
  'POST /login': ['email', 'password'],
  'POST /register': ['name', 'email', 'password', 'password_confirmation'],
  'POST /password-reset': ['email'],
  'PATCH /password-reset/{token}': ['password'],
  'POST /profile/email-verify': ['token'],
  'PATCH /profile/email-update': ['email'],
  'PATCH /profile/password-update': ['password', 'newPassword', 'new_password_confirmation'],
  'POST /profile/password-update-confirmation': ['token'],
  'PATCH /profile/name-update': ['name'],
  'POST /card-type': ['number'],
  'POST /payment': [
    'type',
    'value',
    'card_number',
    'month',
    'year',
    'cvc',
    'screenHeight',
    'screenWidth',
    'timeZoneOffset',
  ],
  'POST /payment-sbp': ['type', 'value'],
  'POST /orders/create': ['type', 'code', 'replenishmentValue'],
  'POST /orders/create-upi': [
    'currency',
    'description',
    'FirstName',
    'AccountNumber',
    'email',
    'phone',
    'zip',
    'address',
    'success_url',
    'decline_url',
    'cancel_url',
  ],
  'POST /orders/create-qr': ['amount', 'currency', 'personalId', 'firstName'],
  'POST /payment/status': ['orderId'],
  'POST /payment/initialize': ['orderId', 'token'],
  // That client sends "a review", its fields named nowhere else: these are the store's.
  'POST /products/feedbacks': ['productId', 'rating', 'text'],
  'PATCH /basket': ['products'],
};

/**
 * One call as that client makes it. `call` names the entry of LISTED_CALLS
 * (`PATCH /password-reset/{token}`), whose LISTED_FIELDS the body is checked against; `url` is what
 * is requested, under /api.
 */
async function send(
  call: string,
  url: string,
  options: { body?: Record<string, unknown>; token?: string | undefined } = {},
) {
  if (options.body) {
    const allowed = LISTED_FIELDS[call];
    if (!allowed) throw new Error(`that client sends ${call} without a body`);
    expect(
      Object.keys(options.body).filter((field) => !allowed.includes(field)),
      call,
    ).toEqual([]);
  }
  expect(LISTED_CALLS, call).toContain(call);
  sent.add(call);
  const method = call.split(' ')[0] as 'GET' | 'POST' | 'PATCH';
  const response = await ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body ? { payload: JSON.stringify(options.body) } : {}),
  });
  // Read field by field below, as that client reads them.
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}

/** The answer worked, as that client tells: a status under 400. */
function ok(answer: Awaited<ReturnType<typeof send>>, expected?: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(400);
  if (expected !== undefined) expect(answer.status).toBe(expected);
  return answer.body;
}

/** What the calls leave for the next ones. */
const state = {
  productId: 0,
  productName: '',
  customer: { name: '', email: '', password: 'Secret123', token: '' },
  purchaseOrderId: '',
};

beforeAll(async () => {
  ctx = await listeningTestApp();
  const { product } = await createCodedProduct(db(), { stock: 40, priceMinor: 2_990, name: 'Specified Gift Card 50' });
  state.productId = product.id;
  state.productName = product.name;
  // Written straight to the database: the search index learns of it from the catalogue's feed.
  await eventuallyPasses(async () => {
    const hints = await ctx.app.inject({
      method: 'GET',
      url: `/api/search/hints/${encodeURIComponent('Specified Gift')}`,
    });
    expect(hints.json().hintsByName.map((hint: { name: string }) => hint.name)).toContain(product.name);
  }, 15_000);
});
afterAll(async () => {
  await ctx?.close();
});

describe('a visitor browses', () => {
  it('GET /categories: the list, with id, formatted_name, name and svg_path', async () => {
    const categories = ok(await send('GET /categories', '/categories'));
    expect(categories.length).toBeGreaterThan(0);
    for (const category of categories) {
      expect(category).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          formatted_name: expect.any(String),
          name: expect.any(String),
          svg_path: expect.toSatisfy((value) => value === null || typeof value === 'string'),
        }),
      );
    }
  });

  it('GET /categories/{id} with every filter, and its ?sort and ?offset variants', async () => {
    const currencies = ok(await send('GET /currencies', '/currencies'));
    const countries = ok(await send('GET /countries', '/countries'));
    expect(currencies[0]).toEqual(expect.objectContaining({ codeName: expect.any(String) }));
    expect(countries[0]).toEqual(expect.objectContaining({ id: expect.any(Number), code: expect.any(String) }));
    const currency = currencies.map((entry: { codeName: string }) => entry.codeName).join(',');
    const country = countries.map((entry: { code: string }) => entry.code).join(',');
    const filtered = ok(
      await send(
        'GET /categories/{id}',
        `/categories/steam?page=1&sort=popular&minPrice=0&maxPrice=100000&currency=${currency}&country=${country}`,
      ),
    );
    expect(filtered.result.products.length).toBeGreaterThan(0);
    ok(await send('GET /categories/{id}', '/categories/steam?sort=increase'));
    ok(await send('GET /categories/{id}', '/categories/steam?offset=0'));
  });

  it('GET /products/{id}, /products/for-basket/{id} and /products/{id}/similar-products: product data', async () => {
    const id = state.productId;
    const product = ok(await send('GET /products/{id}', `/products/${id}`));
    const line = ok(await send('GET /products/for-basket/{id}', `/products/for-basket/${id}`));
    for (const data of [product, line]) {
      expect(data).toEqual(
        expect.objectContaining({ id, name: state.productName, price: 29.9, category: expect.anything() }),
      );
      for (const field of ['cover_path', 'cover_text', 'country_icon']) expect(data).toHaveProperty(field);
    }
    const similar = ok(await send('GET /products/{id}/similar-products', `/products/${id}/similar-products`));
    expect(Array.isArray(similar.products)).toBe(true);
  });

  it('GET /products/feedbacks/{id}?offset: the reviews', async () => {
    const reviews = ok(await send('GET /products/feedbacks/{id}', `/products/feedbacks/${state.productId}?offset=0`));
    expect(reviews.feedbacks).toEqual([]);
  });

  it('GET /popular-products, /novelties and /discounts by offset, and /{list}?page: result.products', async () => {
    for (const list of ['popular-products', 'novelties', 'discounts']) {
      const byOffset = ok(await send(`GET /${list}`, `/${list}?offset=0`));
      const byPage = ok(await send(`GET /${list}`, `/${list}?page=1`));
      expect(Array.isArray(byOffset.result.products)).toBe(true);
      expect(Array.isArray(byPage.result.products)).toBe(true);
    }
    expect(
      ok(await send('GET /popular-products', '/popular-products?offset=0')).result.products.length,
    ).toBeGreaterThan(0);
  });

  it('GET /search/hints/{query}: hintsByName[].name, hintsByArt[].id and name', async () => {
    const byName = ok(await send('GET /search/hints/{query}', `/search/hints/${encodeURIComponent('Specified Gift')}`));
    expect(byName.hintsByName.map((hint: { name: string }) => hint.name)).toContain(state.productName);
    const byArticle = ok(await send('GET /search/hints/{query}', `/search/hints/${state.productId}`));
    expect(byArticle.hintsByArt).toContainEqual(
      expect.objectContaining({ id: state.productId, name: state.productName }),
    );
  });

  it('GET /search/products/{query}/filter, with and without the price and currency', async () => {
    const query = encodeURIComponent('Specified Gift');
    const bare = ok(
      await send('GET /search/products/{query}/filter', `/search/products/${query}/filter?page=1&sort=popular`),
    );
    expect(bare.result.products.map((product: { id: number }) => product.id)).toContain(state.productId);
    ok(
      await send(
        'GET /search/products/{query}/filter',
        `/search/products/${query}/filter?page=1&sort=popular&minPrice=1&maxPrice=1000&currency=USD,BRL`,
      ),
    );
  });

  it('GET /basket without a session: a failure, which that client reads as an empty list', async () => {
    expect((await send('GET /basket', '/basket')).status).toBe(401);
  });

  it('POST /card-type: the brand, a string under `type`', async () => {
    expect(ok(await send('POST /card-type', '/card-type', { body: { number: '42424242' } })).type).toBe('Visa');
  });
});

describe('accounts', () => {
  it('POST /register: token and user', async () => {
    const { name, email } = uniqueCustomer();
    Object.assign(state.customer, { name, email });
    const password = state.customer.password;
    const body = ok(
      await send('POST /register', '/register', {
        body: { name, email, password, password_confirmation: password },
      }),
    );
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toEqual(expect.objectContaining({ id: expect.any(String), email, name }));
  });

  it('POST /login: token and user with its id', async () => {
    const { email, password } = state.customer;
    const body = ok(await send('POST /login', '/login', { body: { email, password } }));
    expect(body.user.id).toEqual(expect.any(String));
    state.customer.token = body.token;
  });

  it('GET /user: email, name, verified and balance (under `user`, as login answers them), no errors', async () => {
    const body = ok(await send('GET /user', '/user', { token: state.customer.token }));
    expect(body.errors).toBeUndefined();
    expect(body.user).toEqual(
      expect.objectContaining({
        email: state.customer.email,
        name: state.customer.name,
        verified: false,
        balance: 0,
      }),
    );
  });

  it('GET /user/balance: the balance', async () => {
    expect(ok(await send('GET /user/balance', '/user/balance', { token: state.customer.token })).balance).toBe(0);
  });

  it('PATCH /profile/name-update: success', async () => {
    const name = `Renamed${randomBytes(2).toString('hex')}`;
    const body = ok(
      await send('PATCH /profile/name-update', '/profile/name-update', { body: { name }, token: state.customer.token }),
    );
    expect(body.user.name).toBe(name);
    state.customer.name = name;
  });

  it('POST /password-reset: ok without errors.email for an account, "Email not found" under email otherwise', async () => {
    const known = ok(await send('POST /password-reset', '/password-reset', { body: { email: state.customer.email } }));
    expect(known.errors?.email).toBeUndefined();
    const unknown = await send('POST /password-reset', '/password-reset', {
      body: { email: `nobody.${randomBytes(4).toString('hex')}@example.com` },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ message: 'Email not found.', errors: { email: [ErrorKeys.emailNotFound] } });
  });

  it('PATCH /password-reset/{token}: the new password alone', async () => {
    const { token } = await emailedToken(db(), state.customer.email, 'password-reset', ctx.devMailbox);
    const password = 'Resetpass12';
    ok(await send('PATCH /password-reset/{token}', `/password-reset/${token}`, { body: { password } }));
    state.customer.password = password;
    // A reset signs every session out; the customer logs in again.
    const login = ok(await send('POST /login', '/login', { body: { email: state.customer.email, password } }));
    state.customer.token = login.token;
  });

  it('POST /profile/email-verify: the emailed token verifies the address', async () => {
    // The link that client follows is mailed on the store's own request.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/profile/email-verify-request',
      headers: { authorization: `Bearer ${state.customer.token}` },
    });
    const { token } = await emailedToken(db(), state.customer.email, 'email-verify', ctx.devMailbox);
    const body = ok(
      await send('POST /profile/email-verify', '/profile/email-verify', {
        body: { token },
        token: state.customer.token,
      }),
    );
    expect(body.user.verified).toBe(true);
    // The client keeps the token it is answered: it signs this customer in.
    expect(body.token).toEqual(expect.any(String));
    const user = ok(await send('GET /user', '/user', { token: body.token }));
    expect(user.user.email).toBe(state.customer.email);
    state.customer.token = body.token;
  });

  it('PATCH /profile/email-update with the new address alone, then the confirmation from its link', async () => {
    const { email } = uniqueCustomer();
    ok(
      await send('PATCH /profile/email-update', '/profile/email-update', {
        body: { email },
        token: state.customer.token,
      }),
    );
    const { token } = await emailedToken(db(), email, 'email-change', ctx.devMailbox);
    const confirmed = ok(
      await send('PATCH /profile/email-update-confirmation/{token}', `/profile/email-update-confirmation/${token}`, {
        token: state.customer.token,
      }),
    );
    expect(confirmed.user.email).toBe(email);
    // The address left is told, with its link that undoes the change.
    expect((await emailedToken(db(), state.customer.email, 'email-changed', ctx.devMailbox)).link).toMatch(
      /\/email-change-undo\//,
    );
    state.customer.email = email;
  });

  it('PATCH /profile/password-update, then POST /profile/password-update-confirmation from its link', async () => {
    const newPassword = 'Changedpass3';
    ok(
      await send('PATCH /profile/password-update', '/profile/password-update', {
        body: { password: state.customer.password, newPassword, new_password_confirmation: newPassword },
        token: state.customer.token,
      }),
    );
    const { token } = await emailedToken(db(), state.customer.email, 'password-change', ctx.devMailbox);
    ok(
      await send('POST /profile/password-update-confirmation', '/profile/password-update-confirmation', {
        body: { token },
        token: state.customer.token,
      }),
    );
    state.customer.password = newPassword;
    ok(await send('POST /login', '/login', { body: { email: state.customer.email, password: newPassword } }));
  });
});

describe('a customer buys', () => {
  const token = () => state.customer.token;

  it('GET /basket, then PATCH /basket with the changes alone: products', async () => {
    expect(ok(await send('GET /basket', '/basket', { token: token() })).products).toEqual([]);
    const body = ok(
      await send('PATCH /basket', '/basket', {
        body: { products: [{ id: state.productId, type: 'increase', count: 2 }] },
        token: token(),
      }),
    );
    expect(body.products).toEqual([expect.objectContaining({ id: state.productId, pivot: { quantity: 2 } })]);
    const lowered = ok(
      await send('PATCH /basket', '/basket', {
        body: { products: [{ id: state.productId, type: 'decrease', count: 1 }] },
        token: token(),
      }),
    );
    expect(lowered.products[0].pivot.quantity).toBe(1);
  });

  it('POST /promocode/?price={n}&code={code}: price, priceWithDiscount and discount', async () => {
    const body = ok(await send('POST /promocode', '/promocode/?price=29.9&code=WELCOME10', { token: token() }));
    expect(body).toEqual(expect.objectContaining({ price: 29.9, priceWithDiscount: 26.91, discount: 10 }));
  });

  it('POST /orders/create with a code: order_id and total_price', async () => {
    const body = ok(
      await send('POST /orders/create', '/orders/create', {
        body: { type: 'purchase', code: 'WELCOME10' },
        token: token(),
      }),
    );
    expect(body).toEqual(expect.objectContaining({ order_id: expect.any(String), total_price: 26.91 }));
    state.purchaseOrderId = body.order_id;
  });

  it('POST /payment with the own card form: the status; POST /payment/status polls it to success', async () => {
    const body = ok(
      await send('POST /payment', '/payment', {
        body: {
          type: 'purchase',
          value: 26.91,
          card_number: CARDS.success,
          month: '12',
          year: '35',
          cvc: '123',
          screenHeight: 800,
          screenWidth: 375,
          timeZoneOffset: 180,
        },
        token: token(),
      }),
    );
    expect(body).toEqual(expect.objectContaining({ status: 'success', order_id: state.purchaseOrderId }));
    const status = async () =>
      ok(
        await send('POST /payment/status', '/payment/status', {
          body: { orderId: state.purchaseOrderId },
          token: token(),
        }),
      ).status;
    await eventually(async () => (await status()) === 'success', 15_000);
  });

  it('GET /payment-confirm/{orderId}: the products, and ok', async () => {
    const body = ok(
      await send('GET /payment-confirm/{orderId}', `/payment-confirm/${state.purchaseOrderId}`, { token: token() }),
    );
    expect(body.ok).toBe(true);
    expect(body.products).toEqual([expect.objectContaining({ product_id: state.productId, quantity: 1 })]);
    expect(body.products[0].codes).toHaveLength(1);
  });

  it('GET /payment-products/{id}: the products of the order', async () => {
    const body = ok(
      await send('GET /payment-products/{id}', `/payment-products/${state.purchaseOrderId}`, { token: token() }),
    );
    expect(body.products).toEqual([expect.objectContaining({ product_id: state.productId })]);
  });

  it('GET /profile/products/purchased/search?page&search_string: the purchased products', async () => {
    const all = ok(
      await send('GET /profile/products/purchased/search', '/profile/products/purchased/search?page=1&search_string=', {
        token: token(),
      }),
    );
    expect(all.products.map((product: { product_id: number }) => product.product_id)).toEqual([state.productId]);
    const found = ok(
      await send(
        'GET /profile/products/purchased/search',
        `/profile/products/purchased/search?page=1&search_string=${encodeURIComponent('Specified')}`,
        { token: token() },
      ),
    );
    expect(found.products).toHaveLength(1);
  });

  it('POST /products/feedbacks: creates a review, which the reviews then list', async () => {
    ok(
      await send('POST /products/feedbacks', '/products/feedbacks', {
        body: { productId: state.productId, rating: 5, text: 'Arrived at once.' },
        token: token(),
      }),
      201,
    );
    const reviews = ok(await send('GET /products/feedbacks/{id}', `/products/feedbacks/${state.productId}?offset=0`));
    expect(reviews.feedbacks).toEqual([expect.objectContaining({ rating: 5, text: 'Arrived at once.' })]);
  });

  /** A new unpaid purchase of one unit, as the checkout makes one before each way of paying. */
  async function newPurchase() {
    ok(
      await send('PATCH /basket', '/basket', {
        body: { products: [{ id: state.productId, type: 'increase', count: 1 }] },
        token: token(),
      }),
    );
    return ok(await send('POST /orders/create', '/orders/create', { body: { type: 'purchase' }, token: token() }), 201);
  }

  it('POST /orders/create-qr: the QR data (QrImage and PayLink)', async () => {
    const order = await newPurchase();
    const body = ok(
      await send('POST /orders/create-qr', '/orders/create-qr', {
        body: { amount: order.total_price, currency: 'BRL', personalId: '52998224725', firstName: 'Ana' },
        token: token(),
      }),
    );
    expect(body.QrImage).toMatch(/^data:image\/png;base64,/);
    expect(body.PayLink).toEqual(expect.any(String));
  });

  const upiBody = (currency: string) => ({
    currency,
    description: 'Digital goods',
    FirstName: 'Ana',
    AccountNumber: 'ana@upi',
    email: state.customer.email,
    phone: '+91 98765 43210',
    zip: '110001',
    address: '1 Main Road, New Delhi',
    success_url: `${ctx.publicUrl}/payment-confirm/x`,
    decline_url: `${ctx.publicUrl}/payment-error/x`,
    cancel_url: `${ctx.publicUrl}/`,
  });

  it('POST /orders/create-upi in the order’s currency: the provider’s page', async () => {
    await newPurchase();
    const body = ok(
      await send('POST /orders/create-upi', '/orders/create-upi', { body: upiBody('BRL'), token: token() }),
    );
    expect(body.redirect_url).toEqual(expect.any(String));
  });

  // UPI settles in rupees: the spec's client names INR, and the payment is charged the order's BRL
  // total converted at the store's rate (docs/currency.md, "What a payment is charged in").
  it('POST /orders/create-upi in INR: the provider’s page, charged in rupees', async () => {
    const { order_id } = await newPurchase();
    const body = ok(
      await send('POST /orders/create-upi', '/orders/create-upi', { body: upiBody('INR'), token: token() }),
    );
    expect(body.redirect_url).toEqual(expect.any(String));
    const order = await db().order.findUniqueOrThrow({ where: { id: order_id } });
    const totalMinor = Number(order.totalMinor);
    const rate = await db().displayRate.findUniqueOrThrow({ where: { currency: 'INR' } });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: body.payment_id } });
    const expected = convertToCharge(totalMinor, rate.brlPerUnit.toString());
    expect({ currency: payment.chargeCurrency, minor: Number(payment.chargeMinor) }).toEqual({
      currency: 'INR',
      minor: expected,
    });
    expect(Number(payment.amountMinor)).toBe(totalMinor);
  });

  it('POST /payment/initialize (orderId, token): the hosted page’s form; POST /orders/confirm/{id}: the status', async () => {
    const order = await newPurchase();
    const body = ok(
      await send('POST /payment/initialize', '/payment/initialize', {
        body: { orderId: order.order_id, token: randomBytes(12).toString('hex') },
        token: token(),
      }),
    );
    expect(body.fields.Request).toEqual(expect.any(String));
    const confirmed = ok(
      await send('POST /orders/confirm/{id}', `/orders/confirm/${order.order_id}`, { token: token() }),
    );
    expect(confirmed.status).toBe('init');
  });

  it('POST /payment without card fields (type, value): the widget’s request, for a purchase and a top-up', async () => {
    const order = await newPurchase();
    const purchase = ok(
      await send('POST /payment', '/payment', { body: { type: 'purchase', value: order.total_price }, token: token() }),
    );
    expect(purchase).toEqual(expect.objectContaining({ status: 'widget', order_id: order.order_id }));
    const topUp = ok(
      await send('POST /payment', '/payment', { body: { type: 'balance', value: 150 }, token: token() }),
    );
    expect(topUp).toEqual(expect.objectContaining({ status: 'widget', order_id: expect.any(String) }));
    expect(topUp.widget.request.amount).toBe('150.00');
  });

  it('POST /payment-sbp (type, value): sbp.image.content, sbp.image.media_type and sbp.payload', async () => {
    const order = await newPurchase();
    for (const body of [
      { type: 'purchase', value: order.total_price },
      { type: 'balance', value: 150 },
    ]) {
      const answer = ok(await send('POST /payment-sbp', '/payment-sbp', { body, token: token() }));
      expect(answer.sbp.image).toEqual({ content: expect.any(String), media_type: 'image/png' });
      expect(answer.sbp.payload).toEqual(expect.any(String));
      // SBP settles in roubles: the payment is charged in RUB.
      const payment = await db().payment.findUniqueOrThrow({ where: { id: answer.payment_id } });
      expect(payment.chargeCurrency).toBe('RUB');
    }
  });

  it('POST /orders/create for a top-up (replenishmentValue): order_id and total_price', async () => {
    const body = ok(
      await send('POST /orders/create', '/orders/create', {
        body: { type: 'balance', replenishmentValue: 100 },
        token: token(),
      }),
    );
    expect(body).toEqual(expect.objectContaining({ order_id: expect.any(String), total_price: 100 }));
  });

  it('POST /orders/create?type=spending, then POST /payment/spending-balance-handle?orderId={id}', async () => {
    const basket = ok(
      await send('PATCH /basket', '/basket', {
        body: { products: [{ id: state.productId, type: 'increase', count: 1 }] },
        token: token(),
      }),
    );
    const user = await db().user.findUniqueOrThrow({ where: { email: state.customer.email } });
    await fund(ctx.database.sql, user.id, basket.total_minor + 1_000);
    const order = ok(
      await send('POST /orders/create', '/orders/create?type=spending', { body: { type: 'spending' }, token: token() }),
    );
    expect(order.total_price).toBe(basket.total);
    ok(
      await send(
        'POST /payment/spending-balance-handle',
        `/payment/spending-balance-handle?orderId=${order.order_id}`,
        {
          token: token(),
        },
      ),
    );
    expect(ok(await send('GET /user/balance', '/user/balance', { token: token() })).balance).toBe(10);
    const delivered = ok(
      await send('GET /payment-confirm/{orderId}', `/payment-confirm/${order.order_id}`, { token: token() }),
    );
    expect(delivered.ok).toBe(true);
  });

  it('POST /logout: the session ends', async () => {
    const current = token();
    ok(await send('POST /logout', '/logout', { token: current }));
    expect((await send('GET /user', '/user', { token: current })).status).toBe(401);
  });
});

describe('the calls', () => {
  it('were all sent', () => {
    expect(LISTED_CALLS.filter((call) => !sent.has(call))).toEqual([]);
  });
});
