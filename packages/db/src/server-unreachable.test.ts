import { once } from 'node:events';
import { type AddressInfo, createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.ts';
import { Prisma } from './generated/client.ts';
import { qb } from './kysely.ts';
import { isServerUnreachable, pgSqlClient } from './sql-client.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

const failure = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: the system's pick, released at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The errors the drivers really raise, made by servers that refuse, hang up or end the session. */
describe('isServerUnreachable', () => {
  let refusedUrl: string;
  let hangUp: Server;
  let hangUpUrl: string;
  let refused: Database;

  beforeAll(async () => {
    refusedUrl = `postgresql://postgres@127.0.0.1:${await closedPort()}/store`;
    // Accepts, then closes at once: a server that went away in the middle of the conversation.
    hangUp = createServer((socket) => socket.destroy());
    hangUpUrl = `postgresql://postgres@127.0.0.1:${await listen(hangUp)}/store`;
    refused = await createDatabase({ databaseUrl: refusedUrl, migrate: false, poolSize: 1 });
  });
  afterAll(async () => {
    await refused?.close();
    hangUp?.close();
  });

  it('recognises node-postgres refused, and hung up on', async () => {
    const client = new pg.Client({ connectionString: refusedUrl });
    expect(isServerUnreachable(await failure(client.connect()))).toBe(true);
    for (const url of [refusedUrl, hangUpUrl]) {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      pool.on('error', () => {});
      const sql = pgSqlClient(pool);
      try {
        expect(isServerUnreachable(await failure(sql.query(qb.selectNoFrom((eb) => eb.lit(1).as('one')))))).toBe(true);
        expect(
          isServerUnreachable(
            await failure(sql.transaction((tx) => tx.query(qb.selectNoFrom((eb) => eb.lit(1).as('one'))))),
          ),
        ).toBe(true);
      } finally {
        await pool.end();
      }
    }
  });

  it('recognises Prisma through its pg adapter: raw queries, model queries, transactions', async () => {
    const { prisma } = refused;
    const errors = [
      await failure(prisma.$queryRaw`SELECT 1`),
      await failure(prisma.user.findFirst()),
      await failure(prisma.$transaction(async (tx) => tx.user.count())),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      expect(isServerUnreachable(error)).toBe(true);
    }
  });

  it('recognises ioredis refusing or timing out commands while it has no connection', () => {
    const maxRetries = Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
      name: 'MaxRetriesPerRequestError',
    });
    for (const error of [
      maxRetries,
      new Error('Connection is closed.'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new Error('Command timed out'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    ]) {
      expect(isServerUnreachable(error)).toBe(true);
    }
  });

  it('leaves every other error alone', () => {
    for (const error of [
      new Error('boom'),
      new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: '7' }),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }),
      'ECONNREFUSED',
      undefined,
      null,
    ]) {
      expect(isServerUnreachable(error)).toBe(false);
    }
  });
});

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  process.stderr.write('\n*** DATABASE_URL is not set: sessions ended by the server are NOT tested. ***\n\n');
}

/** A session the server ends (what a restart or failover does to every open one): 57P01. */
describe.runIf(serverUrl)('isServerUnreachable on a session the server ends', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('recognises the end of a running query, from node-postgres and from Prisma', async () => {
    const running = [
      failure(db.sql.query(qb.selectNoFrom((eb) => eb.fn('pg_sleep', [eb.lit(30)]).as('slept')))),
      failure(db.prisma.$queryRaw`SELECT pg_sleep(30)`),
    ];
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      let ended = 0;
      while (ended < running.length) {
        const result = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_sleep%'`,
        );
        ended += result.rowCount ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await admin.end();
    }
    const [fromDriver, fromPrisma] = await Promise.all(running);
    expect(fromDriver).toMatchObject({ code: '57P01' });
    expect(fromPrisma).toMatchObject({ meta: { driverAdapterError: { cause: { originalCode: '57P01' } } } });
    expect(isServerUnreachable(fromDriver)).toBe(true);
    expect(isServerUnreachable(fromPrisma)).toBe(true);
  });
});
