/**
 * The baseline's SQL: per request, the same one query the store runs in steady state (its category
 * metadata and listing totals come from short caches): the page of the category listing with the
 * same joins, filters and order, and the same nearest-name query as the store's hints.
 */
export const LISTING_SQL = `
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
  ORDER BY p.popularity DESC, p.id
  LIMIT $5 OFFSET $6`;

export const HINTS_SQL = `
  SELECT name FROM (
    SELECT p.name, $1 <<-> p.name AS distance
    FROM products p
    WHERE p.is_active
    ORDER BY $1 <<-> p.name
    LIMIT 40
  ) nearest
  WHERE distance <= 0.45`;
