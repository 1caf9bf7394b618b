export * from './code-cipher.ts';
export * from './database.ts';
export * from './executors.ts';
export * from './generated/client.ts';
export * from './kysely.ts';
export * from './local-secrets.ts';
export * from './migrator.ts';
export { assetsDir, defaultDataDir, migrationsDir, repoRoot } from './paths.ts';
export * from './sql-client.ts';
