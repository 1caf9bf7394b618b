import { runPromoCli } from '../promo/promo-cli.ts';
import { runCommandLine } from './command-line.ts';

await runCommandLine(runPromoCli, {});
