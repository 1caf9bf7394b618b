import { createHash, randomInt, randomUUID } from 'node:crypto';
import {
  AdminErrorKeys,
  ErrorKeys,
  RECOVERY_CODE_COUNT,
  STAFF_PASSWORD_MAX,
  STAFF_PASSWORD_MIN,
  type Staff,
  type StaffRole,
} from '@store/contract';
import { type CodeCipher, int8ToNumber, type Queryable, qb, type SqlClient } from '@store/db';
import { generateSecret, generateURI, verify } from 'otplib';
import { argon2Hasher, type PasswordHasher } from '../accounts/password-hashing.ts';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors.ts';
import { type AuditActor, writeAudit } from './audit-log.ts';

/** The issuer the authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Gift card store';
/** One 30-second step either side of now: a phone's clock a little off still signs in. */
const TOTP_TOLERANCE_SECONDS = 30;
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

type DbRole = 'OWNER' | 'MANAGER' | 'SUPPORT';
const toDbRole = (role: StaffRole): DbRole => role.toUpperCase() as DbRole;
const fromDbRole = (role: DbRole): StaffRole => role.toLowerCase() as StaffRole;

interface StaffRow {
  id: string;
  email: string;
  role: DbRole;
  totp_confirmed_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

const STAFF_COLUMNS = [
  'id',
  'email',
  'role',
  'totp_confirmed_at',
  'disabled_at',
  'created_at',
  'last_sign_in_at',
] as const;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function staffView(row: StaffRow): Staff {
  return {
    id: row.id,
    email: row.email,
    role: fromDbRole(row.role),
    totp_confirmed: row.totp_confirmed_at !== null,
    disabled_at: iso(row.disabled_at),
    created_at: new Date(row.created_at).toISOString(),
    last_sign_in_at: iso(row.last_sign_in_at),
  };
}

/** A recovery code as shown: four groups of four, from 36 letters and digits (about 82 bits). */
function makeRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/** Recovery codes are random enough that a plain hash keeps them; dashes and case do not count. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replaceAll('-', '').toLowerCase()).digest('hex');
}

/** What a staff member's second factor is, shown once. */
export interface StaffSecrets {
  staff: Staff;
  otpauthUri: string;
  recoveryCodes: string[];
}

/** A staff member signed in: what their token carries and what the console is told. */
export interface StaffSignIn {
  staff: Staff;
  tokenVersion: number;
  recoveryCodesLeft: number;
}

/** The staff member a token names, as the database has them now. */
export interface StaffPrincipal {
  staff: Staff;
  role: StaffRole;
}

export interface StaffServiceDeps {
  sql: SqlClient;
  /** The store's code key: the TOTP secrets are encrypted with it like the codes. */
  cipher: CodeCipher;
  hasher?: PasswordHasher;
  clock?: () => Date;
}

export interface SignInInput {
  email: string;
  password: string;
  totp?: string | undefined;
  recoveryCode?: string | undefined;
}

/**
 * Staff accounts: never customers. Each signs in with a password and a TOTP code (or one of their
 * recovery codes); the owner adds the others, changes their roles, resets their second factor and
 * disables them. Every change writes its audit row in its own transaction.
 */
export function createStaffService({ sql, cipher, hasher = argon2Hasher, clock = () => new Date() }: StaffServiceDeps) {
  const invalid = () =>
    ValidationError.field('password', AdminErrorKeys.invalidCredentials, 'Incorrect email, password or code.');

  async function newSecrets(tx: Queryable, staffId: string, email: string) {
    const secret = generateSecret();
    await tx.execute(qb.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId));
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, makeRecoveryCode);
    await tx.execute(
      qb
        .insertInto('staff_recovery_codes')
        .values(recoveryCodes.map((code) => ({ staff_id: staffId, code_hash: hashRecoveryCode(code) }))),
    );
    return {
      encrypted: Buffer.from(cipher.encrypt(secret)),
      otpauthUri: generateURI({ issuer: TOTP_ISSUER, label: email, secret }),
      recoveryCodes,
    };
  }

  async function lockStaff(tx: Queryable, id: string) {
    const [row] = await tx.query(
      qb
        .selectFrom('staff')
        .select([...STAFF_COLUMNS, 'totp_secret', 'totp_last_step', 'token_version', 'password_hash'])
        .where('id', '=', id)
        .forUpdate(),
    );
    if (!row) throw new NotFoundError('Staff member');
    return row;
  }

  /** Checks a TOTP code against the secret, once: the step it matched is stored and never taken again. */
  async function takeTotp(
    tx: Queryable,
    row: { id: string; totp_secret: Uint8Array; totp_last_step: string | number | bigint | null },
    code: string,
  ): Promise<boolean> {
    const secret = cipher.decrypt(row.totp_secret);
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(clock().getTime() / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(row.totp_last_step === null ? {} : { afterTimeStep: int8ToNumber(row.totp_last_step) }),
    });
    if (!result.valid || !('timeStep' in result)) return false;
    await tx.execute(
      qb
        .updateTable('staff')
        .set({
          totp_last_step: result.timeStep,
          totp_confirmed_at: (eb) => eb.fn.coalesce('totp_confirmed_at', eb.val(clock())),
        })
        .where('id', '=', row.id),
    );
    return true;
  }

  async function ownersLeft(tx: Queryable, exceptId: string): Promise<number> {
    const [row] = await tx.query(
      qb
        .selectFrom('staff')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('role', '=', 'OWNER')
        .where('disabled_at', 'is', null)
        .where('id', '<>', exceptId),
    );
    return int8ToNumber(row?.n ?? 0);
  }

  return {
    /** A new staff member with a fresh TOTP secret and recovery codes, shown once. */
    async addStaff(
      input: { email: string; role: StaffRole; password: string },
      actor: AuditActor,
    ): Promise<StaffSecrets> {
      const email = input.email.trim().toLowerCase();
      if (input.password.length < STAFF_PASSWORD_MIN)
        throw ValidationError.field('password', ErrorKeys.passwordTooShort);
      if (input.password.length > STAFF_PASSWORD_MAX) throw ValidationError.field('password', ErrorKeys.tooLong);
      const passwordHash = await hasher.hash(input.password);
      return sql.transaction(async (tx) => {
        const [taken] = await tx.query(qb.selectFrom('staff').select('id').where('email', '=', email));
        if (taken)
          throw ValidationError.field('email', AdminErrorKeys.staffExists, 'A staff member has this address already.');
        const id = randomUUID();
        const secrets = await (async () => {
          // The row first: the recovery codes point at it.
          await tx.execute(
            qb.insertInto('staff').values({
              id,
              email,
              password_hash: passwordHash,
              role: toDbRole(input.role),
              totp_secret: Buffer.alloc(0),
            }),
          );
          return newSecrets(tx, id, email);
        })();
        const [row] = await tx.query(
          qb
            .updateTable('staff')
            .set({ totp_secret: secrets.encrypted })
            .where('id', '=', id)
            .returning([...STAFF_COLUMNS]),
        );
        const staff = staffView(row as StaffRow);
        await writeAudit(tx, actor, {
          action: 'staff.add',
          targetType: 'staff',
          targetId: id,
          after: { email, role: input.role },
        });
        return { staff, otpauthUri: secrets.otpauthUri, recoveryCodes: secrets.recoveryCodes };
      });
    },

    /**
     * Signs a staff member in with the password and a TOTP code or an unused recovery code. A wrong
     * address, password or code, and a disabled account, all get the same answer.
     */
    async signIn(input: SignInInput, meta: { requestId?: string; ip?: string }): Promise<StaffSignIn> {
      const email = input.email.trim().toLowerCase();
      const [found] = await sql.query(
        qb.selectFrom('staff').select(['id', 'password_hash']).where('email', '=', email),
      );
      if (!found) {
        await hasher.verifyNothing(input.password);
        throw invalid();
      }
      if (!(await hasher.verify(found.password_hash, input.password))) throw invalid();
      return sql.transaction(async (tx) => {
        const row = await lockStaff(tx, found.id);
        if (row.disabled_at !== null) throw invalid();
        let secondFactor = false;
        if (input.totp !== undefined) {
          secondFactor = await takeTotp(tx, row, input.totp);
        } else if (input.recoveryCode !== undefined) {
          const used = await tx.execute(
            qb
              .updateTable('staff_recovery_codes')
              .set({ used_at: clock() })
              .where('staff_id', '=', row.id)
              .where('code_hash', '=', hashRecoveryCode(input.recoveryCode))
              .where('used_at', 'is', null),
          );
          secondFactor = used === 1;
        }
        if (!secondFactor) throw invalid();
        const [updated] = await tx.query(
          qb
            .updateTable('staff')
            .set({ last_sign_in_at: clock() })
            .where('id', '=', row.id)
            .returning([...STAFF_COLUMNS]),
        );
        const [left] = await tx.query(
          qb
            .selectFrom('staff_recovery_codes')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('staff_id', '=', row.id)
            .where('used_at', 'is', null),
        );
        const staff = staffView(updated as StaffRow);
        await writeAudit(
          tx,
          { staffId: row.id, role: staff.role, name: staff.email, requestId: meta.requestId, ip: meta.ip },
          {
            action: 'staff.sign_in',
            targetType: 'staff',
            targetId: row.id,
            after: { with: input.totp !== undefined ? 'totp' : 'recovery_code' },
          },
        );
        return { staff, tokenVersion: row.token_version, recoveryCodesLeft: int8ToNumber(left?.n ?? 0) };
      });
    },

    /**
     * The staff member a token names, if the token is still good: the account is enabled and nothing
     * (a role change, a second-factor reset) has raised its version since the token was made.
     */
    async principal(staffId: string, tokenVersion: number): Promise<StaffPrincipal> {
      const [row] = await sql.query(
        qb
          .selectFrom('staff')
          .select([...STAFF_COLUMNS, 'token_version'])
          .where('id', '=', staffId),
      );
      if (!row || row.disabled_at !== null || row.token_version !== tokenVersion) throw new UnauthorizedError();
      const staff = staffView(row);
      return { staff, role: staff.role };
    },

    /**
     * A fresh TOTP code for a grave action (a balance adjustment), checked in the action's own
     * transaction and used up there.
     */
    async requireFreshTotp(tx: Queryable, staffId: string, code: string): Promise<void> {
      const row = await lockStaff(tx, staffId);
      if (!(await takeTotp(tx, row, code)))
        throw ValidationError.field('totp', AdminErrorKeys.totpInvalid, 'The code is wrong or was used already.');
    },

    async listStaff(): Promise<Staff[]> {
      const rows = await sql.query(
        qb
          .selectFrom('staff')
          .select([...STAFF_COLUMNS])
          .orderBy('created_at')
          .orderBy('id'),
      );
      return rows.map(staffView);
    },

    async changeRole(id: string, role: StaffRole, actor: AuditActor): Promise<Staff> {
      return sql.transaction(async (tx) => {
        const row = await lockStaff(tx, id);
        const before = fromDbRole(row.role);
        if (before === role) return staffView(row);
        if (before === 'owner' && (await ownersLeft(tx, id)) === 0) {
          throw ValidationError.field('role', AdminErrorKeys.lastOwner, 'The store keeps at least one owner.');
        }
        const [updated] = await tx.query(
          qb
            .updateTable('staff')
            .set((eb) => ({ role: toDbRole(role), token_version: eb('token_version', '+', 1) }))
            .where('id', '=', id)
            .returning([...STAFF_COLUMNS]),
        );
        await writeAudit(tx, actor, {
          action: 'staff.role_change',
          targetType: 'staff',
          targetId: id,
          before: { role: before },
          after: { role },
        });
        return staffView(updated as StaffRow);
      });
    },

    /** A new TOTP secret and new recovery codes; the old ones and every token stop working. */
    async resetTwoFactor(id: string, reason: string, actor: AuditActor): Promise<StaffSecrets> {
      return sql.transaction(async (tx) => {
        const row = await lockStaff(tx, id);
        const secrets = await newSecrets(tx, id, row.email);
        const [updated] = await tx.query(
          qb
            .updateTable('staff')
            .set((eb) => ({
              totp_secret: secrets.encrypted,
              totp_confirmed_at: null,
              totp_last_step: null,
              token_version: eb('token_version', '+', 1),
            }))
            .where('id', '=', id)
            .returning([...STAFF_COLUMNS]),
        );
        await writeAudit(tx, actor, {
          action: 'staff.two_factor_reset',
          targetType: 'staff',
          targetId: id,
          after: { reason },
        });
        return {
          staff: staffView(updated as StaffRow),
          otpauthUri: secrets.otpauthUri,
          recoveryCodes: secrets.recoveryCodes,
        };
      });
    },

    /** Disables (or enables again) a staff member; a disabled one's tokens stop working at once. */
    async setDisabled(id: string, disabled: boolean, reason: string, actor: AuditActor): Promise<Staff> {
      return sql.transaction(async (tx) => {
        const row = await lockStaff(tx, id);
        if ((row.disabled_at !== null) === disabled) return staffView(row);
        if (disabled && row.role === 'OWNER' && (await ownersLeft(tx, id)) === 0) {
          throw ValidationError.field('id', AdminErrorKeys.lastOwner, 'The store keeps at least one owner.');
        }
        if (disabled && actor.staffId === id) throw new ConflictError('A staff member cannot disable themselves.');
        const [updated] = await tx.query(
          qb
            .updateTable('staff')
            .set((eb) => ({ disabled_at: disabled ? clock() : null, token_version: eb('token_version', '+', 1) }))
            .where('id', '=', id)
            .returning([...STAFF_COLUMNS]),
        );
        await writeAudit(tx, actor, {
          action: disabled ? 'staff.disable' : 'staff.enable',
          targetType: 'staff',
          targetId: id,
          before: { disabled: !disabled },
          after: { disabled, reason },
        });
        return staffView(updated as StaffRow);
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
