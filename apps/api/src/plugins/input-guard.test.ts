import { ErrorKeys } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { pathsOfForbiddenText } from './input-guard.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let token: string;
let productId: number;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
  token = (await registerUser(ctx.app)).token;
  productId = (await ctx.database.prisma.product.findFirstOrThrow({ where: { isActive: true } })).id;
});
afterAll(async () => {
  await ctx?.close();
});

/**
 * A 422 in the shape of docs/api.md, "Errors", naming exactly these fields as holding characters no
 * text may hold.
 */
function expectRefused(response: { status: number; body: unknown }, fields: string[]) {
  expect(response.status).toBe(422);
  expect(response.body).toEqual({
    message: `${fields[0]}: This value contains characters that are not allowed.`,
    errors: Object.fromEntries(fields.map((field) => [field, [ErrorKeys.invalidCharacters]])),
  });
}

describe('text PostgreSQL cannot store is refused with a 422, on every route (these were 500s)', () => {
  it('a NUL in a login email', async () => {
    expectRefused(await call(ctx.app, 'POST', '/api/login', { body: { email: 'a\u0000@b.co', password: 'x' } }), [
      'email',
    ]);
  });

  it('a lone surrogate in a registration email', async () => {
    const body = {
      name: 'Surrogate1',
      email: 'a\ud800@b.co',
      password: 'Secret123',
      password_confirmation: 'Secret123',
    };
    expectRefused(await call(ctx.app, 'POST', '/api/register', { body }), ['email']);
  });

  it('a NUL in a review text', async () => {
    const body = { productId, rating: 5, text: 'good\u0000card' };
    expectRefused(await call(ctx.app, 'POST', '/api/products/feedbacks', { body, token }), ['text']);
  });

  it('a NUL in search text, a path parameter', async () => {
    expectRefused(await call(ctx.app, 'GET', '/api/search/hints/ste%00am'), ['query']);
    expectRefused(await call(ctx.app, 'GET', '/api/search/products/ste%00am/filter'), ['query']);
  });

  it('a NUL in the dev mailbox query', async () => {
    expectRefused(await call(ctx.app, 'GET', '/dev/mailbox.json?to=a%00b'), ['to']);
  });

  it('a NUL in a numeric path parameter, before its own rules run', async () => {
    expectRefused(await call(ctx.app, 'GET', '/api/products/%00'), ['id']);
  });

  it('control characters in several fields and in nested values, each by its path', async () => {
    const body = { email: 'a\u001b@b.co', password: 'x\u0007', extra: { list: ['ok', 'x\u0000'] } };
    const response = await call(ctx.app, 'POST', '/api/login', { body });
    expectRefused(response, ['email', 'password', 'extra.list.1']);
  });

  it('a bad key is reported under its object', async () => {
    const response = await call(ctx.app, 'POST', '/api/login', {
      body: { email: 'a@b.co', password: 'x', nested: { 'k\u0000': 1 } },
    });
    expectRefused(response, ['nested']);
  });

  it('a text body holding a NUL is refused as the body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'a\u0000b',
    });
    expectRefused({ status: response.statusCode, body: response.json() }, ['body']);
  });

  it('keeps emoji, line breaks and tabs, which are text', async () => {
    const { token: reviewer } = await registerUser(ctx.app);
    const body = { productId, rating: 5, text: 'Great card 😀\r\n\tarrived at once' };
    const response = await call(ctx.app, 'POST', '/api/products/feedbacks', { body, token: reviewer });
    expect(response.status).toBe(201);
    expect(response.body.text).toBe(body.text);
  });
});

describe("third-party plugins' routes", () => {
  it("answer a refused input in the same shape as ours (they had Fastify's default handler: a 500)", async () => {
    expectRefused(await call(ctx.app, 'GET', '/api/docs/json?a=%00'), ['a']);
    const preflight = await ctx.app.inject({ method: 'OPTIONS', url: '/api/login?a=%00' });
    expectRefused({ status: preflight.statusCode, body: preflight.json() }, ['a']);
  });
});

describe('percent-encoding that is not UTF-8', () => {
  it.each(['/api/search/hints/%E0%A4%A', '/api/search/hints/%ED%A0%80', '/api/products/%C0%80'])(
    'in a path parameter (%s) is a 400',
    async (url) => {
      const response = await call(ctx.app, 'GET', url);
      expect(response).toMatchObject({ status: 400, body: { message: 'The request URL is malformed.' } });
    },
  );

  it.each([
    '/api/categories/steam?minPrice=%E0%A4%A',
    '/api/popular-products?page=5%',
    '/dev/mailbox.json?to=%ED%A0%80',
  ])('in the query of a route that reads it (%s) is a 400', async (url) => {
    const response = await call(ctx.app, 'GET', url);
    expect(response).toMatchObject({ status: 400, body: { message: 'The request URL is malformed.' } });
  });

  it('leaves routes that read no query alone', async () => {
    expect((await call(ctx.app, 'GET', '/api/categories?utm=%E0%A4%A')).status).toBe(200);
  });
});

describe('pathsOfForbiddenText', () => {
  it('walks a body nested far deeper than the call stack allows', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(pathsOfForbiddenText({ a: deep }, 'body')).toEqual([`a${'.0'.repeat(100_000)}`]);
  });

  it('reports at most the limit it is given', () => {
    const body = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}`, '\u0000']));
    expect(pathsOfForbiddenText(body, 'body', 20)).toHaveLength(20);
  });

  it('names a bare bad string by its root', () => {
    expect(pathsOfForbiddenText('\ud800', 'body')).toEqual(['body']);
    expect(pathsOfForbiddenText({ ok: 'fine', n: 5, b: true, z: null }, 'body')).toEqual([]);
  });
});
