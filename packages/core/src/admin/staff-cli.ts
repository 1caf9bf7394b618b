import { parseArgs } from 'node:util';
import {
  RECOVERY_CODE_COUNT,
  STAFF_PASSWORD_MAX,
  STAFF_PASSWORD_MIN,
  STAFF_ROLES,
  type StaffRole,
} from '@store/contract';
import { type CliIo, openCommandStore, type ParsedCommand, readCommandLine, refuseArguments } from '../shared/cli.ts';
import { ValidationError } from '../shared/errors.ts';
import { cliActor } from './audit-log.ts';

export const STAFF_USAGE = `Usage: pnpm --filter @store/core staff <command>

  add --email EMAIL --role owner|manager|support --password PASSWORD
      Adds a staff member of the operator console (the first owner comes from here; the owner adds
      the others in the console). Prints the otpauth:// URI to add to an authenticator app (or to
      turn into a QR code) and ${RECOVERY_CODE_COUNT} recovery codes, each usable once instead of a TOTP code. They are
      shown this once only: keep them somewhere safe. The password is ${STAFF_PASSWORD_MIN} to
      ${STAFF_PASSWORD_MAX} characters. Recorded in the audit log as done from the command line.
      Needs CODE_ENCRYPTION_KEY (the TOTP secret is encrypted with it) where the store needs it.
  list
      The staff members, their roles and whether they are disabled.

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the store first: embedded
PostgreSQL takes one process at a time).`;

export type StaffCommand =
  | { kind: 'help' }
  | { kind: 'add'; email: string; role: StaffRole; password: string }
  | { kind: 'list' };

export interface StaffCliIo extends CliIo {
  /** The code key of the store on this database; asked for only once the arguments are good. */
  codeKey(): string;
  /** Who runs the command, for the audit log. */
  operator: string;
}

function parse(command: string, args: string[]): ParsedCommand<StaffCommand> {
  const errors: string[] = [];
  switch (command) {
    case 'add': {
      const { values } = parseArgs({
        args,
        strict: true,
        options: { email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' } },
      });
      const email = values.email?.trim().toLowerCase();
      if (!email) errors.push('--email: required');
      else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 128) {
        errors.push(`--email: '${values.email}' is not an email address`);
      }
      const role = values.role?.toLowerCase();
      if (!role) errors.push('--role: required');
      else if (!(STAFF_ROLES as readonly string[]).includes(role)) {
        errors.push(`--role: '${values.role}' is not one of ${STAFF_ROLES.join(', ')}`);
      }
      const password = values.password;
      if (password === undefined) errors.push('--password: required');
      else if (password.length < STAFF_PASSWORD_MIN || password.length > STAFF_PASSWORD_MAX) {
        errors.push(`--password: must be ${STAFF_PASSWORD_MIN} to ${STAFF_PASSWORD_MAX} characters`);
      }
      if (errors.length > 0 || !email || !role || password === undefined) return { ok: false, errors };
      return { ok: true, command: { kind: 'add', email, role: role as StaffRole, password } };
    }
    case 'list': {
      parseArgs({ args, strict: true, options: {} });
      return { ok: true, command: { kind: 'list' } };
    }
    default:
      return { ok: false, errors: [`unknown command '${command}'`] };
  }
}

export function parseStaffCommand(argv: string[]): ParsedCommand<StaffCommand> {
  return readCommandLine(argv, parse);
}

/** `pnpm --filter @store/core staff <command>`: staff of the console from the command line. */
export async function runStaffCli(argv: string[], io: StaffCliIo): Promise<number> {
  const parsed = parseStaffCommand(argv);
  if (!parsed.ok) return refuseArguments(io, 'staff', parsed.errors);
  const { command } = parsed;
  if (command.kind === 'help') {
    io.out(STAFF_USAGE);
    return 0;
  }
  const { staff, database } = await openCommandStore(io, { codeKey: io.codeKey() });
  try {
    if (!staff) throw new Error('the staff service needs the code key');
    if (command.kind === 'add') {
      const added = await staff.addStaff(command, cliActor(io.operator));
      io.out(`added ${added.staff.email} as ${added.staff.role}`);
      io.out('');
      io.out('Add this to the authenticator app (or make a QR code of it):');
      io.out(`  ${added.otpauthUri}`);
      io.out('');
      io.out('Recovery codes, each usable once instead of a TOTP code. They are not shown again:');
      for (const code of added.recoveryCodes) io.out(`  ${code}`);
    } else {
      const members = await staff.listStaff();
      if (members.length === 0) io.out('no staff yet');
      for (const member of members) {
        io.out(`${member.email}  ${member.role}${member.disabled_at ? `  disabled ${member.disabled_at}` : ''}`);
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) {
      io.err(
        `error: ${Object.entries(error.errors)
          .map(([field, keys]) => `${field}: ${keys.join(', ')}`)
          .join('; ')} (${error.message})`,
      );
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}
