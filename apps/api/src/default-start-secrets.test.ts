import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, signCallback } from '@store/core/testing';
import { loadLocalSecrets } from '@store/db';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from '@store/sandbox/dev-secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createRecordingQueue, type TestDatabase } from '../test/helper.ts';
import { sandboxEventBody } from '../test/payments.ts';

// The store as `pnpm start` and `HOST=0.0.0.0 pnpm start` build it (development, no secret
// configured), listening: the secrets published with the repository get nobody anywhere.

const dataDir = mkdtempSync(join(tmpdir(), 'store-default-start-'));
let database: TestDatabase;
const apps: Array<Awaited<ReturnType<typeof buildTestApp>>> = [];

beforeAll(async () => {
  const first = await buildTestApp({ NODE_ENV: 'test' }, { queue: createRecordingQueue() });
  apps.push(first);
  database = first.database;
});
afterAll(async () => {
  for (const ctx of apps.reverse()) await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function defaultStart(host: string) {
  const port = await freePort();
  const ctx = await buildTestApp(
    { NODE_ENV: 'development', HOST: host, PORT: String(port), DATA_DIR: dataDir },
    { database, queue: createRecordingQueue() },
  );
  apps.push(ctx);
  await ctx.app.listen({ host: ctx.app.env.HOST, port });
  return { ...ctx, origin: `http://127.0.0.1:${port}` };
}

const signedCallback = (secret: string) => {
  const body = sandboxEventBody({ orderId: randomUUID(), amountMinor: 1_000 });
  return { headers: signCallback(secret, body, { id: `evt_${randomUUID()}` }), body };
};

async function sendCallback(origin: string, secret: string) {
  const response = await fetch(`${origin}/api/payments/callback`, { method: 'POST', ...signedCallback(secret) });
  return response.status;
}

describe.each(['127.0.0.1', '0.0.0.0'])('a default start listening on %s', (host) => {
  it('refuses a callback signed with the development webhook secret, and takes one signed with its own', async () => {
    const { app, origin } = await defaultStart(host);
    expect(app.env.PAYMENTS_WEBHOOK_SECRETS).toEqual([loadLocalSecrets(dataDir).PAYMENTS_WEBHOOK_SECRETS]);
    expect(await sendCallback(origin, DEV_WEBHOOK_SECRET)).toBe(401);
    // As one sent from another machine arrives.
    const { headers, body } = signedCallback(DEV_WEBHOOK_SECRET);
    const remote = await app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      headers,
      payload: body,
      remoteAddress: '203.0.113.7',
    });
    expect(remote.statusCode).toBe(401);
    expect(await sendCallback(origin, loadLocalSecrets(dataDir).PAYMENTS_WEBHOOK_SECRETS)).toBe(200);
  });

  it('refuses the development sandbox key at its sandbox, and the network even its own', async () => {
    const { app, origin } = await defaultStart(host);
    const list = (key: string) =>
      fetch(`${origin}/sandbox/api/v1/payments?order_id=order-1`, { headers: { authorization: `Bearer ${key}` } });
    expect((await list(DEV_SANDBOX_API_KEY)).status).toBe(401);
    expect((await list(app.env.SANDBOX_API_KEY)).status).toBe(200);
    const remote = await app.inject({
      method: 'GET',
      url: '/sandbox/api/v1/payments?order_id=order-1',
      headers: { authorization: `Bearer ${app.env.SANDBOX_API_KEY}` },
      remoteAddress: '203.0.113.7',
    });
    expect(remote.statusCode).toBe(403);
  });
});
