import { runPaymentsCli } from '../payments/payments-cli.ts';
import { runCommandLine } from './command-line.ts';

await runCommandLine(runPaymentsCli, {});
