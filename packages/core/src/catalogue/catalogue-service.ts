import {
  type Category,
  type CategoryListingResponse,
  type Country,
  type Currency,
  HINTS_PER_KIND,
  type PageInfo,
  type ProductDetail,
  type ProductFilterQuery,
  type ProductListName,
  type ProductListQuery,
  type ProductListResponse,
  type ProductPage,
  type ProductSummary,
  REVIEW_PAGE_SIZE,
  type ReviewsResponse,
  resolvePaging,
  type SearchHintsResponse,
  type SearchResponse,
  SIMILAR_PRODUCTS,
  type SortMode,
  STORE_CURRENCY,
} from '@store/contract';
import { Prisma, type PrismaClient } from '@store/db';
import { NotFoundError } from '../shared/errors.ts';
import { discountPercent, minorToDisplay, wholeToMinor } from '../shared/money.ts';
import { cached, cachedByKey } from '../shared/ttl-cache.ts';
import {
  orderBy,
  PRODUCT_COLUMNS,
  PRODUCT_JOINS,
  type ProductFilter,
  type ProductRow,
  searchCondition,
  whereClause,
} from './catalogue-sql.ts';

export interface CatalogueServiceDeps {
  db: PrismaClient;
  /** How long category metadata (counts, price ranges) may be stale. */
  metaTtlMs?: number;
  /** How long the total of a filtered listing may be stale. */
  countTtlMs?: number;
  /**
   * How long a listing page may be served from memory. Browsing pages are the same for everyone and
   * are read far more than the catalogue changes; checkout always re-reads prices. 0 turns it off.
   */
  pageTtlMs?: number;
}

interface ProductDetailRow extends ProductRow {
  description: string;
  activation_instructions: string;
  category_name: string;
  category_id: number;
}

interface CategoryMeta extends Category {
  dbId: number;
  minPriceMinor: number;
  maxPriceMinor: number;
}

/** Word distance (1 - word similarity) under which a name is a hint; pg_trgm's own default is 0.4. */
const HINT_MAX_DISTANCE = 0.45;

const LIST_SORT: Record<ProductListName, SortMode> = {
  'popular-products': 'popular',
  novelties: 'novelties',
  discounts: 'sale',
};

export function toProductSummary(row: ProductRow): ProductSummary {
  return {
    id: row.id,
    article: String(row.id),
    name: row.name,
    price: minorToDisplay(row.price_minor),
    price_minor: row.price_minor,
    old_price: row.old_price_minor === null ? null : minorToDisplay(row.old_price_minor),
    old_price_minor: row.old_price_minor,
    discount: discountPercent(row.price_minor, row.old_price_minor),
    currency: STORE_CURRENCY,
    cover_path: row.cover_path,
    cover_text: row.cover_text,
    country_icon: row.country_icon,
    country: { code: row.country_code, name: row.country_name },
    nominal: {
      amount: minorToDisplay(row.nominal_minor, row.nominal_minor_units),
      currency: row.nominal_currency,
    },
    category: row.category_slug,
    in_stock: row.stock_count > 0,
    created_at: row.created_at.toISOString(),
  };
}

function pageInfo(total: number, offset: number, limit: number): PageInfo {
  return {
    total,
    offset,
    limit,
    page: Math.floor(offset / limit) + 1,
    pages: Math.ceil(total / limit),
  };
}

export function createCatalogueService({
  db,
  metaTtlMs = 30_000,
  countTtlMs = 10_000,
  pageTtlMs = 5_000,
}: CatalogueServiceDeps) {
  const categoryMeta = cached(metaTtlMs, async () => {
    const rows = await db.$queryRaw<
      Array<{
        id: number;
        slug: string;
        name: string;
        formatted_name: string;
        svg_path: string | null;
        products_count: number;
        min_price: number | null;
        max_price: number | null;
      }>
    >`
      SELECT c.id, c.slug, c.name, c.formatted_name, c.svg_path,
             COUNT(p.id)::int AS products_count,
             MIN(p.price_minor) AS min_price, MAX(p.price_minor) AS max_price
      FROM categories c
      LEFT JOIN products p ON p.category_id = c.id AND p.is_active
      GROUP BY c.id
      ORDER BY c.position, c.id`;
    return new Map<string, CategoryMeta>(
      rows.map((row) => [
        row.slug,
        {
          id: row.slug,
          dbId: row.id,
          name: row.name,
          formatted_name: row.formatted_name,
          svg_path: row.svg_path,
          products_count: row.products_count,
          minPriceMinor: row.min_price ?? 0,
          maxPriceMinor: row.max_price ?? 0,
        },
      ]),
    );
  });

  const publicCategory = ({ dbId: _, minPriceMinor: __, maxPriceMinor: ___, ...category }: CategoryMeta): Category =>
    category;

  /** The slider's range in whole units: floor of the cheapest, ceiling of the dearest. */
  const priceRange = (minMinor: number, maxMinor: number) => ({
    min: Math.floor(minMinor / 100),
    max: Math.ceil(maxMinor / 100),
  });

  function filterFrom(query: ProductFilterQuery): ProductFilter {
    return {
      minPriceMinor: query.minPrice === undefined ? undefined : wholeToMinor(query.minPrice),
      maxPriceMinor: query.maxPrice === undefined ? undefined : wholeToMinor(query.maxPrice),
      currencies: query.currency,
      countries: query.country,
    };
  }

  /**
   * Totals and price ranges of filtered listings: counting every match costs as much as the page
   * itself many times over, while "123 found" a few seconds stale is fine. The rows are always fresh.
   */
  const hints = cachedByKey<SearchHintsResponse>(60_000, 10_000);

  const aggregates = cachedByKey<{ total: number; min: number | null; max: number | null }>(countTtlMs, 5_000);

  async function countMatches(where: Prisma.Sql) {
    const key = JSON.stringify([where.sql, where.values]);
    return aggregates.get(key, async () => {
      const [row] = await db.$queryRaw<Array<{ total: number; min: number | null; max: number | null }>>`
        SELECT COUNT(*)::int AS total, MIN(p.price_minor) AS min, MAX(p.price_minor) AS max
        FROM products p ${PRODUCT_JOINS} ${where}`;
      return row ?? { total: 0, min: null, max: null };
    });
  }

  /** Whole listing responses, so a hit costs neither a query nor building the answer again. */
  const responses = cachedByKey<unknown>(pageTtlMs, 2_000);

  function cachedResponse<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (pageTtlMs <= 0) return load();
    return responses.get(key, load) as Promise<T>;
  }

  async function productPage(
    where: Prisma.Sql,
    order: Prisma.Sql,
    paging: { offset: number; limit: number },
  ): Promise<ProductPage> {
    const [rows, { total }] = await Promise.all([
      db.$queryRaw<ProductRow[]>`
        SELECT ${PRODUCT_COLUMNS}
        FROM products p ${PRODUCT_JOINS}
        ${where}
        ${order}
        LIMIT ${paging.limit} OFFSET ${paging.offset}`,
      countMatches(where),
    ]);
    return { ...pageInfo(total, paging.offset, paging.limit), products: rows.map(toProductSummary) };
  }

  async function categoryListing(slug: string, query: ProductFilterQuery): Promise<CategoryListingResponse> {
    const category = await findCategory(slug);
    const result = await productPage(
      whereClause({ ...filterFrom(query), categoryId: category.dbId }),
      orderBy(query.sort ?? 'popular'),
      resolvePaging(query),
    );
    return {
      category: publicCategory(category),
      result,
      priceRange: priceRange(category.minPriceMinor, category.maxPriceMinor),
    };
  }

  async function search(query: string, filter: ProductFilterQuery): Promise<SearchResponse> {
    const where = whereClause(filterFrom(filter), [searchCondition(query)]);
    const order = filter.sort
      ? orderBy(filter.sort)
      : Prisma.sql`ORDER BY ${query} <<-> p.name, p.popularity DESC, p.id`;
    const [result, range] = await Promise.all([
      productPage(where, order, resolvePaging(filter)),
      countMatches(whereClause({}, [searchCondition(query)])),
    ]);
    return { query, result, priceRange: priceRange(range.min ?? 0, range.max ?? 0) };
  }

  async function findCategory(slug: string): Promise<CategoryMeta> {
    const category = (await categoryMeta.get()).get(slug);
    if (!category) throw new NotFoundError('Category');
    return category;
  }

  async function requireProduct(id: number): Promise<ProductDetailRow> {
    const [row] = await db.$queryRaw<ProductDetailRow[]>`
      SELECT ${PRODUCT_COLUMNS}, p.description, p.activation_instructions,
             c.formatted_name AS category_name, p.category_id
      FROM products p ${PRODUCT_JOINS}
      WHERE p.id = ${id} AND p.is_active`;
    if (!row) throw new NotFoundError('Product');
    return row;
  }

  return {
    async listCategories(): Promise<Category[]> {
      return [...(await categoryMeta.get()).values()].map(publicCategory);
    },

    getCategoryListing(slug: string, query: ProductFilterQuery): Promise<CategoryListingResponse> {
      return cachedResponse(`category:${slug}:${JSON.stringify(query)}`, () => categoryListing(slug, query));
    },

    listProducts(list: ProductListName, query: ProductListQuery): Promise<ProductListResponse> {
      return cachedResponse(`list:${list}:${JSON.stringify(query)}`, async () => ({
        result: await productPage(
          whereClause({ discountedOnly: list === 'discounts' }),
          orderBy(query.sort ?? LIST_SORT[list]),
          resolvePaging(query),
        ),
      }));
    },

    async getProduct(id: number): Promise<ProductDetail> {
      const row = await requireProduct(id);
      const [rating] = await db.$queryRaw<Array<{ average: number | null; count: number }>>`
        SELECT ROUND(AVG(rating)::numeric, 1)::float8 AS average, COUNT(*)::int AS count
        FROM reviews WHERE product_id = ${id}`;
      return {
        ...toProductSummary(row),
        description: row.description,
        activation_instructions: row.activation_instructions,
        stock: row.stock_count,
        category_name: row.category_name,
        rating: { average: rating?.average ?? null, count: rating?.count ?? 0 },
      };
    },

    async getProductForBasket(id: number): Promise<ProductSummary> {
      return toProductSummary(await requireProduct(id));
    },

    /** Same category, nearest in price, in-stock first. */
    async getSimilarProducts(id: number): Promise<ProductSummary[]> {
      const product = await requireProduct(id);
      const rows = await db.$queryRaw<ProductRow[]>`
        SELECT ${PRODUCT_COLUMNS}
        FROM products p ${PRODUCT_JOINS}
        WHERE p.is_active AND p.category_id = ${product.category_id} AND p.id <> ${id}
        ORDER BY (p.stock_count = 0), ABS(p.price_minor - ${product.price_minor}), p.popularity DESC, p.id
        LIMIT ${SIMILAR_PRODUCTS}`;
      return rows.map(toProductSummary);
    },

    async listCountries(): Promise<Country[]> {
      const rows = await db.country.findMany({ orderBy: [{ name: { sort: 'asc', nulls: 'first' } }, { code: 'asc' }] });
      return rows.map(({ id, name, code, icon }) => ({ id, name, code, icon }));
    },

    async listCurrencies(): Promise<Currency[]> {
      const rows = await db.currency.findMany({ orderBy: { codeName: 'asc' } });
      return rows.map(({ id, codeName }) => ({ id, codeName }));
    },

    async listReviews(productId: number, query: { offset?: number; limit?: number }): Promise<ReviewsResponse> {
      await requireProduct(productId);
      const offset = query.offset ?? 0;
      const limit = query.limit ?? REVIEW_PAGE_SIZE;
      const [reviews, stats] = await Promise.all([
        db.review.findMany({
          where: { productId },
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
          skip: offset,
          take: limit,
          include: { user: { select: { name: true } } },
        }),
        db.review.aggregate({ where: { productId }, _count: true, _avg: { rating: true } }),
      ]);
      return {
        ...pageInfo(stats._count, offset, limit),
        average: stats._avg.rating === null ? null : Math.round(stats._avg.rating * 10) / 10,
        feedbacks: reviews.map((review) => ({
          id: review.id,
          rating: review.rating,
          text: review.text,
          author: review.user.name,
          created_at: review.createdAt.toISOString(),
        })),
      };
    },

    /**
     * Hints by name: the nearest names by trigram word distance, straight from the GiST index, so a
     * typo ("stem") still finds "Steam". Hints by article match the id exactly or as a prefix.
     */
    searchHints(query: string): Promise<SearchHintsResponse> {
      // Everybody typing "stea" gets the same hints: one query serves them all for a minute.
      return hints.get(query.toLowerCase(), () => findHints(query));
    },

    searchProducts(query: string, filter: ProductFilterQuery): Promise<SearchResponse> {
      return cachedResponse(`search:${query.toLowerCase()}:${JSON.stringify(filter)}`, () => search(query, filter));
    },

    /** Drops cached category metadata, e.g. after the catalogue changed. */
    invalidate() {
      categoryMeta.invalidate();
      aggregates.clear();
      responses.clear();
      hints.clear();
    },
  };

  async function findHints(query: string): Promise<SearchHintsResponse> {
    const byName = db.$queryRaw<Array<{ name: string }>>`
      SELECT name FROM (
        SELECT p.name, ${query} <<-> p.name AS distance
        FROM products p
        WHERE p.is_active
        ORDER BY ${query} <<-> p.name
        LIMIT ${HINTS_PER_KIND * 5}
      ) nearest
      WHERE distance <= ${HINT_MAX_DISTANCE}`;
    const byArticle = /^\d{1,9}$/.test(query) ? articleHints(Number(query)) : Promise.resolve([]);
    const [names, articles] = await Promise.all([byName, byArticle]);
    const distinct = [...new Set(names.map(({ name }) => name))].slice(0, HINTS_PER_KIND);
    return {
      hintsByName: distinct.map((name) => ({ name })),
      hintsByArt: articles.map(({ id, name }) => ({ id, name, article: String(id) })),
    };
  }

  /** Ids equal to the number, or starting with its digits (one and two more digits). */
  function articleHints(id: number) {
    if (id < 1) return Promise.resolve([] as Array<{ id: number; name: string }>);
    return db.$queryRaw<Array<{ id: number; name: string }>>`
      SELECT p.id, p.name FROM products p
      WHERE p.is_active AND (p.id = ${id}
        OR p.id BETWEEN ${id * 10} AND ${id * 10 + 9}
        OR p.id BETWEEN ${id * 100} AND ${id * 100 + 99})
      ORDER BY p.id
      LIMIT ${HINTS_PER_KIND}`;
  }
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
