import { migratePostgres, openPglite } from '../database.ts';
import { pgliteExecutor } from '../executors.ts';
import { migrate } from '../migrator.ts';
import { loadCliEnvOrExit } from './env.ts';

const env = loadCliEnvOrExit();
const result = env.DATABASE_URL ? await migratePostgres(env.DATABASE_URL) : await migrateEmbedded(env.DATA_DIR);
for (const name of result.applied) console.log(`applied ${name}`);
console.log(`${result.applied.length} applied, ${result.skipped.length} already up to date`);

async function migrateEmbedded(dataDir: string | undefined) {
  const pglite = await openPglite(dataDir);
  try {
    return await migrate(pgliteExecutor(pglite));
  } finally {
    await pglite.close();
  }
}
