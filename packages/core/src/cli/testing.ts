import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Database } from '@store/db';
import type { CliIo } from '../shared/cli.ts';

/** Test helpers for the operator commands. */

/**
 * Runs a command over the test's database; answers the exit code, what was printed, and whether the
 * database was opened at all. The test keeps its database open: the command's close must not end it.
 * The store's address is PUBLIC_URL's default unless `extra` gives one.
 */
export async function runCliOver<Io extends CliIo>(
  run: (argv: string[], io: Io) => Promise<number>,
  database: Database,
  argv: string[],
  extra: Omit<Io, keyof CliIo> & Partial<Pick<CliIo, 'publicUrl'>>,
) {
  const out: string[] = [];
  const err: string[] = [];
  let opened = false;
  const io: CliIo = {
    async openDatabase() {
      opened = true;
      return { ...database, close: async () => {} };
    },
    publicUrl: () => 'http://localhost:3000',
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  const code = await run(argv, { ...io, ...extra } as Io);
  return { code, out: out.join('\n'), err: err.join('\n'), opened };
}

const execFileAsync = promisify(execFile);
const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const tsx = path.join(packageDir, 'node_modules/.bin/tsx');

/** Runs a command's real entry point (src/cli/<name>.ts) in its own process, with only `env` and PATH. */
export async function spawnCli(name: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await execFileAsync(tsx, [`src/cli/${name}.ts`, ...args], {
      cwd: packageDir,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout: string; stderr: string };
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The environment an entry point is run with: the test's PostgreSQL database, or without one a
 * throw-away embedded database in a folder of its own (removed by `cleanup`).
 */
export function entryPointEnv(databaseUrl: string | undefined, folderPrefix: string) {
  const dataDir = databaseUrl ? undefined : mkdtempSync(path.join(tmpdir(), folderPrefix));
  const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir as string };
  return {
    env,
    cleanup() {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
