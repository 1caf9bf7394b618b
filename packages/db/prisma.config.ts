import { defineConfig } from 'prisma/config';

/**
 * For Prisma's own CLI where its engines can be downloaded (`prisma migrate deploy`, `prisma studio`).
 * Here the project's migrator applies the same migrations; see src/migrator.ts.
 */
export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/store' },
});
