import { Prisma } from '@store/db';

/**
 * Raw SQL of the catalogue's product pages: a product with the joins its summary needs. Listings and
 * search are answered by the search port (packages/core/src/search).
 */

/** The columns every product summary needs, with the joins that provide them. */
export const PRODUCT_COLUMNS = Prisma.sql`
  p.id, p.name, p.price_minor, p.old_price_minor, p.cover_path, p.cover_text, p.nominal_minor,
  p.stock_count, p.created_at, c.slug AS category_slug, co.code AS country_code,
  co.name AS country_name, co.icon AS country_icon, cu.code_name AS nominal_currency,
  cu.minor_units AS nominal_minor_units, rv.review_count, rv.rating_sum`;

export const PRODUCT_JOINS = Prisma.sql`
  JOIN categories c ON c.id = p.category_id
  JOIN countries co ON co.id = p.country_id
  JOIN currencies cu ON cu.id = p.nominal_currency_id
  LEFT JOIN LATERAL (
    SELECT COUNT(*)::int AS review_count, COALESCE(SUM(r.rating), 0)::int AS rating_sum
    FROM reviews r WHERE r.product_id = p.id
  ) rv ON true`;

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
  /** Its reviews: how many, and their ratings added up. */
  review_count: number;
  rating_sum: number;
}
