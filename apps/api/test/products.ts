import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@store/db';

let counter = 0;

export interface TestProductOptions {
  /** Codes in stock (products.stock_count follows them through its trigger). */
  stock?: number;
  priceMinor?: number;
  /** A category slug of the demo catalogue. */
  category?: string;
  isActive?: boolean;
  /** Default: a unique "Basket Test Card ..." name. */
  name?: string;
  activationInstructions?: string;
}

/**
 * A product of the test's own with exactly `stock` codes, so that stock caps do not depend on the
 * demo catalogue's random stock. The codes are random bytes: nothing here decrypts them.
 */
export async function createTestProduct(db: PrismaClient, options: TestProductOptions = {}) {
  counter += 1;
  const [category, country, currency] = await Promise.all([
    db.category.findUniqueOrThrow({ where: { slug: options.category ?? 'steam' } }),
    db.country.findFirstOrThrow({ orderBy: { id: 'asc' } }),
    db.currency.findFirstOrThrow({ orderBy: { id: 'asc' } }),
  ]);
  const product = await db.product.create({
    data: {
      categoryId: category.id,
      countryId: country.id,
      nominalCurrencyId: currency.id,
      name: options.name ?? `Basket Test Card ${randomBytes(3).toString('hex')} ${counter}`,
      nominalMinor: 1_000,
      priceMinor: options.priceMinor ?? 2_990,
      isActive: options.isActive ?? true,
      ...(options.activationInstructions ? { activationInstructions: options.activationInstructions } : {}),
    },
  });
  const stock = options.stock ?? 20;
  if (stock > 0) {
    await db.productCode.createMany({
      data: Array.from({ length: stock }, () => ({
        productId: product.id,
        ciphertext: randomBytes(32),
        codeDigest: randomBytes(32).toString('hex'),
      })),
    });
  }
  return db.product.findUniqueOrThrow({ where: { id: product.id } });
}
