import { fileURLToPath } from 'node:url';

/** Folders resolved from this file, so nothing depends on the process's working directory. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const migrationsDir = fileURLToPath(new URL('../../../prisma/migrations/', import.meta.url));
/** Cover art, category icons and country marks, served by the API under /static/. */
export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url));
export const defaultDataDir = fileURLToPath(new URL('../../../.data/pglite', import.meta.url));
