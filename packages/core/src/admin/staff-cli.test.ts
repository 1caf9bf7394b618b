import { devCodeKey, qb } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOver } from '../cli/testing.ts';
import { silentLogger } from '../shared/logger.ts';
import { createStore } from '../store.ts';
import { parseStaffCommand, runStaffCli } from './staff-cli.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});

const run = (argv: string[]) => runCliOver(runStaffCli, database, argv, { codeKey: devCodeKey, operator: 'maria' });

describe('staff add', () => {
  it('refuses bad arguments, each with its own message, before opening the database', async () => {
    const parsed = parseStaffCommand(['add', '--email', 'nope', '--role', 'boss', '--password', 'short']);
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      "--email: 'nope' is not an email address",
      "--role: 'boss' is not one of owner, manager, support",
      '--password: must be 12 to 128 characters',
    ]);
    const result = await run(['add', '--email', 'nope']);
    expect(result).toMatchObject({ code: 2, opened: false });
  });

  it('adds the first owner, prints the otpauth URI and recovery codes once, and the owner can sign in', async () => {
    const result = await run([
      'add',
      '--email',
      'Owner@Example.com',
      '--role',
      'owner',
      '--password',
      'correct horse battery',
    ]);
    expect(result.code).toBe(0);
    const uri = /otpauth:\/\/totp\/\S+/.exec(result.out)?.[0];
    expect(uri).toBeDefined();
    const secret = new URL(uri as string).searchParams.get('secret') as string;
    const codes = result.out.match(/^ {2}[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/gm) ?? [];
    expect(codes).toHaveLength(10);

    // The secret is stored encrypted, never as the base32 text the URI carries.
    const [row] = await database.sql.query(qb.selectFrom('staff').selectAll().where('email', '=', 'owner@example.com'));
    expect(row?.role).toBe('OWNER');
    expect(Buffer.from(row?.totp_secret ?? []).toString('latin1')).not.toContain(secret);
    const [audit] = await database.sql.query(qb.selectFrom('audit_log').selectAll().where('action', '=', 'staff.add'));
    expect(audit).toMatchObject({
      staff_id: null,
      role: 'cli',
      target_id: row?.id,
      after: { email: 'owner@example.com', role: 'owner' },
    });

    const store = createStore({
      database,
      queue: null,
      logger: silentLogger,
      publicUrl: 'http://localhost',
      codeKey: devCodeKey(),
    });
    const totp = await generate({ secret });
    const signedIn = await store.staff?.signIn(
      { email: 'owner@example.com', password: 'correct horse battery', totp },
      {},
    );
    expect(signedIn?.staff).toMatchObject({ email: 'owner@example.com', role: 'owner', totp_confirmed: true });
    // The same code again is refused: a code is used once.
    await expect(
      store.staff?.signIn({ email: 'owner@example.com', password: 'correct horse battery', totp }, {}),
    ).rejects.toMatchObject({ errors: { password: ['admin.invalidCredentials'] } });
    // A recovery code works once.
    const recovery = (codes[0] as string).trim();
    await expect(
      store.staff?.signIn(
        { email: 'owner@example.com', password: 'correct horse battery', recoveryCode: recovery },
        {},
      ),
    ).resolves.toMatchObject({ recoveryCodesLeft: 9 });
    await expect(
      store.staff?.signIn(
        { email: 'owner@example.com', password: 'correct horse battery', recoveryCode: recovery },
        {},
      ),
    ).rejects.toMatchObject({ errors: { password: ['admin.invalidCredentials'] } });
  });

  it('refuses a second staff member with the same address', async () => {
    const result = await run([
      'add',
      '--email',
      'owner@example.com',
      '--role',
      'manager',
      '--password',
      'another long password',
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('admin.staffExists');
  });
});
