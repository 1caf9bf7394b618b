import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCodeCipher, devCodeKey } from '@store/db';
import { createProductRefs, createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPointEnv, runCliOver, spawnCli } from '../cli/testing.ts';
import { accounts, adjustBalance, transfer } from '../ledger/ledger-service.ts';
import { decimalToMinor, formatMinor, parseOrdersCommand, runOrdersCli } from './orders-cli.ts';

const cipher = createCodeCipher(devCodeKey());
let database: TestDatabase;
let folder: string;
let productId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), 'orders-cli-'));
  const db = database.prisma;
  const refs = await createProductRefs(db);
  const product = await db.product.create({
    data: {
      ...refs,
      name: 'CLI Card',
      nominalMinor: 1_000,
      priceMinor: 2_990,
    },
  });
  productId = product.id;
});
afterAll(async () => {
  await database?.cleanup();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Runs a command over the test database; answers the exit code and what was printed. */
const run = (argv: string[]) =>
  runCliOver(runOrdersCli, database, argv, {
    codeCipher: () => cipher,
    publicUrl: () => 'https://shop.example',
    operator: 'ana',
  });

function writeFile(name: string, text: string) {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

async function customerWithPaidOrder() {
  const db = database.prisma;
  const user = await db.user.create({
    data: { email: `cli.${randomUUID()}@example.com`, name: 'Cli', passwordHash: 'x' },
  });
  await database.sql.transaction((tx) =>
    adjustBalance(tx, { userId: user.id, amountMinor: 5_000, key: `test:${user.id}` }),
  );
  const order = await db.order.create({
    data: {
      userId: user.id,
      type: 'PURCHASE',
      status: 'FULFILLED',
      subtotalMinor: 2_990,
      totalMinor: 2_990,
      paidAt: new Date(),
      fulfilledAt: new Date(),
      lines: { create: { productId, productName: 'CLI Card', quantity: 1, unitPriceMinor: 2_990 } },
    },
  });
  return { user, order };
}

describe('parseOrdersCommand', () => {
  it('reads each command', () => {
    const id = randomUUID();
    expect(parseOrdersCommand(['import-codes', '--product', '12', '--file', 'codes.txt'])).toEqual({
      ok: true,
      command: { kind: 'import-codes', productId: 12, file: 'codes.txt' },
    });
    expect(parseOrdersCommand(['list', '--status', 'Expired', '--limit=5'])).toEqual({
      ok: true,
      command: { kind: 'list', status: 'EXPIRED', limit: 5 },
    });
    expect(parseOrdersCommand(['refund', id, '--reason', 'bad-code'])).toEqual({
      ok: true,
      command: { kind: 'refund', orderId: id, reason: 'bad-code', to: 'balance' },
    });
    expect(parseOrdersCommand(['refund', id, '--to', 'card', '--amount', '12.5', '--by', 'Ana'])).toEqual({
      ok: true,
      command: { kind: 'refund', orderId: id, reason: 'operator', to: 'card', amountMinor: 1_250, by: 'Ana' },
    });
    expect(parseOrdersCommand(['ledger', 'a@b.c'])).toEqual({
      ok: true,
      command: { kind: 'ledger', customer: 'a@b.c', limit: 100 },
    });
    expect(parseOrdersCommand(['verify-balances'])).toEqual({ ok: true, command: { kind: 'verify-balances' } });
    expect(parseOrdersCommand(['receivables', '--limit', '5'])).toEqual({
      ok: true,
      command: { kind: 'receivables', limit: 5 },
    });
    expect(parseOrdersCommand([])).toEqual({ ok: true, command: { kind: 'help' } });
  });

  it('reads an amount as an operator types it', () => {
    expect(decimalToMinor('12.50')).toBe(1_250);
    expect(decimalToMinor('12,5')).toBe(1_250);
    expect(decimalToMinor('3')).toBe(300);
    expect(decimalToMinor(' 0.01 ')).toBe(1);
    for (const bad of ['0', '0.00', '-1', '1.234', '1e3', '', '.5']) expect(decimalToMinor(bad)).toBeUndefined();
  });

  it('names every mistake', () => {
    const id = randomUUID();
    expect(parseOrdersCommand(['import-codes', '--product', 'x'])).toEqual({
      ok: false,
      errors: ['--file: required', "--product: 'x' is not a whole number from 1 to 2147483647"],
    });
    expect(parseOrdersCommand(['list', '--status', 'lost'])).toMatchObject({ ok: false });
    expect(parseOrdersCommand(['refund', 'nope', '--reason', 'Bad Reason'])).toEqual({
      ok: false,
      errors: [
        "refund: 'nope' is not an order id",
        "--reason: 'Bad Reason' is not 1 to 32 lower-case letters, digits or -",
      ],
    });
    expect(parseOrdersCommand(['refund', id, '--to', 'wallet', '--amount', '1.999', '--reason', 'shortfall'])).toEqual({
      ok: false,
      errors: [
        "--reason: 'shortfall' is the store's own; name the refund otherwise",
        "--to: 'wallet' is not balance or card",
        "--amount: '1.999' is not an amount above zero with at most two decimals, like 12.50",
      ],
    });
    expect(parseOrdersCommand(['refund', id, '--amount', '0'])).toMatchObject({ ok: false });
    expect(parseOrdersCommand(['verify-balances', '--fix'])).toMatchObject({ ok: false });
    expect(parseOrdersCommand(['drop'])).toMatchObject({ ok: false });
  });

  it('writes minor units as the operator reads them', () => {
    expect(formatMinor(2_990)).toBe('29.90 BRL');
    expect(formatMinor(-5)).toBe('-0.05 BRL');
    expect(formatMinor(100_000, 'RUB')).toBe('1000.00 RUB');
  });
});

describe('runOrdersCli', () => {
  it('imports codes from a file, reporting what it added and refused', async () => {
    const codes = Array.from({ length: 3 }, () => `CLI-${randomBytes(5).toString('hex')}`);
    const file = writeFile('codes.txt', `${codes[0]}\r\n\n  ${codes[1]}  \n${codes[0]?.toUpperCase()}\n${codes[2]}\n`);
    const first = await run(['import-codes', '--product', String(productId), '--file', file]);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toEqual(
      expect.stringMatching(
        new RegExp(
          `^product ${productId}: 3 added, 1 refused \\(1 repeated in the file, 0 already in the store, 0 longer than a code can be\\); 2 blank lines skipped; batch \\d+$`,
        ),
      ),
    );
    // One batch, named after the file, as an import in the console makes; audited as the command line's.
    const batchId = Number(/batch (\d+)$/.exec(first.out)?.[1]);
    expect(await database.prisma.codeBatch.findUnique({ where: { id: batchId } })).toMatchObject({
      productId,
      label: 'codes.txt',
    });
    const audited = await database.prisma.auditLog.findMany({
      where: { action: 'codes.import', targetId: String(batchId) },
    });
    expect(audited).toMatchObject([{ role: 'cli', staffId: null }]);
    const again = await run(['import-codes', '--product', String(productId), '--file', file]);
    expect(again.out).toContain('0 added, 4 refused (1 repeated in the file, 3 already in the store');
    expect(again.out).not.toContain('batch');
    const stored = await database.prisma.productCode.findMany({ where: { productId } });
    expect(stored.map((row) => cipher.decrypt(row.ciphertext)).sort()).toEqual([...codes].sort());
  });

  it('refuses a file it cannot read before opening the database, and a product that does not exist', async () => {
    const missing = await run(['import-codes', '--product', '1', '--file', path.join(folder, 'none.txt')]);
    expect(missing).toMatchObject({ code: 2, opened: false });
    expect(missing.err).toContain('cannot read');
    const unknown = await run(['import-codes', '--product', '999999', '--file', writeFile('one.txt', 'X-1\n')]);
    expect(unknown).toMatchObject({ code: 1, err: 'error: No product has this id.' });
  });

  it('lists orders by status, refunds one to the balance once, and shows the ledger', async () => {
    const { user, order } = await customerWithPaidOrder();
    const listed = await run(['list', '--status', 'fulfilled']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^ORDER\s+CREATED\s+STATUS\s+TYPE\s+TOTAL\s+REFUNDED\s+CUSTOMER/);
    expect(listed.out).toContain(order.id);
    expect(listed.out).toContain('29.90 BRL');
    expect((await run(['list', '--status', 'expired'])).out).not.toContain(order.id);

    const refunded = await run(['refund', order.id]);
    expect(refunded).toEqual({
      code: 0,
      out: `order ${order.id}: 29.90 BRL refunded to the balance, now refunded; the customer is emailed`,
      err: '',
      opened: true,
    });
    expect(await run(['refund', order.id])).toMatchObject({ code: 1 });
    const emails = await database.prisma.outboundEmail.findMany({ where: { toAddress: user.email } });
    expect(emails).toEqual([
      expect.objectContaining({
        template: 'balance-refund',
        status: 'PENDING',
        data: expect.objectContaining({
          link: 'https://shop.example/profile',
          balance: expect.objectContaining({ orderId: order.id, amountMinor: 2_990, cause: 'order_refunded' }),
        }),
      }),
    ]);
    expect((await database.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).balanceMinor).toBe(7_990n);

    // The order's history says who refunded it, by how much, from which status.
    const shown = await run(['show', order.id]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(
      `order ${order.id}: refunded, purchase of ${user.email}, 29.90 BRL, 29.90 BRL refunded`,
    );
    expect(shown.out).toMatch(/operator:ana\s+status\s+fulfilled -> refunded\s+29\.90 BRL/);
    expect(await run(['show', randomUUID()])).toMatchObject({ code: 1 });

    const ledger = await run(['ledger', user.email.toUpperCase()]);
    expect(ledger.code).toBe(0);
    expect(ledger.out).toContain(`${user.email} (${user.id}): balance 79.90 BRL`);
    expect(ledger.out).toContain(`refund:${order.id}:operator`);
    expect(ledger.out).toContain('adjustment');
    expect(await run(['ledger', 'nobody@example.com'])).toMatchObject({ code: 1 });
  });

  it('lists the customers who owe the store, largest debt first, and the debt in their ledger', async () => {
    const owing = async (owedMinor: number) => {
      const user = await database.prisma.user.create({
        data: { email: `owes.${randomUUID()}@example.com`, name: 'Owes', passwordHash: 'x' },
      });
      await database.sql.transaction((tx) =>
        transfer(tx, {
          key: `test:${randomUUID()}`,
          kind: 'PROVIDER_REFUND',
          from: accounts.receivable(user.id),
          to: accounts.clearing('sandbox'),
          amountMinor: owedMinor,
        }),
      );
      return user;
    };
    const small = await owing(150);
    const large = await owing(9_000);
    const listed = await run(['receivables']);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    const largeAt = lines.findIndex((line) => line.includes(large.email));
    const smallAt = lines.findIndex((line) => line.includes(small.email));
    expect(largeAt).toBeGreaterThan(0);
    expect(smallAt).toBeGreaterThan(largeAt);
    expect(lines[largeAt]).toContain('90.00 BRL');
    expect(lines[smallAt]).toContain('1.50 BRL');
    const ledger = await run(['ledger', large.email]);
    expect(ledger.out).toContain('balance 0.00 BRL, owes 90.00 BRL');
    expect(ledger.out).toMatch(/provider_refund\s+receivable\s+-90\.00 BRL/);
    expect(await run(['verify-balances'])).toMatchObject({ code: 0 });
  });

  it('verifies that every balance equals its ledger, and exits 1 when one does not', async () => {
    expect(await run(['verify-balances'])).toMatchObject({ code: 0 });
    const { user } = await customerWithPaidOrder();
    await database.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: 1 } });
    try {
      const failed = await run(['verify-balances']);
      expect(failed.code).toBe(1);
      expect(failed.err).toContain(`${user.email} (${user.id}): balance 0.01 BRL, ledger 50.00 BRL`);
    } finally {
      await database.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: 5_000 } });
    }
    expect(await run(['verify-balances'])).toMatchObject({ code: 0 });
  });
});

describe('the orders command', () => {
  it('runs its entry point on the database the environment names and exits non-zero on a bad balance', async () => {
    const { env, cleanup } = entryPointEnv(database.url, 'orders-cli-db-');
    const spawn = (args: string[]) => spawnCli('orders', args, env);
    try {
      const ok = await spawn(['verify-balances']);
      expect(ok).toMatchObject({ code: 0, stderr: '' });
      expect(ok.stdout).toMatch(/^every balance equals its ledger/);
      if (database.url) {
        const { user } = await customerWithPaidOrder();
        await database.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: { increment: 1 } } });
        try {
          const failed = await spawn(['verify-balances']);
          expect(failed.code).toBe(1);
          expect(failed.stderr).toContain('1 thing(s) in the books are wrong');
        } finally {
          await database.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: { decrement: 1 } } });
        }
      }
      expect((await spawn(['refund', 'nope'])).code).toBe(2);
    } finally {
      cleanup();
    }
  }, 120_000);
});
