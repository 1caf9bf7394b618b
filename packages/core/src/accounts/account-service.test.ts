import { ErrorKeys } from '@store/contract';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../queue/job-queue.ts';
import { ValidationError } from '../shared/errors.ts';
import { createAccountService } from './account-service.ts';
import { argon2Hasher, type PasswordHasher } from './password-hashing.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});

const queue: JobQueue = {
  kind: 'in-process',
  async enqueue() {
    return 'queued' as const;
  },
  ping: () => Promise.reject(new Error('not used')),
  async close() {},
};

/** The real argon2 functions, counted. */
function countingHasher() {
  const calls = { hash: 0, verify: 0 };
  const hasher: PasswordHasher = {
    hash(password) {
      calls.hash += 1;
      return argon2Hasher.hash(password);
    },
    verify(passwordHash, password) {
      calls.verify += 1;
      return argon2Hasher.verify(passwordHash, password);
    },
    verifyNothing: argon2Hasher.verifyNothing,
  };
  return { hasher, calls };
}

function service(passwords: PasswordHasher) {
  return createAccountService({
    db: database.prisma,
    sql: database.sql,
    queue,
    publicUrl: 'https://store.example',
    sessionTtlHours: 1,
    passwords,
  });
}

/** The token of the newest email of this template to this address, from its outbox row. */
async function mailedToken(to: string, template: string): Promise<string> {
  const row = await database.prisma.outboundEmail.findFirstOrThrow({
    where: { toAddress: to, template },
    orderBy: { createdAt: 'desc' },
  });
  const token = /([A-Za-z0-9_-]{43})$/.exec((row.data as { link: string }).link)?.[1];
  if (!token) throw new Error(`no token in the ${template} email`);
  return token;
}

async function expectInvalidToken(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).errors).toEqual({ token: [ErrorKeys.tokenInvalid] });
}

describe('password reset from an emailed link', () => {
  it('hashes the new password only for a live token', async () => {
    const { hasher, calls } = countingHasher();
    const accounts = service(hasher);
    const email = `reset-${Date.now()}@example.com`;
    await accounts.register({ name: 'Resetter1', email, password: 'Secret123' }, {});
    const activation = await mailedToken(email, 'account-activation');
    await accounts.requestPasswordReset(email);
    const used = await mailedToken(email, 'password-reset');
    await accounts.resetPassword(used, 'NewSecret1');
    await accounts.requestPasswordReset(email);
    const expired = await mailedToken(email, 'password-reset');
    await database.prisma.emailToken.updateMany({
      where: { user: { email }, purpose: 'PASSWORD_RESET', usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    calls.hash = 0;

    // Unknown, used, expired, and of another purpose: each refused without a hash.
    for (const token of ['A'.repeat(43), used, expired, activation]) {
      await expectInvalidToken(accounts.resetPassword(token, 'Attacker12'));
    }
    expect(calls.hash).toBe(0);

    await accounts.requestPasswordReset(email);
    await accounts.resetPassword(await mailedToken(email, 'password-reset'), 'Another123');
    expect(calls.hash).toBe(1);
    await expect(accounts.login({ email, password: 'Another123' }, {})).resolves.toMatchObject({ user: { email } });
  });
});
