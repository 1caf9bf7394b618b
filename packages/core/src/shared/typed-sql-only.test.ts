import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const coreSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every TypeScript file of core's sources, tests included (they query as the code does). */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

// Spelled in pieces, so this file does not find itself.
const UNTYPED = ['$query' + 'Raw', '$execute' + 'Raw', 'Prisma' + '.sql', 'sql' + '.raw('];

describe("core's data access", () => {
  it('is typed: no raw Prisma statement, Prisma.sql or raw SQL string in packages/core', () => {
    const found = sourceFiles(coreSource)
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            UNTYPED.some((word) => line.includes(word))
              ? [`${path.relative(coreSource, file)}:${index + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(found).toEqual([]);
  });
});
