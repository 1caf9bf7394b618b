import { userInfo } from 'node:os';
import { runRatesCli } from '../display/rates-cli.ts';
import { runCommandLine } from './command-line.ts';

await runCommandLine(runRatesCli, { operator: process.env.USER || userInfo().username || 'operator' });
