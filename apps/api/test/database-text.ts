import { qb, type SqlClient } from '@store/db';

/** What is read of the catalogue of tables, beside the store's own. */
type InformationSchema = {
  'information_schema.tables': { table_schema: string; table_name: string; table_type: string };
};

/**
 * Every row of every table of the store, as text: what someone who reads the database (a dump, a
 * backup, a leak) gets to see. Tests search it for secrets that must not be stored.
 */
export async function databaseText(sql: SqlClient): Promise<string> {
  const tables = await sql.query(
    qb
      .withTables<InformationSchema>()
      .selectFrom('information_schema.tables')
      .select('table_name as name')
      .where((eb) => eb('table_schema', '=', eb.fn<string>('current_schema')))
      .where('table_type', '=', 'BASE TABLE'),
  );
  // Every table the schema holds, those the store's types know nothing of included: the table is
  // named by the catalogue (quoted as an identifier), its rows read whole.
  const anyTable = qb.withTables<Record<string, Record<string, unknown>>>();
  const parts: string[] = [];
  for (const { name } of tables) {
    const [dump] = await sql.query(
      anyTable
        .selectFrom(anyTable.dynamic.table(name).as('t'))
        .select((eb) => eb.cast<string | null>(eb.fn.jsonAgg('t'), 'text').as('rows')),
    );
    parts.push(`${name}: ${dump?.rows ?? '[]'}`);
  }
  return parts.join('\n');
}
