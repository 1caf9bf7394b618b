import { randomBytes, randomUUID } from 'node:crypto';
import { adjustBalance } from '@store/core';
import { createCodeCipher, devCodeKey, Prisma, type PrismaClient, sqlOf } from '@store/db';
import type { App } from '../src/app.ts';
import { createTestProduct } from './products.ts';

/** The key the test app encrypts codes with (no CODE_ENCRYPTION_KEY in tests). */
export const testCipher = createCodeCipher(devCodeKey());

let counter = 0;

/**
 * A product with `stock` real encrypted codes, so that delivery can decrypt them; answers the
 * product and its codes in plain text, to look for where they must never be.
 */
export async function createCodedProduct(
  db: PrismaClient,
  { stock = 5, priceMinor = 2_990, name }: { stock?: number; priceMinor?: number; name?: string } = {},
) {
  counter += 1;
  const product = await createTestProduct(db, {
    stock: 0,
    priceMinor,
    name: name ?? `Order Test Card ${randomBytes(3).toString('hex')} ${counter}`,
    activationInstructions: 'Open the store, choose Redeem and type the code.',
  });
  const codes = Array.from({ length: stock }, () => `GC-${randomBytes(8).toString('hex').toUpperCase()}`);
  for (let start = 0; start < codes.length; start += 1_000) {
    await db.productCode.createMany({
      data: codes.slice(start, start + 1_000).map((code) => ({
        productId: product.id,
        ciphertext: testCipher.encrypt(code),
        codeDigest: testCipher.digest(code),
      })),
    });
  }
  return { product, codes };
}

/** Puts money on a customer's balance the way an operator would: a ledger entry and the balance together. */
export async function fund(db: PrismaClient, userId: string, amountMinor: number) {
  await sqlOf(db).transaction((tx) => adjustBalance(tx, { userId, amountMinor, key: `test-funding:${randomUUID()}` }));
}

/**
 * Many signed-in customers at once, written straight to the database with a session each and a
 * bearer token signed by the app: registering a thousand through the API would hash a thousand
 * passwords and hit the registration rate limit, and is not what these tests are about.
 */
export async function createSignedInCustomers(app: App, db: PrismaClient, count: number) {
  const tag = randomBytes(4).toString('hex');
  const users = Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    email: `bulk.${tag}.${index}@example.com`,
    name: `Bulk${index}`,
    passwordHash: 'not-a-hash',
  }));
  await db.user.createMany({ data: users });
  const sessions = users.map((user) => ({
    id: randomUUID(),
    userId: user.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  }));
  await db.session.createMany({ data: sessions });
  return users.map((user, index) => ({
    userId: user.id,
    email: user.email,
    token: app.signSessionToken({ userId: user.id, sessionId: sessions[index]?.id as string }),
  }));
}

/** Funds many customers at once: an adjustment transfer each and the balances with them, in one statement. */
export async function fundMany(db: PrismaClient, userIds: string[], amountMinor: number) {
  await sqlOf(db).execute(Prisma.sql`
    WITH made AS (
      INSERT INTO ledger_transfers (id, idempotency_key, kind, amount_minor)
      SELECT gen_random_uuid(), 'test-funding:' || u.id || ':' || gen_random_uuid(), 'ADJUSTMENT', ${amountMinor}::bigint
      FROM unnest(${userIds}::uuid[]) AS u(id)
      RETURNING id, split_part(idempotency_key, ':', 2)::uuid AS user_id
    ), legs AS (
      INSERT INTO ledger_entries (id, transfer_id, account, user_id, amount_minor)
      SELECT gen_random_uuid(), made.id, leg.account, leg.user_id, leg.amount
      FROM made, LATERAL (VALUES ('ADJUSTMENTS'::ledger_account, NULL::uuid, -${amountMinor}::bigint),
                                 ('CUSTOMER_BALANCE'::ledger_account, made.user_id, ${amountMinor}::bigint))
                   AS leg(account, user_id, amount)
    )
    UPDATE users SET balance_minor = balance_minor + ${amountMinor}::bigint WHERE id = ANY(${userIds}::uuid[])`);
}
