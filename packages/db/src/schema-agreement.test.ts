import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.ts';
import { $Enums, Prisma } from './generated/client.ts';
import { repoRoot } from './paths.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

/**
 * Proves prisma/migrations and prisma/schema.prisma describe the same database: every model has its
 * table, every scalar field its column with the same type, length, nullability and default, every
 * enum its values, every id, index and unique its index over the same columns, every relation its
 * foreign key with Prisma's referential actions. Prisma's own drift check needs the schema engine,
 * which cannot run here, so this is ours. The schema is read from its text for what the generated
 * client does not expose (native types, indexes), and that reading is checked against the client.
 */

interface FieldSpec {
  name: string;
  column: string;
  type: string;
  length: number | null;
  precision: number | null;
  optional: boolean;
  hasDefault: boolean;
}
interface IndexSpec {
  name: string;
  unique: boolean;
  method: string;
  /** As pg_get_indexdef prints them: `column`, `column DESC`, `column opclass`. */
  columns: string[];
}
interface ForeignKeySpec {
  name: string;
  /** pg_constraint.confdeltype: c cascade, r restrict, n set null. */
  onDelete: string;
}
interface ModelSpec {
  name: string;
  table: string;
  fields: FieldSpec[];
  indexes: IndexSpec[];
  foreignKeys: ForeignKeySpec[];
}

const schema = readFileSync(`${repoRoot}prisma/schema.prisma`, 'utf8');

function blocks(kind: 'model' | 'enum') {
  return [...schema.matchAll(new RegExp(`^${kind} (\\w+) \\{\\n([\\s\\S]*?)^\\}`, 'gm'))].map((m) => ({
    name: m[1] as string,
    body: (m[2] as string)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('//')),
  }));
}

const mapped = (text: string) => /@map\("(\w+)"\)/.exec(text)?.[1];

const enums = new Map(
  blocks('enum').map(({ name, body }) => [
    name,
    {
      dbName: mapped(body.find((line) => line.startsWith('@@map')) ?? '') ?? name,
      values: body.filter((line) => !line.startsWith('@@')),
    },
  ]),
);

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};
const NATIVE_TYPES: Record<string, string> = {
  Uuid: 'uuid',
  VarChar: 'character varying',
  Char: 'character',
  Timestamptz: 'timestamp with time zone',
  Decimal: 'numeric',
};
const ON_DELETE: Record<string, string> = { Cascade: 'c', Restrict: 'r', SetNull: 'n', NoAction: 'a' };

function fieldSpec(name: string, type: string, attributes: string, column: string): FieldSpec {
  const base = type.replace(/[?[\]]/g, '');
  const enumType = enums.get(base);
  const native = /@db\.(\w+)(?:\((\d+)\))?/.exec(attributes);
  const sqlType = enumType
    ? `USER-DEFINED:${enumType.dbName}`
    : native
      ? (NATIVE_TYPES[native[1] as string] ?? (native[1] as string))
      : (SCALAR_TYPES[base] ?? base);
  const size = native?.[2] === undefined ? null : Number(native[2]);
  const isTime = sqlType.startsWith('timestamp');
  return {
    name,
    column,
    type: sqlType,
    length: isTime ? null : size,
    // Prisma's DateTime is timestamp(3) unless a native type says otherwise.
    precision: isTime ? (size ?? 3) : null,
    optional: type.endsWith('?'),
    // uuid() and @updatedAt are filled in by the client, so Prisma gives those columns no default.
    hasDefault: /@default\((?!uuid\(\))/.test(attributes),
  };
}

/** `[a, b(sort: Desc), c(ops: raw("x"))]` as pg_get_indexdef prints the columns. */
function indexColumns(list: string, columns: Map<string, string>): string[] {
  return list
    .split(/,(?![^(]*\))/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const field = part.replace(/\(.*$/, '');
      const column = columns.get(field) ?? field;
      if (/sort:\s*Desc/.test(part)) return `${column} DESC`;
      const ops = /raw\("(\w+)"\)/.exec(part)?.[1];
      return ops ? `${column} ${ops}` : column;
    });
}

const modelBlocks = blocks('model');
const modelNames = new Set(modelBlocks.map((block) => block.name));

const models: ModelSpec[] = modelBlocks.map(({ name, body }) => {
  const table = mapped(body.find((line) => line.startsWith('@@map')) ?? '');
  if (!table) throw new Error(`model ${name} must map to a snake_case table`);
  const columns = new Map<string, string>();
  const fields: FieldSpec[] = [];
  const relations: Array<{ field: string; optional: boolean; onDelete?: string }> = [];
  const indexes: IndexSpec[] = [];
  for (const line of body.filter((l) => !l.startsWith('@@') && !l.startsWith('///'))) {
    const [fieldName = '', type = '', ...rest] = line.split(/\s+/);
    const attributes = rest.join(' ');
    if (modelNames.has(type.replace(/[?[\]]/g, ''))) {
      const local = /fields: \[(\w+)\]/.exec(attributes)?.[1];
      if (local) {
        relations.push({
          field: local,
          optional: type.endsWith('?'),
          onDelete: /onDelete: (\w+)/.exec(attributes)?.[1],
        });
      }
      continue;
    }
    const column = mapped(attributes) ?? fieldName;
    columns.set(fieldName, column);
    fields.push(fieldSpec(fieldName, type, attributes, column));
    if (/@id\b/.test(attributes))
      indexes.push({ name: `${table}_pkey`, unique: true, method: 'btree', columns: [column] });
    if (/@unique\b/.test(attributes)) {
      indexes.push({ name: `${table}_${column}_key`, unique: true, method: 'btree', columns: [column] });
    }
  }
  for (const line of body.filter((l) => /^@@(id|index|unique)\(/.test(l))) {
    const kind = /^@@(\w+)/.exec(line)?.[1];
    const list = indexColumns(/\[(.*?)\](?=\s*[,)])/.exec(line)?.[1] ?? '', columns);
    const plain = list.map((spec) => spec.split(' ')[0]);
    const suffix = kind === 'id' ? 'pkey' : kind === 'unique' ? 'key' : 'idx';
    indexes.push({
      name:
        /map: "(\w+)"/.exec(line)?.[1] ?? (kind === 'id' ? `${table}_pkey` : `${table}_${plain.join('_')}_${suffix}`),
      unique: kind !== 'index',
      method: (/type: (\w+)/.exec(line)?.[1] ?? 'btree').toLowerCase(),
      columns: list,
    });
  }
  return {
    name,
    table,
    fields,
    indexes,
    foreignKeys: relations.map((relation) => ({
      name: `${table}_${columns.get(relation.field) ?? relation.field}_fkey`,
      // Prisma's defaults: a required relation restricts deletes, an optional one sets null.
      onDelete: ON_DELETE[relation.onDelete ?? (relation.optional ? 'SetNull' : 'Restrict')] ?? '?',
    })),
  };
});

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
  character_maximum_length: number | null;
  datetime_precision: number | null;
  has_default: boolean;
}

async function checkAgreement(db: Database): Promise<string[]> {
  const problems: string[] = [];
  const columns = await db.prisma.$queryRaw<ColumnRow[]>`
    SELECT table_name::text, column_name::text, data_type::text, udt_name::text, is_nullable::text,
           character_maximum_length::int, datetime_precision::int, column_default IS NOT NULL AS has_default
    FROM information_schema.columns WHERE table_schema = 'public'`;
  const actual = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c]));
  for (const model of models) {
    const tableColumns = columns.filter((c) => c.table_name === model.table).map((c) => c.column_name);
    if (tableColumns.length === 0) problems.push(`table ${model.table} is missing`);
    for (const field of model.fields) {
      const where = `${model.table}.${field.column}`;
      const column = actual.get(where);
      if (!column) {
        problems.push(`column ${where} is missing`);
        continue;
      }
      const type = column.data_type === 'USER-DEFINED' ? `USER-DEFINED:${column.udt_name}` : column.data_type;
      if (type !== field.type) problems.push(`${where} is ${type}, schema says ${field.type}`);
      if (field.length !== null && column.character_maximum_length !== field.length) {
        problems.push(`${where} holds ${column.character_maximum_length} characters, schema says ${field.length}`);
      }
      if (field.precision !== null && column.datetime_precision !== field.precision) {
        problems.push(`${where} has precision ${column.datetime_precision}, schema says ${field.precision}`);
      }
      if ((column.is_nullable === 'YES') !== field.optional) problems.push(`${where} nullability differs`);
      if (column.has_default !== field.hasDefault) {
        problems.push(`${where} ${column.has_default ? 'has a default the schema lacks' : 'lacks its default'}`);
      }
    }
    const extra = tableColumns.filter((name) => !model.fields.some((field) => field.column === name));
    if (extra.length) problems.push(`${model.table} has columns the schema lacks: ${extra.join(', ')}`);
  }

  const indexRows = await db.prisma.$queryRaw<Array<{ name: string; unique: boolean; method: string; def: string }>>`
    SELECT c.relname::text AS name, i.indisunique AS unique, am.amname::text AS method,
           pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public'`;
  const actualIndexes = new Map(indexRows.map((row) => [row.name, row]));
  for (const expected of models.flatMap((model) => model.indexes)) {
    const index = actualIndexes.get(expected.name);
    if (!index) {
      problems.push(`index ${expected.name} is missing`);
      continue;
    }
    const columnList = /USING \w+ \((.*)\)$/.exec(index.def)?.[1] ?? '';
    const indexed = columnList.split(', ').map((part) => part.replaceAll('"', ''));
    const shape = (spec: { unique: boolean; method: string }, cols: string[]) =>
      `${spec.unique ? 'unique ' : ''}${spec.method} (${cols.join(', ')})`;
    if (shape(index, indexed) !== shape(expected, expected.columns)) {
      problems.push(
        `index ${expected.name} is ${shape(index, indexed)}, schema says ${shape(expected, expected.columns)}`,
      );
    }
  }

  const foreignKeys = await db.prisma.$queryRaw<Array<{ name: string; on_delete: string; on_update: string }>>`
    SELECT conname::text AS name, confdeltype::text AS on_delete, confupdtype::text AS on_update
    FROM pg_constraint WHERE contype = 'f'`;
  const actualForeignKeys = new Map(foreignKeys.map((row) => [row.name, row]));
  for (const expected of models.flatMap((model) => model.foreignKeys)) {
    const foreignKey = actualForeignKeys.get(expected.name);
    if (!foreignKey) problems.push(`foreign key ${expected.name} is missing`);
    else if (foreignKey.on_delete !== expected.onDelete || foreignKey.on_update !== 'c') {
      problems.push(`foreign key ${expected.name} has other referential actions than Prisma's`);
    }
  }

  const enumRows = await db.prisma.$queryRaw<Array<{ typname: string; labels: string[] }>>`
    SELECT t.typname::text, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`;
  const actualEnums = new Map(enumRows.map((row) => [row.typname, row.labels]));
  for (const [name, spec] of enums) {
    const labels = actualEnums.get(spec.dbName);
    if (JSON.stringify(labels) !== JSON.stringify(spec.values)) {
      problems.push(`enum ${name} (${spec.dbName}) is ${JSON.stringify(labels)}, schema says ${spec.values}`);
    }
  }
  return problems;
}

describe('the reading of schema.prisma', () => {
  it('covers every model and scalar field of the generated client', () => {
    const namespace = Prisma as unknown as Record<string, Record<string, string> | undefined>;
    expect(models.map((model) => model.name).sort()).toEqual(Object.values(Prisma.ModelName).sort());
    for (const model of models) {
      const scalars = Object.values(namespace[`${model.name}ScalarFieldEnum`] ?? {});
      expect(model.fields.map((field) => field.name).sort(), model.name).toEqual(scalars.sort());
    }
  });

  it('covers every enum of the generated client', () => {
    const generated = $Enums as unknown as Record<string, Record<string, string>>;
    expect([...enums.keys()].sort()).toEqual(Object.keys(generated).sort());
    for (const [name, spec] of enums) expect(spec.values, name).toEqual(Object.values(generated[name] ?? {}));
  });

  it('understands ids, compound uniques, sort orders and operator classes', () => {
    const indexes = (table: string) => models.find((model) => model.table === table)?.indexes ?? [];
    expect(indexes('products')).toContainEqual({
      name: 'products_name_trgm_idx',
      unique: false,
      method: 'gin',
      columns: ['name gin_trgm_ops'],
    });
    expect(indexes('products')).toContainEqual({
      name: 'products_category_id_popularity_idx',
      unique: false,
      method: 'btree',
      columns: ['category_id', 'popularity DESC'],
    });
    expect(indexes('reviews')).toContainEqual({
      name: 'reviews_product_id_user_id_key',
      unique: true,
      method: 'btree',
      columns: ['product_id', 'user_id'],
    });
    expect(indexes('basket_lines')).toContainEqual({
      name: 'basket_lines_pkey',
      unique: true,
      method: 'btree',
      columns: ['user_id', 'product_id'],
    });
    const sessions = models.find((model) => model.table === 'sessions');
    expect(sessions?.foreignKeys).toEqual([{ name: 'sessions_user_id_fkey', onDelete: 'c' }]);
    expect(sessions?.fields.find((field) => field.name === 'id')).toMatchObject({ type: 'uuid', hasDefault: false });
  });
});

describe('migrations agree with schema.prisma', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('on the test database', async () => {
    expect(await checkAgreement(db)).toEqual([]);
  });

  it('on embedded PGlite as well', async () => {
    const embedded = await createDatabase({ dataDir: 'memory://' });
    try {
      expect(await checkAgreement(embedded)).toEqual([]);
    } finally {
      await embedded.close();
    }
  });

  it('the check itself notices drift', async () => {
    await db.prisma.$executeRawUnsafe('ALTER TABLE "reviews" DROP COLUMN "text"');
    await db.prisma.$executeRawUnsafe('ALTER TABLE "users" ALTER COLUMN "name" TYPE VARCHAR(20)');
    await db.prisma.$executeRawUnsafe('DROP INDEX "products_category_id_popularity_idx"');
    await db.prisma.$executeRawUnsafe(
      'CREATE INDEX "products_category_id_popularity_idx" ON "products" ("category_id", "popularity")',
    );
    await db.prisma.$executeRawUnsafe('ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_id_fkey"');
    await db.prisma.$executeRawUnsafe(
      'ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id")',
    );
    await db.prisma.$executeRawUnsafe(`ALTER TYPE "ledger_transfer_kind" ADD VALUE 'BONUS'`);
    expect(await checkAgreement(db)).toEqual(
      expect.arrayContaining([
        'column reviews.text is missing',
        'users.name holds 20 characters, schema says 16',
        'index products_category_id_popularity_idx is btree (category_id, popularity), schema says btree (category_id, popularity DESC)',
        "foreign key sessions_user_id_fkey has other referential actions than Prisma's",
        expect.stringContaining('enum LedgerTransferKind (ledger_transfer_kind)'),
      ]),
    );
  });
});
