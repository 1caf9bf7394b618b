import { userInfo } from 'node:os';
import { loadCliEnvOrExit } from '@store/db/cli-env';
import { runStaffCli } from '../admin/staff-cli.ts';
import { runCommandLine } from './command-line.ts';

await runCommandLine(runStaffCli, {
  codeKey() {
    const env = loadCliEnvOrExit({ needsCodeKey: true });
    if (env.usesDevCodeKey) {
      console.warn('CODE_ENCRYPTION_KEY is not set: the TOTP secret is encrypted with the development key.');
    }
    return env.codeKey;
  },
  operator: process.env.USER || userInfo().username || 'operator',
});
