import { createDatabase } from '@store/db';
import { loadCliEnvOrExit } from '@store/db/cli-env';
import type { CliIo } from '../shared/cli.ts';

/**
 * Runs an operator command from this process's command line: the database from the environment,
 * lines to stdout and stderr, and what else the command asks for in `extra`. Sets the exit code.
 */
export async function runCommandLine<Io extends CliIo>(
  run: (argv: string[], io: Io) => Promise<number>,
  extra: Omit<Io, keyof CliIo>,
): Promise<void> {
  const io = {
    openDatabase() {
      const env = loadCliEnvOrExit();
      return createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    },
    publicUrl: () => loadCliEnvOrExit().PUBLIC_URL,
    out: (line: string) => console.log(line),
    err: (line: string) => console.error(line),
    ...extra,
  } as Io;
  try {
    process.exitCode = await run(process.argv.slice(2), io);
  } catch (error) {
    // An operator needs the reason (a database that is down, a data dir in use), not a stack trace.
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
