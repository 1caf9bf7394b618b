import type { PrismaClient } from '@store/db';

/**
 * Every row of every table of the store, as text: what someone who reads the database (a dump, a
 * backup, a leak) gets to see. Tests search it for secrets that must not be stored.
 */
export async function databaseText(db: PrismaClient): Promise<string> {
  const tables = await db.$queryRaw<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  const parts: string[] = [];
  for (const { name } of tables) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const [dump] = await db.$queryRawUnsafe<{ rows: string | null }[]>(
      `SELECT json_agg(t)::text AS rows FROM ${quoted} t`,
    );
    parts.push(`${name}: ${dump?.rows ?? '[]'}`);
  }
  return parts.join('\n');
}
