import { randomBytes } from 'node:crypto';
import { createCodeCipher } from '@store/db';
import { createProductRefs, createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../shared/errors.ts';
import { CODE_MAX_LENGTH, importCodes } from './code-import.ts';

const cipher = createCodeCipher('5a'.repeat(32));
let database: TestDatabase;
let productIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.prisma;
  const refs = await createProductRefs(db);
  const products = await Promise.all(
    ['A', 'B'].map((name) =>
      db.product.create({
        data: {
          ...refs,
          name: `Import ${name}`,
          nominalMinor: 1_000,
          priceMinor: 2_000,
        },
      }),
    ),
  );
  productIds = products.map((product) => product.id);
});
afterAll(async () => {
  await database?.cleanup();
});

const unique = () => `GIFT-${randomBytes(5).toString('hex').toUpperCase()}`;

describe('importCodes', () => {
  it('adds trimmed codes, skips blanks, refuses duplicates in the file and in the store, encrypted at rest', async () => {
    const db = database.prisma;
    const [first, second, third] = [unique(), unique(), unique()];
    const [productA, productB] = productIds as [number, number];
    expect(await importCodes({ db, cipher }, productB, [third])).toMatchObject({ added: 1 });

    const report = await importCodes({ db, cipher }, productA, [
      `  ${first}  `,
      '',
      '   ',
      second,
      first.toLowerCase(),
      third,
      'x'.repeat(CODE_MAX_LENGTH + 1),
    ]);
    expect(report).toEqual({ added: 2, duplicateInFile: 1, alreadyStored: 1, invalid: 1, blank: 2 });

    const stored = await db.productCode.findMany({ where: { productId: productA } });
    expect(stored.map((row) => cipher.decrypt(row.ciphertext)).sort()).toEqual([first, second].sort());
    for (const row of stored) expect(Buffer.from(row.ciphertext).toString('utf8')).not.toContain(first);
    expect(await db.product.findUniqueOrThrow({ where: { id: productA } })).toMatchObject({ stockCount: 2 });

    expect(await importCodes({ db, cipher }, productA, [first, second])).toMatchObject({ added: 0, alreadyStored: 2 });
  });

  it('adds each code once when two imports of the same file run at once', async () => {
    const db = database.prisma;
    const codes = Array.from({ length: 50 }, unique);
    const reports = await Promise.all([0, 1, 2].map(() => importCodes({ db, cipher }, productIds[0] as number, codes)));
    expect(reports.reduce((sum, report) => sum + report.added, 0)).toBe(50);
    expect(reports.reduce((sum, report) => sum + report.alreadyStored, 0)).toBe(100);
  });

  it('needs a product that exists', async () => {
    await expect(importCodes({ db: database.prisma, cipher }, 999_999, [unique()])).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
