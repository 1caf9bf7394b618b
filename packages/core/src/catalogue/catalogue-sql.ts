import type { SortMode } from '@store/contract';
import { Prisma } from '@store/db';

/**
 * Raw SQL of the catalogue: one query per listing page (rows and total together through a window
 * count), and trigram search, which Prisma's query builder cannot say.
 */

/** The columns every product summary needs, with the joins that provide them. */
export const PRODUCT_COLUMNS = Prisma.sql`
  p.id, p.name, p.price_minor, p.old_price_minor, p.cover_path, p.cover_text, p.nominal_minor,
  p.stock_count, p.created_at, c.slug AS category_slug, co.code AS country_code,
  co.name AS country_name, co.icon AS country_icon, cu.code_name AS nominal_currency,
  cu.minor_units AS nominal_minor_units`;

export const PRODUCT_JOINS = Prisma.sql`
  JOIN categories c ON c.id = p.category_id
  JOIN countries co ON co.id = p.country_id
  JOIN currencies cu ON cu.id = p.nominal_currency_id`;

export interface ProductRow {
  id: number;
  name: string;
  price_minor: number;
  old_price_minor: number | null;
  cover_path: string | null;
  cover_text: string | null;
  nominal_minor: number;
  stock_count: number;
  created_at: Date;
  category_slug: string;
  country_code: string;
  country_name: string | null;
  country_icon: string | null;
  nominal_currency: string;
  nominal_minor_units: number;
}

/** ORDER BY of each sort mode; every one ends on the id so pages never overlap or skip. */
export function orderBy(sort: SortMode): Prisma.Sql {
  switch (sort) {
    case 'popular':
      return Prisma.sql`ORDER BY p.popularity DESC, p.id`;
    case 'counts':
      return Prisma.sql`ORDER BY p.stock_count DESC, p.popularity DESC, p.id`;
    case 'novelties':
      return Prisma.sql`ORDER BY p.created_at DESC, p.id DESC`;
    case 'sale':
      // Discounted first, deepest discount first.
      return Prisma.sql`ORDER BY (p.old_price_minor IS NULL), (p.price_minor::float8 / NULLIF(p.old_price_minor, 0)) ASC, p.id`;
    case 'purchased':
      return Prisma.sql`ORDER BY p.purchased_count DESC, p.id`;
    case 'decreasing':
      return Prisma.sql`ORDER BY p.price_minor DESC, p.id`;
    case 'increase':
      return Prisma.sql`ORDER BY p.price_minor ASC, p.id`;
  }
}

export interface ProductFilter {
  categoryId?: number;
  minPriceMinor?: number;
  maxPriceMinor?: number;
  currencies?: string[];
  countries?: string[];
  discountedOnly?: boolean;
}

export function whereClause(filter: ProductFilter, extra: Prisma.Sql[] = []): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`p.is_active`];
  if (filter.categoryId !== undefined) conditions.push(Prisma.sql`p.category_id = ${filter.categoryId}`);
  if (filter.minPriceMinor !== undefined) conditions.push(Prisma.sql`p.price_minor >= ${filter.minPriceMinor}`);
  if (filter.maxPriceMinor !== undefined) conditions.push(Prisma.sql`p.price_minor <= ${filter.maxPriceMinor}`);
  if (filter.currencies?.length) conditions.push(Prisma.sql`cu.code_name IN (${Prisma.join(filter.currencies)})`);
  if (filter.countries?.length) conditions.push(Prisma.sql`co.code IN (${Prisma.join(filter.countries)})`);
  if (filter.discountedOnly) conditions.push(Prisma.sql`p.old_price_minor IS NOT NULL`);
  conditions.push(...extra);
  return Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}

/** Escapes LIKE wildcards so that a shopper's `%` or `_` is searched for literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** A product matches a search when its name contains the text, is a near match, or its id is it. */
export function searchCondition(query: string): Prisma.Sql {
  const byId = /^\d{1,9}$/.test(query) ? Prisma.sql` OR p.id = ${Number(query)}` : Prisma.empty;
  return Prisma.sql`(p.name ILIKE ${likePattern(query)} OR ${query} <% p.name${byId})`;
}
