import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createDatabase, type Database } from './database.ts';
import { pgExecutor } from './executors.ts';
import { type Migration, migrate, readMigrations } from './migrator.ts';

export interface TestDatabase extends Database {
  /** The PostgreSQL URL of this test's own database; undefined on embedded PGlite. */
  url: string | undefined;
  /** Closes the connections and drops what was made for the test. */
  cleanup(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Apply the migrations (the default); false leaves an empty database for migrator tests. */
  migrate?: boolean;
}

const POSTGRES_IMAGE = 'postgres:17-alpine';

/**
 * The key, in the database DATABASE_URL names, that test processes of every package take turns on
 * for the templates: shared to clone one, exclusive to build one or drop the stale ones.
 */
const TEMPLATE_LOCK_KEY = 72_707_371;
/** PostgreSQL's object_in_use: the template still has a connection, perhaps one just closing. */
const OBJECT_IN_USE = '55006';
const CLONE_ATTEMPTS = 5;
const CLONE_RETRY_MS = 200;

let warned = false;

/**
 * A fresh database for one test file. Test files run in parallel processes, so each gets its own:
 * with DATABASE_URL (CI points it at a real PostgreSQL) a uniquely named database beside it, cloned
 * from a template migrated once for this set of migrations, dropped afterwards; else, when Docker is
 * reachable, a throw-away PostgreSQL container; else an in-memory PGlite, and the run says so on
 * stderr.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) return createDatabaseOnServer(serverUrl, options);

  const container = await startPostgresContainer();
  if (container) {
    try {
      const url = container.getConnectionUri();
      const database = await createDatabase({ databaseUrl: url, poolSize: 4, migrate: options.migrate });
      return {
        ...database,
        url,
        async cleanup() {
          await database.close();
          await container.stop();
        },
      };
    } catch (error) {
      await container.stop();
      throw error;
    }
  }

  if (!warned) {
    warned = true;
    process.stderr.write(
      '\n*** DATABASE_URL is not set and Docker is not reachable: these tests run against embedded PGlite, NOT PostgreSQL. ***\n\n',
    );
  }
  const database = await createDatabase({ dataDir: 'memory://', migrate: options.migrate });
  return { ...database, url: undefined, cleanup: () => database.close() };
}

async function createDatabaseOnServer(serverUrl: string, options: TestDatabaseOptions): Promise<TestDatabase> {
  const name = `store_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (options.migrate === false) await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  else await cloneMigratedTemplate(serverUrl, name);
  const dropDatabase = () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    // On a clone a quick check that finds every migration applied; it also applies one added since.
    const database = await createDatabase({ databaseUrl: url.toString(), poolSize: 4, migrate: options.migrate });
    return {
      ...database,
      url: url.toString(),
      async cleanup() {
        await database.close();
        await dropDatabase();
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `name` as a copy of the template of the current migrations, building that template first
 * if no process has yet. The check and the copy share one hold of the shared lock, so a builder of
 * another set of migrations cannot drop the template in between.
 */
async function cloneMigratedTemplate(serverUrl: string, name: string) {
  const migrations = readMigrations();
  const template = `store_template_${migrationsHash(migrations)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (;;) {
      await client.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK_KEY]);
      try {
        if (await databaseExists(client, template)) {
          await cloneDatabase(client, template, name);
          return;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock_shared($1)', [TEMPLATE_LOCK_KEY]);
      }
      await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
      try {
        // Another process may have built it while this one waited for the lock.
        if (!(await databaseExists(client, template))) await buildTemplate(client, serverUrl, template, migrations);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
      }
    }
  } finally {
    await client.end();
  }
}

/** Names the migrations and their contents, so an added or edited migration gives a new template. */
function migrationsHash(migrations: Migration[]): string {
  const hash = createHash('sha256');
  for (const migration of migrations) hash.update(`${migration.name} ${migration.checksum}\n`);
  return hash.digest('hex').slice(0, 12);
}

async function databaseExists(client: pg.Client, name: string): Promise<boolean> {
  const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return result.rowCount === 1;
}

/**
 * Migrates under a temporary name and renames only once every migration is in, so a template that
 * exists is whole, and one left half-built by a killed process is never cloned. Holds the exclusive
 * lock.
 */
async function buildTemplate(client: pg.Client, serverUrl: string, template: string, migrations: Migration[]) {
  const building = `${template}_building`;
  await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${building}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${building}`;
  const migrator = new pg.Client({ connectionString: url.toString() });
  await migrator.connect();
  try {
    // The very migrations the name was hashed from, even if the folder changes meanwhile.
    await migrate(pgExecutor(migrator), migrations);
  } finally {
    await migrator.end();
  }
  // No one can connect to the template, so no stray session can make a clone fail; the clones
  // themselves allow connections as usual.
  await client.query(`ALTER DATABASE "${building}" WITH ALLOW_CONNECTIONS false`);
  await client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  await dropStaleTemplates(client, template);
}

/**
 * The templates of other sets of migrations, and any left half-built. No clone is running (clones hold
 * the shared lock); a process still on an older set finds its template gone and builds it again. One
 * that cannot be dropped only takes space, so a failure is no reason to fail the test.
 */
async function dropStaleTemplates(client: pg.Client, current: string) {
  const stale = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE starts_with(datname, 'store_template_') AND datname <> $1`,
    [current],
  );
  for (const { datname } of stale.rows) {
    await client.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
  }
}

async function cloneDatabase(client: pg.Client, template: string, name: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt === CLONE_ATTEMPTS) throw error;
      await sleep(CLONE_RETRY_MS * attempt);
    }
  }
}

/** Undefined when no container runtime answers; a runtime that answers but fails to start throws. */
async function startPostgresContainer() {
  // Loaded lazily: testcontainers is a development dependency, and most runs never need it.
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  return new PostgreSqlContainer(POSTGRES_IMAGE).start();
}

/** What a product row refers to: its category, country and nominal currency. */
export interface ProductRefs {
  categoryId: number;
  countryId: number;
  nominalCurrencyId: number;
}

/**
 * In an empty test database, the rows a product needs to refer to (category steam, country US,
 * currency USD); answers their ids, to spread into `product.create`'s data.
 */
export async function createProductRefs(prisma: Database['prisma']): Promise<ProductRefs> {
  const [category, country, currency] = await Promise.all([
    prisma.category.create({ data: { slug: 'steam', name: 'Steam', formattedName: 'Steam' } }),
    prisma.country.create({ data: { code: 'US', name: 'United States' } }),
    prisma.currency.create({ data: { codeName: 'USD' } }),
  ]);
  return { categoryId: category.id, countryId: country.id, nominalCurrencyId: currency.id };
}
