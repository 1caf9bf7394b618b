import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database } from './database.ts';

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

let warned = false;

/**
 * A fresh database for one test file. Test files run in parallel processes, so each gets its own:
 * with DATABASE_URL (CI points it at a real PostgreSQL) a uniquely named database beside it, dropped
 * afterwards; else, when Docker is reachable, a throw-away PostgreSQL container; else an in-memory
 * PGlite, and the run says so on stderr.
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
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const dropDatabase = () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
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
