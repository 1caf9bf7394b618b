import {
  ADMIN_PAGE_SIZE,
  type AdminPromo,
  type AdminPromoPage,
  type AdminPromoQuery,
  ErrorKeys,
  type PromoCreateInput,
} from '@store/contract';
import { int8ToNumber, type Queryable, qb, type SqlClient } from '@store/db';
import { codeStatus } from '../promo/promo-service.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { type AuditActor, writeAudit } from './audit-log.ts';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The console's promo codes: listed, created with their scope, deactivated. The shop's rules (the
 * window, the uses, one use per customer) stay in the promo service; each change here writes its
 * audit row in its transaction.
 */
export function createAdminPromo({ sql, clock = () => new Date() }: { sql: SqlClient; clock?: () => Date }) {
  const promoRows = qb
    .selectFrom('promo_codes as pc')
    .select((eb) => [
      'pc.id',
      'pc.code',
      'pc.discount_percent',
      'pc.valid_from',
      'pc.valid_until',
      'pc.max_uses',
      'pc.used_count',
      'pc.is_active',
      'pc.created_at',
      eb
        .fn<string[]>('array', [
          eb
            .selectFrom('promo_code_categories as s')
            .innerJoin('categories as c', 'c.id', 's.category_id')
            .select('c.slug')
            .whereRef('s.promo_code_id', '=', 'pc.id')
            .orderBy('c.slug'),
        ])
        .as('categories'),
      eb
        .fn<number[]>('array', [
          eb
            .selectFrom('promo_code_products as s')
            .select('s.product_id')
            .whereRef('s.promo_code_id', '=', 'pc.id')
            .orderBy('s.product_id'),
        ])
        .as('product_ids'),
    ]);
  type Row = Awaited<ReturnType<typeof promoRows.execute>>[number];

  function view(row: Row): AdminPromo {
    return {
      id: row.id,
      code: row.code,
      percent: row.discount_percent,
      valid_from: iso(row.valid_from),
      valid_until: iso(row.valid_until),
      max_uses: row.max_uses,
      used_count: row.used_count,
      is_active: row.is_active,
      status: codeStatus(
        {
          isActive: row.is_active,
          validFrom: row.valid_from,
          validUntil: row.valid_until,
          maxUses: row.max_uses,
          usedCount: row.used_count,
        },
        clock(),
      ),
      categories: row.categories,
      product_ids: row.product_ids,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  async function promoIn(db: Queryable, id: number): Promise<AdminPromo> {
    const [row] = await db.query(promoRows.where('pc.id', '=', id));
    if (!row) throw new NotFoundError('Promo code');
    return view(row);
  }

  return {
    async list(query: AdminPromoQuery): Promise<AdminPromoPage> {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
      let filtered = promoRows;
      if (query.q) filtered = filtered.where('pc.code', 'ilike', `%${escapeLike(query.q)}%`);
      if (query.active) filtered = filtered.where('pc.is_active', '=', query.active === 'true');
      const [rows, [count]] = await Promise.all([
        sql.query(
          filtered
            .orderBy('pc.id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        sql.query(filtered.clearSelect().select((eb) => eb.fn.countAll<string>().as('total'))),
      ]);
      return { items: rows.map(view), page, page_size: pageSize, total: int8ToNumber(count?.total ?? 0) };
    },

    /** A new code; an unknown category or product, or a code taken already, is a field error. */
    async create(input: PromoCreateInput, actor: AuditActor): Promise<{ promo: AdminPromo }> {
      return sql.transaction(async (tx) => {
        const slugs = [...new Set(input.categories)];
        const productIds = [...new Set(input.product_ids)];
        const [categories, products, taken] = await Promise.all([
          slugs.length === 0
            ? []
            : tx.query(qb.selectFrom('categories').select(['id', 'slug']).where('slug', 'in', slugs)),
          productIds.length === 0 ? [] : tx.query(qb.selectFrom('products').select('id').where('id', 'in', productIds)),
          tx.query(qb.selectFrom('promo_codes').select('id').where('code', '=', input.code)),
        ]);
        const errors: Record<string, string[]> = {};
        if (categories.length !== slugs.length) errors.categories = [ErrorKeys.invalidValue];
        if (products.length !== productIds.length) errors.product_ids = [ErrorKeys.invalidValue];
        if (taken.length > 0) errors.code = [ErrorKeys.duplicateValue];
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const [inserted] = await tx.query(
          qb
            .insertInto('promo_codes')
            .values({
              code: input.code,
              discount_percent: input.percent,
              valid_from: input.valid_from ? new Date(input.valid_from) : null,
              valid_until: input.valid_until ? new Date(input.valid_until) : null,
              max_uses: input.max_uses ?? null,
            })
            // A code taken between the check and the insert is the same field error.
            .onConflict((oc) => oc.column('code').doNothing())
            .returning('id'),
        );
        if (!inserted) throw new ValidationError({ code: [ErrorKeys.duplicateValue] });
        const id = inserted.id;
        if (categories.length > 0) {
          await tx.execute(
            qb
              .insertInto('promo_code_categories')
              .values(categories.map((category) => ({ promo_code_id: id, category_id: category.id }))),
          );
        }
        if (products.length > 0) {
          await tx.execute(
            qb
              .insertInto('promo_code_products')
              .values(products.map((product) => ({ promo_code_id: id, product_id: product.id }))),
          );
        }
        const promo = await promoIn(tx, id);
        const { status: _status, used_count: _used, ...kept } = promo;
        await writeAudit(tx, actor, { action: 'promo.create', targetType: 'promo', targetId: id, after: kept });
        return { promo };
      });
    },

    /** Stops a code from being used from now on; uses already made stay. Deactivating it again changes nothing. */
    async deactivate(id: number, reason: string, actor: AuditActor): Promise<{ promo: AdminPromo }> {
      return sql.transaction(async (tx) => {
        const [locked] = await tx.query(
          qb.selectFrom('promo_codes').select('is_active').where('id', '=', id).forUpdate(),
        );
        if (!locked) throw new NotFoundError('Promo code');
        if (locked.is_active) {
          await tx.execute(qb.updateTable('promo_codes').set({ is_active: false }).where('id', '=', id));
          await writeAudit(tx, actor, {
            action: 'promo.update',
            targetType: 'promo',
            targetId: id,
            before: { is_active: true },
            after: { is_active: false, reason },
          });
        }
        return { promo: await promoIn(tx, id) };
      });
    },
  };
}

export type AdminPromoCodes = ReturnType<typeof createAdminPromo>;
