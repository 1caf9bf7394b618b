import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, PASSWORD, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from './rate-limit-presets.ts';

/**
 * One account guessed from many addresses, each far under the per-address limit: the account's
 * own limit stops the guessing, and the owner, from an address that logged in before, still gets in.
 */
describe('the per-account login limit', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  const { max } = rateLimit('loginAccount');
  let nextAddress = 0;
  /** A botnet's worth of addresses: each used once. */
  const freshAddress = () => {
    nextAddress += 1;
    return `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
  };

  beforeAll(async () => {
    ctx = await buildTestApp({}, { queue: createRecordingQueue() });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const login = (email: string, password: string, remoteAddress: string) =>
    call(ctx.app, 'POST', '/api/login', { body: { email, password }, remoteAddress });

  /** `max` wrong guesses, each from an address of its own. */
  async function guessFromEverywhere(email: string) {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < max; attempt += 1) {
      statuses.push((await login(email, `Wrong${attempt}abc`, freshAddress())).status);
    }
    return statuses;
  }

  it('stops guesses at one account from many addresses, right password or wrong', async () => {
    const { email } = await registerUser(ctx.app);
    expect(await guessFromEverywhere(email)).toEqual(Array.from({ length: max }, () => 422));
    const wrong = await login(email, 'Wrong-again1', freshAddress());
    expect(wrong.status).toBe(429);
    expect(wrong.body.message).toMatch(/^Too many requests\. Please try again in \d+ (minute|second)s?\.$/);
    expect(Number(wrong.headers['retry-after'])).toBeGreaterThan(0);
    // The right password from a new address gets the same answer: it must not tell a hit.
    const right = await login(email, PASSWORD, freshAddress());
    expect(right.status).toBe(429);
    expect(right.body).toEqual(wrong.body);
  });

  it('counts the account however its address is written', async () => {
    const email = `mixed.${Date.now()}@example.com`;
    for (let attempt = 0; attempt < max; attempt += 1) {
      const spelled = attempt % 2 === 0 ? email.toUpperCase() : email;
      expect((await login(spelled, 'Wrong12345', freshAddress())).status).toBe(422);
    }
    expect((await login(email, 'Wrong12345', freshAddress())).status).toBe(429);
  });

  it('lets the owner in from an address that logged in before, during the attack', async () => {
    const { email } = await registerUser(ctx.app);
    const home = '192.0.2.10';
    expect((await login(email, PASSWORD, home)).status).toBe(200);
    await guessFromEverywhere(email);
    expect((await login(email, 'Wrong12345', freshAddress())).status).toBe(429);
    // A typo at home is neither stopped nor counted by the account's limit...
    expect((await login(email, 'Typo12345', home)).status).toBe(422);
    const owner = await login(email, PASSWORD, home);
    expect(owner.status).toBe(200);
    expect(owner.body.user.email).toBe(email);
  });

  it('leaves other accounts alone, and answers the same for an address with no account', async () => {
    const target = await registerUser(ctx.app);
    await guessFromEverywhere(target.email);
    const other = await registerUser(ctx.app);
    expect((await login(other.email, PASSWORD, freshAddress())).status).toBe(200);

    const nobody = `nobody.${Date.now()}@example.com`;
    expect(await guessFromEverywhere(nobody)).toEqual(Array.from({ length: max }, () => 422));
    expect((await login(nobody, 'Wrong12345', freshAddress())).status).toBe(429);
  });
});
