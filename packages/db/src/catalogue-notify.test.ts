import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeCipher, devCodeKey } from './code-cipher.ts';
import { createDatabase, type Database } from './database.ts';
import { generateCatalogue, seedDemo } from './seed/index.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

/**
 * The catalogue's change feed: every API instance keeps a search index in memory and refreshes it
 * from NOTIFY catalogue_changed, so the triggers must report every change, once it is committed,
 * on PostgreSQL (CI) and on embedded PGlite alike.
 */

const CHANNEL = 'catalogue_changed';

function collector(database: Database) {
  const payloads: string[] = [];
  const ready = database.listen(CHANNEL, { onNotification: (payload) => payloads.push(payload) });
  return {
    payloads,
    ready,
    /** Waits until a payload from the `from`th on satisfies `test`, at most two seconds. */
    async waitFor(test: (payload: string) => boolean, from = 0) {
      const deadline = Date.now() + 2_000;
      while (Date.now() < deadline) {
        const found = payloads.slice(from).find(test);
        if (found !== undefined) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no matching notification; got ${JSON.stringify(payloads)}`);
    },
  };
}

const idsOf = (payload: string) => payload.split(',').map(Number);

describe.each([
  ['the test database', () => createTestDatabase()],
  [
    'embedded PGlite',
    async () => {
      const database = await createDatabase({ dataDir: 'memory://' });
      return { ...database, url: undefined, cleanup: () => database.close() } as TestDatabase;
    },
  ],
])('NOTIFY catalogue_changed on %s', (_name, open) => {
  let db: TestDatabase;
  let feed: ReturnType<typeof collector>;

  beforeAll(async () => {
    db = await open();
    await seedDemo(db.prisma, { cipher: createCodeCipher(devCodeKey()) });
    feed = collector(db);
    await feed.ready;
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  it('names the products an update changed', async () => {
    const [first, second] = await db.prisma.product.findMany({ take: 2, orderBy: { id: 'asc' } });
    await db.prisma.product.updateMany({
      where: { id: { in: [first!.id, second!.id] } },
      data: { popularity: { increment: 1 } },
    });
    const payload = await feed.waitFor((p) => p.includes(String(first!.id)));
    expect(idsOf(payload).sort()).toEqual([first!.id, second!.id].sort());
  });

  it('names an inserted and a deleted product', async () => {
    const template = await db.prisma.product.findFirstOrThrow();
    const { id, categoryId, countryId, nominalCurrencyId } = template;
    const created = await db.prisma.product.create({
      data: { categoryId, countryId, nominalCurrencyId, name: 'Notify Test Card', nominalMinor: 100, priceMinor: 990 },
    });
    await feed.waitFor((p) => p === String(created.id));
    const before = feed.payloads.length;
    await db.prisma.product.delete({ where: { id: created.id } });
    await feed.waitFor((p) => p === String(created.id), before);
    expect(created.id).not.toBe(id);
  });

  it('reports a sale through the stock trigger', async () => {
    const code = await db.prisma.productCode.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    const before = feed.payloads.length;
    await db.prisma.productCode.delete({ where: { id: code.id } });
    await feed.waitFor((p) => p === String(code.productId), before);
  });

  it('names the products whose reviews were posted, changed or deleted: their ratings changed', async () => {
    const review = await db.prisma.review.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const others = await db.prisma.product.findMany({
      where: { id: { not: review.productId }, reviews: { none: { userId: review.userId } } },
      orderBy: { id: 'asc' },
      take: 2,
    });
    expect(others).toHaveLength(2);
    const [a, b] = others.map(({ id }) => id) as [number, number];

    let before = feed.payloads.length;
    await db.prisma.review.createMany({
      data: [a, b].map((productId) => ({ productId, userId: review.userId, rating: 4, text: 'Worked at once.' })),
    });
    expect(idsOf(await feed.waitFor((p) => p.includes(String(a)), before)).sort()).toEqual([a, b].sort());

    before = feed.payloads.length;
    await db.prisma.review.update({ where: { id: review.id }, data: { rating: review.rating === 5 ? 4 : 5 } });
    await feed.waitFor((p) => p === String(review.productId), before);

    before = feed.payloads.length;
    await db.prisma.review.deleteMany({ where: { userId: review.userId, productId: { in: [a, b] } } });
    expect(idsOf(await feed.waitFor((p) => p.includes(String(b)), before)).sort()).toEqual([a, b].sort());
  });

  it('says nothing for a rolled-back change', async () => {
    const product = await db.prisma.product.findFirstOrThrow({ orderBy: { id: 'desc' } });
    const before = feed.payloads.length;
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.product.update({ where: { id: product.id }, data: { priceMinor: 12_340 } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A committed change after it arrives; the rolled-back one must not have arrived before it.
    await db.prisma.category.updateMany({ where: { slug: 'steam' }, data: { position: 0 } });
    await feed.waitFor((p) => p === '*');
    expect(feed.payloads.slice(before)).toEqual(['*']);
  });

  it('asks for a full reload when too many products change at once', async () => {
    const before = feed.payloads.length;
    await generateCatalogue(db.prisma, { products: (await db.prisma.product.count()) + 800 });
    await feed.waitFor((p) => p === '*', before);
    expect(feed.payloads.slice(before).every((p) => p === '*')).toBe(true);
  });

  it('asks for a full reload when an alias changes', async () => {
    const before = feed.payloads.length;
    const category = await db.prisma.category.findUniqueOrThrow({ where: { slug: 'netflix' } });
    await db.prisma.searchAlias.create({ data: { term: 'NFLX', categoryId: category.id } });
    await feed.waitFor((p) => p === '*', before);
  });

  it('refuses an alias of nothing or of two things', async () => {
    await expect(db.prisma.searchAlias.create({ data: { term: 'orphan' } })).rejects.toThrow();
    const [category, country] = await Promise.all([
      db.prisma.category.findFirstOrThrow(),
      db.prisma.country.findFirstOrThrow(),
    ]);
    await expect(
      db.prisma.searchAlias.create({ data: { term: 'both', categoryId: category.id, countryId: country.id } }),
    ).rejects.toThrow();
  });
});

describe.runIf(process.env.DATABASE_URL)('a listener whose connection is lost', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('listens again by itself and says that notifications may have been missed', async () => {
    const payloads: string[] = [];
    let reconnects = 0;
    await db.listen(CHANNEL, { onNotification: (p) => payloads.push(p), onReconnect: () => reconnects++ });
    const terminated = await db.prisma.$queryRaw<Array<{ ok: boolean }>>`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`;
    expect(terminated).toEqual([{ ok: true }]);
    const deadline = Date.now() + 5_000;
    while (reconnects === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reconnects).toBe(1);
    await db.prisma.$executeRaw`SELECT pg_notify('catalogue_changed', 'after')`;
    while (!payloads.includes('after') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(payloads).toEqual(['after']);
  });
});
