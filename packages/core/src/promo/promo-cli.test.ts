import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPointEnv, runCliOver, spawnCli } from '../cli/testing.ts';
import { parsePromoCommand, runPromoCli } from './promo-cli.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
});
afterAll(async () => {
  await database?.cleanup();
});

function errorsOf(argv: string[]): string[] {
  const parsed = parsePromoCommand(argv, NOW);
  if (parsed.ok) throw new Error(`expected ${argv.join(' ')} to be refused`);
  return parsed.errors;
}

/** Runs a command over the test database; answers the exit code and what was printed. */
const run = (argv: string[]) => runCliOver(runPromoCli, database, argv, { clock: () => NOW });

describe('parsePromoCommand', () => {
  it('reads a full create command', () => {
    expect(
      parsePromoCommand(
        [
          'create',
          '--code',
          ' summer-26 ',
          '--percent',
          '15',
          '--from',
          '2026-12-01',
          '--until=2027-01-31T23:59:59-03:00',
          '--max-uses',
          '500',
          '--categories',
          'steam, xbox',
          '--products',
          '1,22',
        ],
        NOW,
      ),
    ).toEqual({
      ok: true,
      command: {
        kind: 'create',
        input: {
          code: 'SUMMER-26',
          percent: 15,
          validFrom: new Date('2026-12-01T00:00:00Z'),
          validUntil: new Date('2027-02-01T02:59:59Z'),
          maxUses: 500,
          categories: ['steam', 'xbox'],
          productIds: [1, 22],
        },
      },
    });
    expect(parsePromoCommand(['create', '--code', 'ABC', '--percent', '100'], NOW)).toMatchObject({
      ok: true,
      command: { input: { code: 'ABC', percent: 100, maxUses: undefined, categories: undefined } },
    });
  });

  it('names every bad argument of create, each with its own message', () => {
    expect(errorsOf(['create'])).toEqual(['--code: required', '--percent: required']);
    expect(
      errorsOf([
        'create',
        '--code=no spaces',
        '--percent=101',
        '--from=2026-02-30',
        '--until=tomorrow',
        '--max-uses=0',
        '--categories=Steam,,xbox',
        '--products=1,x,0',
      ]),
    ).toEqual([
      "--code: 'no spaces' is not 3 to 32 letters, digits, _ or -",
      "--percent: '101' is not a whole number from 1 to 100",
      "--from: '2026-02-30' is not an ISO 8601 date (2026-12-31) or date and time with its offset (2026-12-31T23:59:59Z)",
      "--until: 'tomorrow' is not an ISO 8601 date (2026-12-31) or date and time with its offset (2026-12-31T23:59:59Z)",
      "--max-uses: '0' is not a whole number from 1 to 2147483647",
      "--categories: 'Steam', '' are not a category slug",
      "--products: 'x', '0' are not a product id",
    ]);
    expect(errorsOf(['create', '--code=AB', '--percent=1.5'])).toEqual([
      "--code: 'AB' is not 3 to 32 letters, digits, _ or -",
      "--percent: '1.5' is not a whole number from 1 to 100",
    ]);
  });

  it('refuses windows that end before they start or have ended already', () => {
    expect(errorsOf(['create', '--code=ABC', '--percent=5', '--from=2027-01-02', '--until=2027-01-01'])).toEqual([
      '--until: must be later than --from',
    ]);
    expect(errorsOf(['create', '--code=ABC', '--percent=5', '--until=2026-11-24T11:00:00Z'])).toEqual([
      '--until: is in the past, so the code could never be used',
    ]);
    expect(errorsOf(['create', '--code=ABC', '--percent=5', '--until=2026-12-01T10:00'])).toHaveLength(1);
  });

  it('refuses unknown commands, unknown options and stray arguments', () => {
    expect(errorsOf(['remove', 'X'])).toEqual(["'remove' is not a command: use create, list or deactivate"]);
    expect(errorsOf(['create', '--code=ABC', '--percent=5', '--discount=5'])[0]).toMatch(/^create: .*'--discount'/);
    expect(errorsOf(['create', '--code'])[0]).toMatch(/^create: .*--code/);
    expect(errorsOf(['list', 'extra'])[0]).toMatch(/^list: /);
    expect(errorsOf(['deactivate'])).toEqual(['deactivate: give exactly one code']);
    expect(errorsOf(['deactivate', 'A', 'B'])).toEqual(['deactivate: give exactly one code']);
    expect(parsePromoCommand(['help'])).toEqual({ ok: true, command: { kind: 'help' } });
    expect(parsePromoCommand([])).toEqual({ ok: true, command: { kind: 'help' } });
  });
});

describe('runPromoCli', () => {
  it('creates, lists and deactivates codes', async () => {
    const created = await run([
      'create',
      '--code=cli15',
      '--percent=15',
      '--until=2027-01-01',
      '--max-uses=3',
      '--categories=steam',
    ]);
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toBe(
      'created CLI15: 15% off categories steam, from - until 2027-01-01T00:00:00.000Z, 0 of 3 used, usable',
    );

    const listed = await run(['list']);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^CODE\s+OFF\s+STATUS\s+USES\s+FROM\s+UNTIL\s+SCOPE$/);
    expect(lines.find((line) => line.startsWith('CLI15 '))).toMatch(
      /^CLI15\s+15%\s+usable\s+0\/3\s+-\s+2027-01-01T00:00:00.000Z\s+categories steam$/,
    );
    expect(lines.find((line) => line.startsWith('WELCOME10 '))).toMatch(
      /^WELCOME10\s+10%\s+usable\s+0\/∞\s+-\s+-\s+whole basket$/,
    );
    expect(lines.find((line) => line.startsWith('SUMMER20 '))).toMatch(/\sexpired\s/);

    const deactivated = await run(['deactivate', 'cli15']);
    expect(deactivated).toMatchObject({ code: 0, err: '' });
    expect(deactivated.out).toMatch(/^deactivated CLI15: .* inactive$/);
    expect((await database.prisma.promoCode.findUniqueOrThrow({ where: { code: 'CLI15' } })).isActive).toBe(false);
  });

  it('exits 1 with the reason when the data refuses, and changes nothing', async () => {
    const taken = await run([
      'create',
      '--code=WELCOME10',
      '--percent=50',
      '--categories=steam,nosuch',
      '--products=999999',
    ]);
    expect(taken.code).toBe(1);
    expect(taken.err).toBe('error: no category nosuch; no product 999999; the code WELCOME10 exists already.');
    expect((await database.prisma.promoCode.findUniqueOrThrow({ where: { code: 'WELCOME10' } })).discountPercent).toBe(
      10,
    );
    const missing = await run(['deactivate', 'nosuchcode']);
    expect(missing).toMatchObject({ code: 1, err: 'error: there is no promo code NOSUCHCODE' });
  });

  it('exits 2 on bad arguments without opening the database', async () => {
    const bad = await run(['create', '--code=ABC']);
    expect(bad).toMatchObject({ code: 2, opened: false });
    expect(bad.err.split('\n')).toEqual([
      'error: --percent: required',
      "Run 'pnpm --filter @store/core promo help' for the commands and their arguments.",
    ]);
    const help = await run(['help']);
    expect(help).toMatchObject({ code: 0, opened: false });
    expect(help.out).toMatch(/^Usage: pnpm --filter @store\/core promo <command>/);
  });
});

describe('the promo command', () => {
  it('creates a code in the database the environment names, and exits non-zero when refused', async () => {
    const { env, cleanup } = entryPointEnv(database.url, 'promo-cli-');
    const spawnPromo = (args: string[]) => spawnCli('promo', args, env);
    try {
      const created = await spawnPromo(['create', '--code', 'spawned5', '--percent', '5']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(/^created SPAWNED5: 5% off whole basket/);
      // The second run finds what the first stored.
      const again = await spawnPromo(['create', '--code', 'SPAWNED5', '--percent', '5']);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe('error: the code SPAWNED5 exists already.\n');
    } finally {
      cleanup();
    }
  }, 120_000);
});
