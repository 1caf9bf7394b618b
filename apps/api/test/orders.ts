import { randomBytes, randomUUID } from 'node:crypto';
import { adjustBalance } from '@store/core';
import { createCodeCipher, devCodeKey, type PrismaClient, qb, type SqlClient } from '@store/db';
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
export async function fund(sql: SqlClient, userId: string, amountMinor: number) {
  await sql.transaction((tx) => adjustBalance(tx, { userId, amountMinor, key: `test-funding:${randomUUID()}` }));
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

/**
 * Funds many customers at once: an adjustment transfer each, its two legs and the balances with
 * them, in one statement. The customer's id is kept in the transfer's key, whence the legs take it.
 */
export async function fundMany(sql: SqlClient, userIds: string[], amountMinor: number) {
  await sql.execute(
    qb
      .with('made', (q) =>
        q
          .insertInto('ledger_transfers')
          .columns(['id', 'idempotency_key', 'kind', 'amount_minor'])
          .expression((eb) =>
            eb
              .selectFrom('users as u')
              .select((eb) => [
                eb.fn<string>('gen_random_uuid').as('id'),
                eb(
                  eb(eb(eb.val('test-funding:'), '||', eb.ref('u.id')), '||', eb.val(':')),
                  '||',
                  eb.fn<string>('gen_random_uuid'),
                ).as('idempotency_key'),
                eb.val('ADJUSTMENT').as('kind'),
                eb.cast<number>(eb.val(amountMinor), 'bigint').as('amount_minor'),
              ])
              .where('u.id', '=', eb.fn.any(eb.val(userIds))),
          )
          .returning((eb) => [
            'id',
            eb.cast<string>(eb.fn('split_part', ['idempotency_key', eb.val(':'), eb.lit(2)]), 'uuid').as('user_id'),
          ]),
      )
      .with('debits', (q) =>
        q
          .insertInto('ledger_entries')
          .columns(['id', 'transfer_id', 'account', 'user_id', 'amount_minor'])
          .expression((eb) =>
            eb
              .selectFrom('made')
              .select((eb) => [
                eb.fn<string>('gen_random_uuid').as('id'),
                'made.id as transfer_id',
                eb.val('ADJUSTMENTS').as('account'),
                eb.lit(null).as('user_id'),
                eb.cast<number>(eb.val(-amountMinor), 'bigint').as('amount_minor'),
              ]),
          ),
      )
      .with('credits', (q) =>
        q
          .insertInto('ledger_entries')
          .columns(['id', 'transfer_id', 'account', 'user_id', 'amount_minor'])
          .expression((eb) =>
            eb
              .selectFrom('made')
              .select((eb) => [
                eb.fn<string>('gen_random_uuid').as('id'),
                'made.id as transfer_id',
                eb.val('CUSTOMER_BALANCE').as('account'),
                'made.user_id',
                eb.cast<number>(eb.val(amountMinor), 'bigint').as('amount_minor'),
              ]),
          ),
      )
      .updateTable('users')
      .set((eb) => ({ balance_minor: eb('balance_minor', '+', eb.cast<number>(eb.val(amountMinor), 'bigint')) }))
      .where((eb) => eb('id', '=', eb.fn.any(eb.val(userIds)))),
  );
}
