import { randomUUID } from 'node:crypto';
import { type NotificationHandlers, prismaQueryable, qb } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../shared/errors.ts';
import { eventually } from '../testing.ts';
import { createAccountService } from './account-service.ts';
import { checkSession, createSessionCache, type SessionCache } from './sessions.ts';

// The session check and its cache, on the database's own notices (PostgreSQL in CI, PGlite else).

let database: TestDatabase;
let cache: SessionCache;

beforeAll(async () => {
  database = await createTestDatabase();
  cache = createSessionCache({ ttlMs: 60_000 });
  await cache.start(database.listen);
});
afterAll(async () => {
  await cache?.close();
  await database?.cleanup();
});

const HOUR_MS = 3_600_000;

async function liveSession(expiresInMs = HOUR_MS) {
  const userId = randomUUID();
  await database.prisma.user.create({
    data: { id: userId, email: `${userId}@example.com`, name: 'Sessions', passwordHash: 'not-a-hash' },
  });
  const session = await database.prisma.session.create({
    data: { userId, expiresAt: new Date(Date.now() + expiresInMs) },
  });
  return { userId, sessionId: session.id };
}

/** Revokes a session with the database's triggers off: nobody is told, as if a notice were lost. */
async function revokeUnheard(sessionId: string) {
  await database.sql.transaction(async (tx) => {
    // set_config(…, true): SET LOCAL, for this transaction only.
    await tx.query(
      qb.selectNoFrom((eb) =>
        eb.fn('set_config', [eb.val('session_replication_role'), eb.val('replica'), eb.lit(true)]).as('role'),
      ),
    );
    await tx.execute(
      qb
        .updateTable('sessions')
        .set((eb) => ({ revoked_at: eb.fn<Date>('now') }))
        .where('id', '=', sessionId),
    );
  });
}

const check = (claims: { userId: string; sessionId: string }, at = new Date(), on: SessionCache | undefined = cache) =>
  checkSession(database.sql, claims, at, on);

describe('checkSession with a cache', () => {
  it('takes a session checked a moment ago on trust, and asks the database again once that has lasted', async () => {
    const claims = await liveSession();
    await check(claims);
    await revokeUnheard(claims.sessionId);
    await expect(check(claims)).resolves.toEqual(claims);
    await expect(check(claims, new Date(Date.now() + 60_000))).rejects.toThrow(UnauthorizedError);
    // Without a cache every call reads its session.
    await expect(check(claims, new Date(), undefined)).rejects.toThrow(UnauthorizedError);
  });

  it('forgets a session at once when the database says it ended, whoever ended it', async () => {
    const revoked = await liveSession();
    const deleted = await liveSession();
    await check(revoked);
    await check(deleted);
    await prismaQueryable(database.prisma).execute(
      qb
        .updateTable('sessions')
        .set((eb) => ({ revoked_at: eb.fn<Date>('now') }))
        .where('id', '=', revoked.sessionId),
    );
    await database.prisma.user.delete({ where: { id: deleted.userId } });
    await eventually(async () => (await check(revoked).catch((error: unknown) => error)) instanceof UnauthorizedError);
    await eventually(async () => (await check(deleted).catch((error: unknown) => error)) instanceof UnauthorizedError);
  });

  it('refuses a logged-out session on the very next call, before any notice arrives', async () => {
    const accounts = createAccountService({
      db: database.prisma,
      sql: database.sql,
      queue: {
        kind: 'in-process',
        enqueue: async () => 'queued' as const,
        ping: () => Promise.reject(new Error('not used')),
        async close() {},
      },
      publicUrl: 'https://store.example',
      sessionTtlHours: 1,
      sessionCache: cache,
    });
    const claims = await liveSession();
    await accounts.authenticate(claims);
    await accounts.logout(claims);
    await expect(accounts.authenticate(claims)).rejects.toThrow(UnauthorizedError);
  });

  it('does not keep a read that began before a session was forgotten', async () => {
    const claims = await liveSession();
    const reading = check(claims);
    cache.forget(randomUUID());
    await reading;
    await revokeUnheard(claims.sessionId);
    await expect(check(claims)).rejects.toThrow(UnauthorizedError);
  });

  it('trusts a session no longer than it lives, and only for its own customer', async () => {
    const short = await liveSession(10_000);
    await check(short);
    await expect(check(short, new Date(Date.now() + 10_000))).rejects.toThrow(UnauthorizedError);
    const claims = await liveSession();
    await check(claims);
    await expect(check({ ...claims, userId: randomUUID() })).rejects.toThrow(UnauthorizedError);
  });

  it('takes nothing on trust while the notices are not heard, and forgets everything when they are again', async () => {
    let handlers: NotificationHandlers | undefined;
    const own = createSessionCache({ ttlMs: 60_000 });
    await own.start(async (_channel, given) => {
      handlers = given;
      return async () => {};
    });
    const before = await liveSession();
    await check(before, new Date(), own);
    handlers?.onLost?.();
    await revokeUnheard(before.sessionId);
    await expect(check(before, new Date(), own)).rejects.toThrow(UnauthorizedError);

    const during = await liveSession();
    await check(during, new Date(), own);
    await revokeUnheard(during.sessionId);
    // Not kept while deaf: the next call reads the database.
    await expect(check(during, new Date(), own)).rejects.toThrow(UnauthorizedError);

    handlers?.onReconnect?.();
    const after = await liveSession();
    await check(after, new Date(), own);
    await revokeUnheard(after.sessionId);
    await expect(check(after, new Date(), own)).resolves.toEqual(after);
    await own.close();
  });
});
