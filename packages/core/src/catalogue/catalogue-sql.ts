import { qb } from '@store/db';

/**
 * Statements of the catalogue's product pages: a product with the joins its summary needs. Listings
 * and search are answered by the search port (packages/core/src/search).
 */

/**
 * Products (`p`) with what every product summary needs: their category (`c`), country (`co`) and
 * nominal currency (`cu`), and their reviews (`rv`): how many, and their ratings added up. A
 * statement adds its columns, conditions and order to it:
 *
 *     productSummaries.select('p.description').where('p.id', '=', id)
 */
export const productSummaries = qb
  .selectFrom('products as p')
  .innerJoin('categories as c', 'c.id', 'p.category_id')
  .innerJoin('countries as co', 'co.id', 'p.country_id')
  .innerJoin('currencies as cu', 'cu.id', 'p.nominal_currency_id')
  .leftJoinLateral(
    (eb) =>
      eb
        .selectFrom('reviews as r')
        .select((eb) => [
          eb.cast<number>(eb.fn.countAll(), 'integer').as('review_count'),
          eb.cast<number>(eb.fn.coalesce(eb.fn.sum('r.rating'), eb.lit(0)), 'integer').as('rating_sum'),
        ])
        .whereRef('r.product_id', '=', 'p.id')
        .as('rv'),
    (join) => join.onTrue(),
  )
  .select([
    'p.id',
    'p.name',
    'p.price_minor',
    'p.old_price_minor',
    'p.cover_path',
    'p.cover_text',
    'p.nominal_minor',
    'p.stock_count',
    'p.created_at',
    'c.slug as category_slug',
    'co.code as country_code',
    'co.name as country_name',
    'co.icon as country_icon',
    'cu.code_name as nominal_currency',
    'cu.minor_units as nominal_minor_units',
    'rv.review_count',
    'rv.rating_sum',
  ])
  // An aggregate without GROUP BY answers one row for every product: the left join always matches.
  .$narrowType<{ review_count: number; rating_sum: number }>();

/** A product summary's row, as `productSummaries` selects it. */
export type ProductRow = Awaited<ReturnType<typeof productSummaries.execute>>[number];
