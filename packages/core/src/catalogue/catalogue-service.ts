import {
  type Category,
  type CategoryListingResponse,
  type Country,
  type Currency,
  type DisplayRate,
  HINTS_PER_KIND,
  type PageInfo,
  type ProductDetail,
  type ProductFilterQuery,
  type ProductListName,
  type ProductListQuery,
  type ProductListResponse,
  type ProductSummary,
  resolvePaging,
  type SearchHintsResponse,
  type SearchResponse,
  SIMILAR_PRODUCTS,
  type SortMode,
  STORE_CURRENCY,
} from '@store/contract';
import type { PrismaClient, SqlClient } from '@store/db';
import type { DisplayRates } from '../display/display-rates.ts';
import type { ProductHint, ProductQuery, ProductSearch } from '../search/product-search.ts';
import { NotFoundError } from '../shared/errors.ts';
import { discountPercent, minorToDisplay, wholeToMinor } from '../shared/money.ts';
import { ratingSummary } from '../shared/rating.ts';
import { cached, cachedByKey } from '../shared/ttl-cache.ts';
import { type ProductRow, productSummaries } from './catalogue-sql.ts';

export interface CatalogueServiceDeps {
  db: PrismaClient;
  sql: SqlClient;
  /** Search, hints and listings: the in-process index, or a search engine behind the same port. */
  search: ProductSearch;
  /** The operator's display rates: every answer with prices carries the rate of its language. */
  displayRates: Pick<DisplayRates, 'forLocale' | 'onChange'>;
  /** How long category names and icons may be stale (counts and prices come fresh from search). */
  metaTtlMs?: number;
  /**
   * How long a listing page may be served as already built and serialised; a change to the catalogue
   * drops them all at once. 0 turns it off, and the cache of hints with it.
   */
  pageTtlMs?: number;
}

interface CategoryMeta extends Category {
  minPriceMinor: number;
  maxPriceMinor: number;
}

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
    rating: ratingSummary(row.review_count, row.rating_sum),
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
  sql,
  search,
  displayRates,
  metaTtlMs = 30_000,
  pageTtlMs = 5_000,
}: CatalogueServiceDeps) {
  const categoryRows = cached(metaTtlMs, () =>
    db.category.findMany({
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      select: { slug: true, name: true, formattedName: true, svgPath: true },
    }),
  );

  async function categoryMeta(): Promise<Map<string, CategoryMeta>> {
    const [rows, facts] = await Promise.all([categoryRows.get(), search.categoryFacts()]);
    return new Map(
      rows.map((row) => {
        const fact = facts.get(row.slug);
        return [
          row.slug,
          {
            id: row.slug,
            name: row.name,
            formatted_name: row.formattedName,
            svg_path: row.svgPath,
            products_count: fact?.productsCount ?? 0,
            minPriceMinor: fact?.minPriceMinor ?? 0,
            maxPriceMinor: fact?.maxPriceMinor ?? 0,
          },
        ];
      }),
    );
  }

  const publicCategory = ({ minPriceMinor: _, maxPriceMinor: __, ...category }: CategoryMeta): Category => category;

  /** The slider's range in whole units: floor of the cheapest, ceiling of the dearest. */
  const priceRange = (minMinor: number, maxMinor: number) => ({
    min: Math.floor(minMinor / 100),
    max: Math.ceil(maxMinor / 100),
  });

  function queryFrom(filter: ProductFilterQuery): ProductQuery {
    return {
      sort: filter.sort,
      minPriceMinor: filter.minPrice === undefined ? undefined : wholeToMinor(filter.minPrice),
      maxPriceMinor: filter.maxPrice === undefined ? undefined : wholeToMinor(filter.maxPrice),
      currencies: filter.currency,
      countries: filter.country,
      ...resolvePaging(filter),
    };
  }

  const page = (hits: { total: number; products: ProductSummary[] }, paging: { offset: number; limit: number }) => ({
    ...pageInfo(hits.total, paging.offset, paging.limit),
    products: hits.products,
  });

  // Everybody typing "stea" gets the same hints: one lookup serves them all until the catalogue changes.
  const hints = cachedByKey<SearchHintsResponse>(60_000, 10_000);

  /** Whole listing responses, so a hit costs neither a lookup nor building the answer again. */
  const responses = cachedByKey<unknown>(pageTtlMs, 2_000);

  function cachedResponse<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (pageTtlMs <= 0) return load();
    return responses.get(key, load) as Promise<T>;
  }

  const dropAnswers = () => {
    responses.clear();
    hints.clear();
  };
  search.onChange(dropAnswers);
  displayRates.onChange(dropAnswers);

  /**
   * The cache key of an answer with prices: the shown currency (not the language: pt-BR and en share
   * BRL answers) and the query without its language. A rate set anew drops every cached answer.
   */
  const keyOf = (kind: string, display: DisplayRate, { lang: _, ...query }: { lang?: string }) =>
    `${kind}:${display.currency}:${JSON.stringify(query)}`;

  async function categoryListing(
    slug: string,
    filter: ProductFilterQuery,
    display: DisplayRate,
  ): Promise<CategoryListingResponse> {
    const category = await findCategory(slug);
    const query = { ...queryFrom(filter), category: slug, sort: filter.sort ?? 'popular' };
    const hits = await search.products(query);
    return {
      category: publicCategory(category),
      result: page(hits, query),
      priceRange: priceRange(category.minPriceMinor, category.maxPriceMinor),
      display,
    };
  }

  async function searchProducts(
    text: string,
    filter: ProductFilterQuery,
    display: DisplayRate,
  ): Promise<SearchResponse> {
    const query = { ...queryFrom(filter), text };
    const hits = await search.products(query);
    return {
      query: text,
      result: page(hits, query),
      priceRange: priceRange(hits.priceRange?.minMinor ?? 0, hits.priceRange?.maxMinor ?? 0),
      display,
    };
  }

  async function findCategory(slug: string): Promise<CategoryMeta> {
    const category = (await categoryMeta()).get(slug);
    if (!category) throw new NotFoundError('Category');
    return category;
  }

  async function requireProduct(id: number) {
    const [row] = await sql.query(
      productSummaries
        .select(['p.description', 'p.activation_instructions', 'c.formatted_name as category_name', 'p.category_id'])
        .where('p.id', '=', id)
        .where((eb) => eb.ref('p.is_active')),
    );
    if (!row) throw new NotFoundError('Product');
    return row;
  }

  return {
    async listCategories(): Promise<Category[]> {
      return [...(await categoryMeta()).values()].map(publicCategory);
    },

    getCategoryListing(slug: string, query: ProductFilterQuery): Promise<CategoryListingResponse> {
      const display = displayRates.forLocale(query.lang);
      return cachedResponse(keyOf(`category:${slug}`, display, query), () => categoryListing(slug, query, display));
    },

    listProducts(list: ProductListName, query: ProductListQuery): Promise<ProductListResponse> {
      const display = displayRates.forLocale(query.lang);
      return cachedResponse(keyOf(`list:${list}`, display, query), async () => {
        const paging = resolvePaging(query);
        const hits = await search.products({
          discountedOnly: list === 'discounts',
          sort: query.sort ?? LIST_SORT[list],
          ...paging,
        });
        return { result: page(hits, paging), display };
      });
    },

    /**
     * The product page; its texts in `locale` when the product has them, else its own (English), and
     * its prices with the display rate of `locale`.
     */
    async getProduct(id: number, locale?: string): Promise<ProductDetail> {
      const [row, translation] = await Promise.all([
        requireProduct(id),
        locale === undefined
          ? null
          : db.productTranslation.findUnique({ where: { productId_locale: { productId: id, locale } } }),
      ]);
      return {
        ...toProductSummary(row),
        description: translation?.description ?? row.description,
        activation_instructions: translation?.activationInstructions ?? row.activation_instructions,
        stock: row.stock_count,
        category_name: row.category_name,
        display: displayRates.forLocale(locale),
      };
    },

    async getProductForBasket(id: number): Promise<ProductSummary> {
      return toProductSummary(await requireProduct(id));
    },

    /** Same category, nearest in price, in-stock first. */
    async getSimilarProducts(id: number): Promise<ProductSummary[]> {
      const product = await requireProduct(id);
      const rows = await sql.query(
        productSummaries
          .where((eb) => eb.ref('p.is_active'))
          .where('p.category_id', '=', product.category_id)
          .where('p.id', '<>', id)
          .orderBy((eb) => eb('p.stock_count', '=', 0))
          .orderBy((eb) => eb.fn('abs', [eb('p.price_minor', '-', product.price_minor)]))
          .orderBy('p.popularity', 'desc')
          .orderBy('p.id')
          .limit(SIMILAR_PRODUCTS),
      );
      return rows.map(toProductSummary);
    },

    /** Every country, or only those a category has products for (its country filter offers no dead ends). */
    async listCountries(category?: string): Promise<Country[]> {
      const rows = await db.country.findMany({ orderBy: [{ name: { sort: 'asc', nulls: 'first' } }, { code: 'asc' }] });
      const countries = rows.map(({ id, name, code, icon }) => ({ id, name, code, icon }));
      if (category === undefined) return countries;
      const facts = (await search.categoryFacts()).get(category);
      if (!facts) throw new NotFoundError('Category');
      const present = new Set(facts.countries);
      return countries.filter(({ code }) => present.has(code));
    },

    async listCurrencies(): Promise<Currency[]> {
      const rows = await db.currency.findMany({ orderBy: { codeName: 'asc' } });
      return rows.map(({ id, codeName }) => ({ id, codeName }));
    },

    /**
     * Hints while the shopper types: products by name (aliases, other scripts and typos included),
     * best match first, each with what helps choose (cover, price, region); and by article.
     */
    searchHints(query: string, locale?: string): Promise<SearchHintsResponse> {
      const display = displayRates.forLocale(locale);
      const find = async (): Promise<SearchHintsResponse> => {
        const found = await search.hints(query, HINTS_PER_KIND);
        return {
          hintsByName: found.byName.map((hint) => ({ name: hint.name, ...hintDetails(hint) })),
          hintsByArt: found.byArticle.map((hint) => ({
            id: hint.id,
            name: hint.name,
            article: String(hint.id),
            ...hintDetails(hint),
          })),
          display,
        };
      };
      return pageTtlMs > 0 ? hints.get(`${display.currency}:${query.toLowerCase()}`, find) : find();
    },

    searchProducts(query: string, filter: ProductFilterQuery): Promise<SearchResponse> {
      const display = displayRates.forLocale(filter.lang);
      return cachedResponse(keyOf(`search:${query.toLowerCase()}`, display, filter), () =>
        searchProducts(query, filter, display),
      );
    },

    /** Drops cached category names, e.g. after a category was renamed. */
    invalidate() {
      categoryRows.invalidate();
      responses.clear();
      hints.clear();
    },
  };
}

function hintDetails({ thumbnail, price, currency, region }: ProductHint) {
  return { thumbnail, price, currency, region };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
