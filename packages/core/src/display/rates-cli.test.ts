import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { entryPointEnv, runCliOver, spawnCli } from '../cli/testing.ts';
import { parseRatesCommand, runRatesCli, unitsPerBrl } from './rates-cli.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
let database: TestDatabase;
let now = NOW;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});
beforeEach(async () => {
  now = NOW;
  await database.prisma.displayRate.deleteMany();
});

const run = (argv: string[]) => runCliOver(runRatesCli, database, argv, { clock: () => now, operator: 'maria' });

function errorsOf(argv: string[]): string[] {
  const parsed = parseRatesCommand(argv);
  if (parsed.ok) throw new Error(`expected ${argv.join(' ')} to be refused`);
  return parsed.errors;
}

describe('parseRatesCommand', () => {
  it('reads set, list and remove', () => {
    expect(parseRatesCommand(['set', 'rub', '0.057'])).toEqual({
      ok: true,
      command: { kind: 'set', currency: 'RUB', rate: '0.057', setBy: undefined },
    });
    expect(parseRatesCommand(['set', 'INR', '0.064', '--by', 'ana'])).toMatchObject({
      command: { currency: 'INR', setBy: 'ana' },
    });
    expect(parseRatesCommand(['list'])).toEqual({ ok: true, command: { kind: 'list' } });
    expect(parseRatesCommand(['remove', 'inr'])).toEqual({ ok: true, command: { kind: 'remove', currency: 'INR' } });
    expect(parseRatesCommand([])).toEqual({ ok: true, command: { kind: 'help' } });
  });

  it('names every bad argument', () => {
    expect(errorsOf(['set', 'BRL', '1'])).toEqual([
      "BRL is the store's own currency: its prices are shown as they are",
    ]);
    expect(errorsOf(['set', 'RUBL', '0'])).toEqual([
      "'RUBL' is not a currency code (three letters, ISO 4217: RUB, INR)",
      "'0' is not a rate: BRL per unit above zero, digits with a point and at most 6 after it (0.057)",
    ]);
    expect(errorsOf(['set', 'RUB', '0,057'])[0]).toMatch(/^'0,057' is not a rate/);
    expect(errorsOf(['set', 'RUB', '0.0000001'])[0]).toMatch(/is not a rate/);
    expect(errorsOf(['set', 'RUB'])).toEqual(['set: give a currency and a rate: set RUB 0.057']);
    expect(errorsOf(['set', 'RUB', '0.05', '--by', ' '])).toEqual(['--by: 1 to 64 characters']);
    expect(errorsOf(['set', 'RUB', '0.05', '--at', 'x'])[0]).toMatch(/^set: Unknown option '--at'/);
    expect(errorsOf(['remove'])).toEqual(['remove: give exactly one currency']);
    expect(errorsOf(['convert'])).toEqual(["'convert' is not a command: use set, list or remove"]);
  });
});

describe('unitsPerBrl', () => {
  it('says how much of the currency one BRL buys', () => {
    expect(unitsPerBrl('0.057')).toBe('17.54');
    expect(unitsPerBrl('0.064')).toBe('15.63');
    expect(unitsPerBrl('5.25')).toBe('0.19');
  });
});

describe('rates', () => {
  it('sets a rate, records who set it and when, and says what it replaced', async () => {
    const first = await run(['set', 'RUB', '0.057']);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toBe('set RUB 0.057 BRL per unit (1 BRL = 17.54 RUB), set 2026-11-24T12:00:00.000Z by maria');
    now = new Date('2026-11-25T09:30:00Z');
    const second = await run(['set', 'rub', '0.0585', '--by', 'ana']);
    expect(second.out.split('\n')).toEqual([
      'set RUB 0.0585 BRL per unit (1 BRL = 17.09 RUB), set 2026-11-25T09:30:00.000Z by ana',
      'was RUB 0.057 BRL per unit (1 BRL = 17.54 RUB), set 2026-11-24T12:00:00.000Z by maria',
    ]);
    const stored = await database.prisma.displayRate.findUniqueOrThrow({ where: { currency: 'RUB' } });
    expect(stored.brlPerUnit.toString()).toBe('0.0585');
    expect(stored).toMatchObject({ setAt: now, setBy: 'ana' });
  });

  it('lists the rates and which of them shoppers see', async () => {
    expect((await run(['list'])).out).toBe('no display rates: every language shows BRL prices');
    await run(['set', 'INR', '0.064']);
    now = new Date(NOW.getTime() + 5 * 24 * 3_600_000);
    await run(['set', 'RUB', '0.057']);
    now = new Date(NOW.getTime() + 8 * 24 * 3_600_000);
    const listed = await run(['list']);
    expect(listed.code).toBe(0);
    expect(listed.out.split('\n')).toEqual([
      'CURRENCY  BRL PER UNIT  PER BRL  SET AT                    SET BY  SHOWN',
      'INR       0.064         15.63    2026-11-24T12:00:00.000Z  maria   no: older than 7 days, BRL shown',
      'RUB       0.057         17.54    2026-11-29T12:00:00.000Z  maria   yes',
    ]);
  });

  it('removes a rate, and says so when there is none', async () => {
    await run(['set', 'RUB', '0.057']);
    expect(await run(['remove', 'RUB'])).toMatchObject({
      code: 0,
      out: 'removed the RUB rate: its shoppers see BRL prices',
    });
    expect(await run(['remove', 'RUB'])).toMatchObject({ code: 1, err: 'error: there is no RUB rate' });
  });

  it('answers bad arguments with exit code 2 before opening the database', async () => {
    const result = await run(['set', 'XX', '1']);
    expect(result).toMatchObject({ code: 2, opened: false });
    expect(result.err).toContain("Run 'pnpm --filter @store/core rates help'");
  });

  it('runs from its entry point with the database from the environment', async () => {
    const { env, cleanup } = entryPointEnv(database.url, 'rates-cli-');
    try {
      const set = await spawnCli('rates', ['set', 'INR', '0.064', '--by', 'ops'], env);
      expect(set).toMatchObject({ code: 0, stderr: '' });
      expect(set.stdout).toMatch(/^set INR 0\.064 BRL per unit \(1 BRL = 15\.63 INR\), set \S+ by ops\n$/);
      const listed = await spawnCli('rates', ['list'], env);
      expect(listed.stdout).toMatch(/^INR +0\.064 +15\.63 .* ops +yes$/m);
    } finally {
      cleanup();
    }
  }, 120_000);
});
