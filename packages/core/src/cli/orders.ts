import { userInfo } from 'node:os';
import { createCodeCipher } from '@store/db';
import { loadCliEnvOrExit } from '@store/db/cli-env';
import { runOrdersCli } from '../orders/orders-cli.ts';
import { runCommandLine } from './command-line.ts';

await runCommandLine(runOrdersCli, {
  codeCipher() {
    const env = loadCliEnvOrExit({ needsCodeKey: true });
    if (env.usesDevCodeKey) {
      console.warn('CODE_ENCRYPTION_KEY is not set: codes are encrypted with the development key.');
    }
    return createCodeCipher(env.codeKey);
  },
  operator: process.env.USER || userInfo().username || 'operator',
});
