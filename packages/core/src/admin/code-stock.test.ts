import { randomBytes } from 'node:crypto';
import { CODE_MAX_CHARS } from '@store/contract';
import { createCodeCipher, qb } from '@store/db';
import { createProductRefs, createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { cliActor } from './audit-log.ts';
import { createCodeStock } from './code-stock.ts';

const cipher = createCodeCipher('5a'.repeat(32));
const actor = cliActor('test');
let database: TestDatabase;
let productIds: [number, number];

const stock = () => createCodeStock({ sql: database.sql, cipher });
const unique = () => `GIFT-${randomBytes(5).toString('hex').toUpperCase()}`;

async function stockCount(productId: number): Promise<number> {
  const [row] = await database.sql.query(qb.selectFrom('products').select('stock_count').where('id', '=', productId));
  return row?.stock_count ?? -1;
}

async function auditRows(action: string, targetId: string | number) {
  return database.sql.query(
    qb.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', String(targetId)),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.prisma;
  const refs = await createProductRefs(db);
  const products = await Promise.all(
    ['A', 'B'].map((name) =>
      db.product.create({ data: { ...refs, name: `Stock ${name}`, nominalMinor: 1_000, priceMinor: 2_000 } }),
    ),
  );
  productIds = products.map((product) => product.id) as [number, number];
});
afterAll(async () => {
  await database?.cleanup();
});

describe('importCodes', () => {
  it('reports repeats, codes in stock for any product (case aside) and long lines by line number', async () => {
    const [productA, productB] = productIds;
    const inStock = unique();
    await stock().importCodes({ productId: productB, text: inStock }, actor);
    const [first, second] = [unique(), unique()];
    const text = [
      `  ${first}  `,
      '',
      second,
      first.toLowerCase(),
      inStock.toLowerCase(),
      'X'.repeat(CODE_MAX_CHARS + 1),
      '   ',
      second,
    ].join('\r\n');
    const before = await stockCount(productA);
    const report = await stock().importCodes({ productId: productA, text, label: 'supplier.txt' }, actor);
    expect(report).toEqual({
      batch_id: expect.any(Number),
      product_id: productA,
      lines: 6,
      added: 2,
      duplicates_in_file: [4, 8],
      duplicates_in_stock: [5],
      too_long: [6],
    });
    expect(await stockCount(productA)).toBe(before + 2);
    const rows = await database.sql.query(
      qb
        .selectFrom('product_codes')
        .select(['ciphertext', 'code_digest', 'product_id'])
        .where('batch_id', '=', report.batch_id as number),
    );
    expect(rows.map((row) => cipher.decrypt(row.ciphertext)).sort()).toEqual([first, second].sort());
    expect(rows.every((row) => !row.ciphertext.toString('latin1').includes(first))).toBe(true);

    const audit = await auditRows('codes.import', report.batch_id as number);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      target_type: 'batch',
      after: { product_id: productA, label: 'supplier.txt', added: 2, duplicates_in_stock: 1 },
    });
    expect(JSON.stringify(audit[0])).not.toContain(first);
  });

  it('adds nothing, and writes no batch nor audit row, when every code is in stock already', async () => {
    const code = unique();
    await stock().importCodes({ productId: productIds[0], text: code }, actor);
    const batches = await database.sql.query(qb.selectFrom('code_batches').select('id'));
    const report = await stock().importCodes({ productId: productIds[0], text: `${code}\n` }, actor);
    expect(report).toMatchObject({ batch_id: null, lines: 1, added: 0, duplicates_in_stock: [1] });
    expect(await database.sql.query(qb.selectFrom('code_batches').select('id'))).toHaveLength(batches.length);
  });

  it('adds each code once when imports of the same codes race', async () => {
    const codes = Array.from({ length: 40 }, unique);
    const before = await stockCount(productIds[0]);
    const reports = await Promise.all(
      [0, 1, 2].map(() => stock().importCodes({ productId: productIds[0], text: codes.join('\n') }, actor)),
    );
    expect(reports.reduce((sum, report) => sum + report.added, 0)).toBe(40);
    expect(reports.reduce((sum, report) => sum + report.duplicates_in_stock.length, 0)).toBe(80);
    expect(await stockCount(productIds[0])).toBe(before + 40);
    const digests = codes.map((code) => cipher.digest(code));
    const stored = await database.sql.query(
      qb
        .selectFrom('product_codes')
        .select('id')
        .where((eb) => eb('code_digest', '=', eb.fn.any(eb.val(digests)))),
    );
    expect(stored).toHaveLength(40);
  });

  it('needs a product that exists (422 on product_id)', async () => {
    const refused = stock().importCodes({ productId: 999_999, text: unique() }, actor);
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ errors: { product_id: ['validation.invalidValue'] } });
  });
});

describe('withdraw and reveal', () => {
  it('withdraws only the codes in stock, once, keeps the counts right and audits it', async () => {
    const [productA] = productIds;
    const codes = [unique(), unique(), unique()];
    const { batch_id: batchId } = await stock().importCodes({ productId: productA, text: codes.join('\n') }, actor);
    if (batchId === null) throw new Error('the batch was not made');
    // One code bought: an order's line holds it.
    const [held] = await database.sql.query(
      qb.selectFrom('product_codes').select('id').where('batch_id', '=', batchId).orderBy('id').limit(1),
    );
    const user = await database.prisma.user.create({
      data: { email: `${unique().toLowerCase()}@example.com`, name: 'Buyer', passwordHash: 'x' },
    });
    const order = await database.prisma.order.create({
      data: {
        userId: user.id,
        type: 'PURCHASE',
        status: 'PAID',
        paidAt: new Date(),
        subtotalMinor: 2_000,
        totalMinor: 2_000,
      },
    });
    const line = await database.prisma.orderLine.create({
      data: { orderId: order.id, productId: productA, productName: 'Stock A', quantity: 1, unitPriceMinor: 2_000 },
    });
    await database.prisma.productCode.update({
      where: { id: held?.id as string },
      data: { status: 'SOLD', orderLineId: line.id, soldAt: new Date() },
    });
    const before = await stockCount(productA);

    const listed = await stock().listBatches({ product_id: productA });
    expect(listed.items.find((batch) => batch.id === batchId)).toMatchObject({
      available: 2,
      reserved: 0,
      sold: 1,
      withdrawn: 0,
      product_name: 'Stock A',
    });
    expect(JSON.stringify(listed)).not.toMatch(new RegExp(codes.join('|')));

    const withdrawn = await stock().withdraw(batchId, 'supplier recalled them', actor);
    expect(withdrawn.codes).toHaveLength(2);
    expect(codes).toEqual(expect.arrayContaining(withdrawn.codes));
    expect(await stockCount(productA)).toBe(before - 2);
    await expect(stock().withdraw(batchId, 'again', actor)).rejects.toBeInstanceOf(ConflictError);
    await expect(stock().withdraw(999_999, 'none', actor)).rejects.toBeInstanceOf(NotFoundError);
    expect((await stock().listBatches({ product_id: productA })).items.find((b) => b.id === batchId)).toMatchObject({
      available: 0,
      sold: 1,
      withdrawn: 2,
    });
    const audit = await auditRows('codes.withdraw', batchId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ after: { withdrawn: 2, reason: 'supplier recalled them' } });
    expect(JSON.stringify(audit)).not.toMatch(new RegExp(codes.join('|')));

    // The sold code, revealed for a ticket; the audit row holds the reason, not the code.
    const revealed = await stock().reveal(held?.id as string, 'ticket 42', actor);
    const soldCode = revealed.code;
    expect(codes).toContain(soldCode);
    const reveals = await auditRows('code.reveal', held?.id as string);
    expect(reveals).toMatchObject([{ target_type: 'code', after: { order_id: order.id, reason: 'ticket 42' } }]);
    expect(JSON.stringify(reveals)).not.toContain(soldCode);
  });

  it('refuses to reveal a code that is not sold, and writes no audit row', async () => {
    const { batch_id: batchId } = await stock().importCodes({ productId: productIds[1], text: unique() }, actor);
    const [code] = await database.sql.query(
      qb
        .selectFrom('product_codes')
        .select('id')
        .where('batch_id', '=', batchId as number),
    );
    await expect(stock().reveal(code?.id as string, 'ticket 7', actor)).rejects.toBeInstanceOf(ConflictError);
    expect(await auditRows('code.reveal', code?.id as string)).toHaveLength(0);
  });
});
