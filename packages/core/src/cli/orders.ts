import { createCodeCipher, createDatabase } from '@store/db';
import { loadCliEnvOrExit } from '@store/db/cli-env';
import { runOrdersCli } from '../orders/orders-cli.ts';

try {
  process.exitCode = await runOrdersCli(process.argv.slice(2), {
    openDatabase() {
      const env = loadCliEnvOrExit();
      return createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    },
    codeCipher() {
      const env = loadCliEnvOrExit({ needsCodeKey: true });
      if (env.usesDevCodeKey) {
        console.warn('CODE_ENCRYPTION_KEY is not set: codes are encrypted with the development key.');
      }
      return createCodeCipher(env.codeKey);
    },
    publicUrl: () => loadCliEnvOrExit().PUBLIC_URL,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
} catch (error) {
  // An operator needs the reason (a database that is down, a data dir in use), not a stack trace.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
