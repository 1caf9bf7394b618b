/**
 * The baseline's SQL: per request, the one query a plain SQL implementation runs for the page (no
 * count, so the baseline is given the benefit of the doubt): the category listing with the same
 * joins, filters and every sort order, and the store's former nearest-name hints query (pg_trgm's
 * GiST index).
 */
const ORDER_BY: Record<string, string> = {
  popular: 'p.popularity DESC, p.id',
  counts: 'p.stock_count DESC, p.popularity DESC, p.id',
  novelties: 'p.created_at DESC, p.id DESC',
  sale: '(p.old_price_minor IS NULL), (p.price_minor::float8 / NULLIF(p.old_price_minor, 0)) ASC, p.id',
  purchased: 'p.purchased_count DESC, p.id',
  decreasing: 'p.price_minor DESC, p.id',
  increase: 'p.price_minor ASC, p.id',
};

export function listingSql(sort: string | undefined): string {
  return `
  SELECT p.id, p.name, p.price_minor, p.old_price_minor, p.cover_path, p.cover_text, p.nominal_minor,
         p.stock_count, p.created_at, c.slug AS category_slug, co.code AS country_code,
         co.name AS country_name, co.icon AS country_icon, cu.code_name AS nominal_currency,
         cu.minor_units AS nominal_minor_units
  FROM products p
  JOIN categories c ON c.id = p.category_id
  JOIN countries co ON co.id = p.country_id
  JOIN currencies cu ON cu.id = p.nominal_currency_id
  WHERE p.is_active AND c.slug = $1 AND p.price_minor >= $2 AND p.price_minor <= $3
    AND (cardinality($4::text[]) = 0 OR cu.code_name = ANY($4::text[]))
    AND (cardinality($5::text[]) = 0 OR co.code = ANY($5::text[]))
  ORDER BY ${ORDER_BY[sort ?? 'popular'] ?? ORDER_BY.popular}
  LIMIT $6 OFFSET $7`;
}

export const HINTS_SQL = `
  SELECT name FROM (
    SELECT p.name, $1 <<-> p.name AS distance
    FROM products p
    WHERE p.is_active
    ORDER BY $1 <<-> p.name
    LIMIT 40
  ) nearest
  WHERE distance <= 0.45`;
