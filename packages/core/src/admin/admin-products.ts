import {
  ADMIN_PAGE_SIZE,
  type AdminProduct,
  type AdminProductDetail,
  type AdminProductOptions,
  type AdminProductPage,
  type AdminProductQuery,
  ErrorKeys,
  LOCALES,
  oldPriceAbovePrice,
  type ProductCreateInput,
  type ProductUpdateInput,
} from '@store/contract';
import { int8ToNumber, type Queryable, qb, type SqlClient } from '@store/db';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { type AuditActor, writeAudit } from './audit-log.ts';

type Locale = (typeof LOCALES)[number];
type Texts = Record<Locale, string>;
type Detail = AdminProductDetail['product'];

/** The product's own texts are English: the shop falls back to them in a language without its own. */
const OWN_LOCALE: Locale = 'en';

/** The fields a change may touch, as the audit log records what they were and became. */
const CHANGEABLE = [
  'name',
  'descriptions',
  'activation_instructions',
  'price_minor',
  'old_price_minor',
  'category',
  'country',
  'nominal_minor',
  'nominal_currency',
  'cover_path',
  'cover_text',
  'is_active',
  'low_stock_threshold',
] as const satisfies ReadonlyArray<keyof Detail>;

const productRows = qb
  .selectFrom('products as p')
  .innerJoin('categories as c', 'c.id', 'p.category_id')
  .innerJoin('countries as co', 'co.id', 'p.country_id')
  .innerJoin('currencies as cu', 'cu.id', 'p.nominal_currency_id');

const selectProducts = productRows.select([
  'p.id',
  'p.name',
  'c.slug as category',
  'c.name as category_name',
  'co.code as country',
  'p.price_minor',
  'p.old_price_minor',
  'p.nominal_minor',
  'cu.code_name as nominal_currency',
  'p.cover_path',
  'p.cover_text',
  'p.is_active',
  'p.stock_count',
  'p.low_stock_threshold',
  'p.created_at',
  'p.description',
  'p.activation_instructions',
]);

type Row = Awaited<ReturnType<typeof selectProducts.execute>>[number];

function view(row: Row): AdminProduct {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    category_name: row.category_name,
    country: row.country,
    price_minor: row.price_minor,
    old_price_minor: row.old_price_minor,
    nominal_minor: row.nominal_minor,
    nominal_currency: row.nominal_currency,
    cover_path: row.cover_path,
    cover_text: row.cover_text,
    is_active: row.is_active,
    stock: row.stock_count,
    low_stock_threshold: row.low_stock_threshold,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The console's catalogue: products listed and read with their texts in every language, created and
 * changed. Each change writes its audit row in its own transaction. The shop learns of a change from
 * the products table's trigger (the `catalogue_changed` notification its search index listens to).
 */
export function createAdminProducts({ sql }: { sql: SqlClient }) {
  async function detailIn(db: Queryable, id: number, lock = false): Promise<Detail> {
    let statement = selectProducts.where('p.id', '=', id);
    if (lock) statement = statement.forUpdate('p');
    const [row] = await db.query(statement);
    if (!row) throw new NotFoundError('Product');
    const translations = await db.query(
      qb
        .selectFrom('product_translations')
        .select(['locale', 'description', 'activation_instructions'])
        .where('product_id', '=', id),
    );
    const descriptions = Object.fromEntries(LOCALES.map((locale) => [locale, ''])) as Texts;
    const instructions = { ...descriptions };
    descriptions[OWN_LOCALE] = row.description;
    instructions[OWN_LOCALE] = row.activation_instructions;
    for (const translation of translations) {
      const locale = translation.locale as Locale;
      if (!LOCALES.includes(locale) || locale === OWN_LOCALE) continue;
      descriptions[locale] = translation.description;
      instructions[locale] = translation.activation_instructions;
    }
    return { ...view(row), descriptions, activation_instructions: instructions };
  }

  /** The ids of a category, a country and a currency named in a change; an unknown one is a field error. */
  async function references(
    db: Queryable,
    input: { category?: string | undefined; country?: string | undefined; nominal_currency?: string | undefined },
  ) {
    const ids: { category_id?: number; country_id?: number; nominal_currency_id?: number } = {};
    const errors: Record<string, string[]> = {};
    if (input.category !== undefined) {
      const [row] = await db.query(qb.selectFrom('categories').select('id').where('slug', '=', input.category));
      if (row) ids.category_id = row.id;
      else errors.category = [ErrorKeys.unknownOption];
    }
    if (input.country !== undefined) {
      const [row] = await db.query(qb.selectFrom('countries').select('id').where('code', '=', input.country));
      if (row) ids.country_id = row.id;
      else errors.country = [ErrorKeys.unknownOption];
    }
    if (input.nominal_currency !== undefined) {
      const [row] = await db.query(
        qb.selectFrom('currencies').select('id').where('code_name', '=', input.nominal_currency),
      );
      if (row) ids.nominal_currency_id = row.id;
      else errors.nominal_currency = [ErrorKeys.unknownOption];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    return ids;
  }

  /**
   * Writes the texts of the languages given. English is the product's own (and the shop's fallback)
   * and is kept in its row as well; another language left blank in both texts has no row, so the
   * shop shows English there.
   */
  async function writeTexts(db: Queryable, id: number, descriptions: Texts, instructions: Texts, locales: Locale[]) {
    for (const locale of locales) {
      const description = descriptions[locale];
      const activation = instructions[locale];
      if (locale === OWN_LOCALE) {
        await db.execute(
          qb.updateTable('products').set({ description, activation_instructions: activation }).where('id', '=', id),
        );
      }
      if (locale !== OWN_LOCALE && description.trim() === '' && activation.trim() === '') {
        await db.execute(
          qb.deleteFrom('product_translations').where('product_id', '=', id).where('locale', '=', locale),
        );
        continue;
      }
      await db.execute(
        qb
          .insertInto('product_translations')
          .values({ product_id: id, locale, description, activation_instructions: activation })
          .onConflict((oc) =>
            oc.columns(['product_id', 'locale']).doUpdateSet({ description, activation_instructions: activation }),
          ),
      );
    }
  }

  /**
   * A language other than English has both its texts or neither: the shop takes a language's texts
   * together, so one left blank beside the other would show blank rather than in English.
   */
  function requireBothTexts(descriptions: Texts, instructions: Texts) {
    const errors: Record<string, string[]> = {};
    for (const locale of LOCALES) {
      if (locale === OWN_LOCALE) continue;
      const hasDescription = descriptions[locale].trim() !== '';
      const hasInstructions = instructions[locale].trim() !== '';
      if (hasDescription && !hasInstructions) errors[`activation_instructions.${locale}`] = [ErrorKeys.requiredField];
      if (hasInstructions && !hasDescription) errors[`descriptions.${locale}`] = [ErrorKeys.requiredField];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }

  const textsOf = (given: Partial<Texts> | undefined, base: Texts): Texts => ({ ...base, ...given });
  const localesOf = (...given: Array<Partial<Texts> | undefined>): Locale[] =>
    LOCALES.filter((locale) => given.some((texts) => texts?.[locale] !== undefined));

  return {
    /** Products, newest first: by a part of the name or the id, a category, on sale or not. */
    async list(query: AdminProductQuery): Promise<AdminProductPage> {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
      let filtered = selectProducts;
      if (query.q) {
        const q = query.q;
        filtered = filtered.where((eb) =>
          /^\d{1,9}$/.test(q)
            ? eb.or([eb('p.id', '=', Number(q)), eb('p.name', 'ilike', `%${escapeLike(q)}%`)])
            : eb('p.name', 'ilike', `%${escapeLike(q)}%`),
        );
      }
      if (query.category) filtered = filtered.where('c.slug', '=', query.category);
      if (query.active) filtered = filtered.where('p.is_active', '=', query.active === 'true');
      const [rows, [count]] = await Promise.all([
        sql.query(
          filtered
            .orderBy('p.id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        sql.query(filtered.clearSelect().select((eb) => eb.fn.countAll<string>().as('total'))),
      ]);
      return { items: rows.map(view), page, page_size: pageSize, total: int8ToNumber(count?.total ?? 0) };
    },

    async get(id: number): Promise<AdminProductDetail> {
      return { product: await detailIn(sql, id) };
    },

    /** The categories, countries and currencies a product may name. */
    async options(): Promise<AdminProductOptions> {
      const [categories, countries, currencies] = await Promise.all([
        sql.query(qb.selectFrom('categories').select(['slug', 'name']).orderBy('position').orderBy('name')),
        sql.query(qb.selectFrom('countries').select(['code', 'name']).orderBy('code')),
        sql.query(qb.selectFrom('currencies').select(['code_name as code', 'minor_units']).orderBy('code_name')),
      ]);
      return { categories, countries, currencies };
    },

    async create(input: ProductCreateInput, actor: AuditActor): Promise<AdminProductDetail> {
      return sql.transaction(async (tx) => {
        const ids = await references(tx, input);
        const [inserted] = await tx.query(
          qb
            .insertInto('products')
            .values({
              category_id: ids.category_id as number,
              country_id: ids.country_id as number,
              nominal_currency_id: ids.nominal_currency_id as number,
              name: input.name,
              cover_path: input.cover_path,
              cover_text: input.cover_text,
              nominal_minor: input.nominal_minor,
              price_minor: input.price_minor,
              old_price_minor: input.old_price_minor,
              is_active: input.is_active,
              low_stock_threshold: input.low_stock_threshold,
            })
            .returning('id'),
        );
        const id = (inserted as { id: number }).id;
        const empty = Object.fromEntries(LOCALES.map((locale) => [locale, ''])) as Texts;
        const descriptions = textsOf(input.descriptions, empty);
        const instructions = textsOf(input.activation_instructions, empty);
        requireBothTexts(descriptions, instructions);
        await writeTexts(tx, id, descriptions, instructions, [...LOCALES]);
        const product = await detailIn(tx, id);
        await writeAudit(tx, actor, { action: 'product.create', targetType: 'product', targetId: id, after: product });
        return { product };
      });
    },

    /**
     * Changes the fields given. The audit row keeps what each changed field was and became; a change
     * that changes nothing writes none.
     */
    async update(id: number, input: ProductUpdateInput, actor: AuditActor): Promise<AdminProductDetail> {
      return sql.transaction(async (tx) => {
        const before = await detailIn(tx, id, true);
        const price = input.price_minor ?? before.price_minor;
        const oldPrice = input.old_price_minor === undefined ? before.old_price_minor : input.old_price_minor;
        if (!oldPriceAbovePrice(price, oldPrice)) {
          throw ValidationError.field(
            input.old_price_minor === undefined ? 'price_minor' : 'old_price_minor',
            ErrorKeys.tooSmall,
          );
        }
        const ids = await references(tx, input);
        const set = {
          ...ids,
          ...(input.name !== undefined && { name: input.name }),
          ...(input.price_minor !== undefined && { price_minor: input.price_minor }),
          ...(input.old_price_minor !== undefined && { old_price_minor: input.old_price_minor }),
          ...(input.nominal_minor !== undefined && { nominal_minor: input.nominal_minor }),
          ...(input.cover_path !== undefined && { cover_path: input.cover_path }),
          ...(input.cover_text !== undefined && { cover_text: input.cover_text }),
          ...(input.is_active !== undefined && { is_active: input.is_active }),
          ...(input.low_stock_threshold !== undefined && { low_stock_threshold: input.low_stock_threshold }),
        };
        if (Object.keys(set).length > 0) {
          await tx.execute(qb.updateTable('products').set(set).where('id', '=', id));
        }
        const locales = localesOf(input.descriptions, input.activation_instructions);
        if (locales.length > 0) {
          const descriptions = textsOf(input.descriptions, before.descriptions);
          const instructions = textsOf(input.activation_instructions, before.activation_instructions);
          requireBothTexts(descriptions, instructions);
          await writeTexts(tx, id, descriptions, instructions, locales);
        }
        const after = await detailIn(tx, id);
        const changed = CHANGEABLE.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
        if (changed.length > 0) {
          await writeAudit(tx, actor, {
            action: 'product.update',
            targetType: 'product',
            targetId: id,
            before: Object.fromEntries(changed.map((field) => [field, before[field]])),
            after: Object.fromEntries(changed.map((field) => [field, after[field]])),
          });
        }
        return { product: after };
      });
    },
  };
}

export type AdminProducts = ReturnType<typeof createAdminProducts>;
