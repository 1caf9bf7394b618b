import { randomUUID } from 'node:crypto';
import {
  type AccountExport,
  EMAIL_TOKEN_TTL_MINUTES,
  ErrorKeys,
  type Locale,
  LocaleSchema,
  type NoticeTemplate,
  type User,
} from '@store/contract';
import {
  type EmailTokenPurpose,
  Prisma,
  type PrismaClient,
  prismaQueryable,
  qb,
  type SqlClient,
  type User as UserRow,
} from '@store/db';
import { enqueueEmailSend, recordEmail } from '../mail/outbox.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, UnauthorizedError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { type ErasureCounts, eraseAccount, exportAccountData } from './account-data.ts';
import {
  ACCOUNT_LINK_PURPOSES,
  assertLiveEmailToken,
  consumeEmailToken,
  expireEmailTokens,
  generateEmailToken,
  invalidToken,
  issueEmailToken,
  TEMPLATE_BY_PURPOSE,
  undoHolderOf,
} from './email-tokens.ts';
import { argon2Hasher, type PasswordHasher } from './password-hashing.ts';
import {
  type AuthenticatedSession,
  checkSession,
  openSession,
  revokeSessions,
  type SessionCache,
  type SessionMeta,
} from './sessions.ts';
import { toUserView } from './user-view.ts';

export interface AccountServiceDeps {
  db: PrismaClient;
  sql: SqlClient;
  queue: JobQueue;
  /** Where customers open the store; emailed links start with it. */
  publicUrl: string;
  sessionTtlHours: number;
  clock?: () => Date;
  logger?: Logger;
  passwords?: PasswordHasher;
  /** Sessions checked in the last few seconds (sessions.ts); without it every call reads its session. */
  sessionCache?: SessionCache;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  locale?: Locale;
}

/** A new session: the HTTP layer signs a bearer token naming it. */
export interface SignedIn {
  user: User;
  sessionId: string;
  expiresAt: Date;
}

const INVALID_CREDENTIALS = 'Incorrect username or password.';

const emailTaken = () => ValidationError.field('email', ErrorKeys.emailTaken, 'This email is already registered.');

/** A 422 under the password, as a wrong one is, so that the login form shows it where it looks. */
const accountBlocked = () =>
  ValidationError.field(
    'password',
    ErrorKeys.accountBlocked,
    'This account is blocked. Write to support to find out why.',
  );

const wrongPassword = () =>
  ValidationError.field('password', ErrorKeys.wrongPassword, 'The current password is not correct.');

/**
 * Links mailed before a password change that the new password must end: a reset link would set a
 * password over it, and a pending change of password or address was asked for with the old one.
 */
const PASSWORD_BOUND_PURPOSES: EmailTokenPurpose[] = ['PASSWORD_RESET', 'PASSWORD_CHANGE', 'EMAIL_CHANGE'];

function localeOf(user: UserRow): Locale {
  const locale = LocaleSchema.safeParse(user.locale);
  return locale.success ? locale.data : 'en';
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** What an email-change or verification token was issued for; anything else is not ours. */
function payloadText(payload: Prisma.JsonValue | null, key: 'email' | 'passwordHash'): string {
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) {
    const value = payload[key];
    if (typeof value === 'string') return value;
  }
  throw invalidToken();
}

/**
 * The notices about the account that carry no token; back-in-stock is the catalogue's, and
 * email-changed carries the link that undoes the change.
 */
type AccountNoticeTemplate = Exclude<NoticeTemplate, 'back-in-stock' | 'email-changed'>;

export function createAccountService({
  db,
  sql,
  queue,
  publicUrl,
  sessionTtlHours,
  clock = () => new Date(),
  logger = silentLogger,
  passwords = argon2Hasher,
  sessionCache,
}: AccountServiceDeps) {
  const base = publicUrl.replace(/\/+$/, '');

  const linkFor: Record<EmailTokenPurpose, (token: string) => string> = {
    ACCOUNT_ACTIVATION: (token) => `${base}/?accountToken=${token}`,
    EMAIL_VERIFY: (token) => `${base}/verify-email/${token}`,
    PASSWORD_RESET: (token) => `${base}/password-reset/${token}`,
    EMAIL_CHANGE: (token) => `${base}/?emailToken=${token}`,
    PASSWORD_CHANGE: (token) => `${base}/?passwordToken=${token}`,
    EMAIL_CHANGE_UNDO: (token) => `${base}/email-change-undo/${token}`,
  };

  /** Where a notice sends the reader: the store itself. */
  const noticeLink: Record<AccountNoticeTemplate, string> = {
    'email-in-use': `${base}/`,
  };

  const sessionExpiry = (now: Date) => new Date(now.getTime() + sessionTtlHours * 3_600_000);

  /**
   * Issues a token and writes the email carrying it, in the caller's transaction: the two are
   * stored together or not at all. Returns the outbox row's id, to enqueue after the commit.
   */
  async function mailToken(
    tx: Prisma.TransactionClient,
    user: UserRow,
    purpose: EmailTokenPurpose,
    now: Date,
    options: { to?: string; payload?: Prisma.InputJsonValue } = {},
  ): Promise<string> {
    const { token, expiresInMinutes } = await issueEmailToken(tx, {
      userId: user.id,
      purpose,
      payload: options.payload,
      now,
    });
    return recordEmail(prismaQueryable(tx), {
      to: options.to ?? user.email,
      template: TEMPLATE_BY_PURPOSE[purpose],
      locale: localeOf(user),
      data: { name: user.name, link: linkFor[purpose](token), expiresInMinutes },
    });
  }

  /** Writes a notice (no token) to `to`, addressed to `user`, in the caller's transaction. */
  function mailNotice(tx: Prisma.TransactionClient, user: UserRow, template: AccountNoticeTemplate, to: string) {
    return recordEmail(prismaQueryable(tx), {
      to,
      template,
      locale: localeOf(user),
      data: { name: user.name, link: noticeLink[template], expiresInMinutes: EMAIL_TOKEN_TTL_MINUTES[template] },
    });
  }

  /**
   * The password changed, by whatever path: sessions opened with the old one end (all but `keep`,
   * the session that made the change, if any), and so do the links it could still be undone by.
   */
  async function endOldCredentials(tx: Prisma.TransactionClient, userId: string, now: Date, keep?: string) {
    await revokeSessions(tx, userId, now, keep ? { except: keep } : {});
    await expireEmailTokens(tx, userId, PASSWORD_BOUND_PURPOSES, now);
  }

  /** After the commit, and never waited for: the outbox row is the email, the job only its nudge. */
  function enqueueEmail(emailId: string) {
    void enqueueEmailSend(queue, emailId, logger);
  }

  /**
   * Whoever else has `email`: the account with that address, else the account a live undo link
   * would give it back to (undoHolderOf); null when the address is free for `userId`.
   */
  async function holderOf(
    tx: Prisma.TransactionClient,
    email: string,
    now: Date,
    userId?: string,
  ): Promise<UserRow | null> {
    const owner = await tx.user.findUnique({ where: { email } });
    if (owner) return owner.id === userId ? null : owner;
    const heldFor = await undoHolderOf(tx, email, now, userId);
    return heldFor ? tx.user.findUnique({ where: { id: heldFor } }) : null;
  }

  /**
   * A new session, unless staff blocked the account meanwhile. The row is held (FOR KEY SHARE) while
   * the session is made: blocking locks it FOR UPDATE, so it either waits for this session and ends
   * it, or is seen here.
   */
  async function openUnblockedSession(userId: string, meta: SessionMeta, expiresAt: Date): Promise<string> {
    return sql.transaction(async (tx) => {
      const [row] = await tx.query(qb.selectFrom('users').select('blocked_at').where('id', '=', userId).forKeyShare());
      if (!row || row.blocked_at !== null) throw accountBlocked();
      const id = randomUUID();
      await tx.execute(
        qb.insertInto('sessions').values({
          id,
          user_id: userId,
          user_agent: meta.userAgent?.slice(0, 512) ?? null,
          ip: meta.ip?.slice(0, 64) ?? null,
          expires_at: expiresAt,
        }),
      );
      return id;
    });
  }

  async function requireUser(userId: string): Promise<UserRow> {
    const user = await db.user.findUnique({ where: { id: userId } });
    // A valid session of a deleted user cannot exist (sessions cascade), so this is a race: 401.
    if (!user) throw new UnauthorizedError();
    return user;
  }

  return {
    /**
     * POST /register (docs/api.md, "Accounts and profile"): the account, a session, and the
     * activation email.
     */
    async register(input: RegisterInput, meta: SessionMeta): Promise<SignedIn> {
      const email = input.email.toLowerCase();
      const now = clock();
      if (await holderOf(db, email, now)) throw emailTaken();
      const passwordHash = await passwords.hash(input.password);
      const expiresAt = sessionExpiry(now);
      try {
        const { user, sessionId, emailId } = await db.$transaction(async (tx) => {
          const user = await tx.user.create({
            data: { email, name: input.name, passwordHash, locale: input.locale ?? 'en' },
          });
          const sessionId = await openSession(tx, user.id, meta, expiresAt);
          const emailId = await mailToken(tx, user, 'ACCOUNT_ACTIVATION', now, { payload: { email } });
          return { user, sessionId, emailId };
        });
        enqueueEmail(emailId);
        return { user: toUserView(user), sessionId, expiresAt };
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    /** Unknown address and wrong password get the same answer after the same work. */
    async login(input: { email: string; password: string }, meta: SessionMeta): Promise<SignedIn> {
      const user = await db.user.findUnique({ where: { email: input.email.toLowerCase() } });
      const valid = user
        ? await passwords.verify(user.passwordHash, input.password)
        : await passwords.verifyNothing(input.password);
      if (!user || !valid) {
        throw ValidationError.field('password', ErrorKeys.invalidCredentials, INVALID_CREDENTIALS);
      }
      if (user.blockedAt) throw accountBlocked();
      const now = clock();
      const expiresAt = sessionExpiry(now);
      const sessionId = await openUnblockedSession(user.id, meta, expiresAt);
      return { user: toUserView(user), sessionId, expiresAt };
    },

    /**
     * The user's sessions were ended by another path (the console): forgotten here at once, as
     * logout does; every other process hears it from the database.
     */
    forgetSessionsOf(userId: string): void {
      sessionCache?.forgetUser(userId);
    },

    async logout(session: AuthenticatedSession): Promise<void> {
      await db.session.updateMany({
        where: { id: session.sessionId, userId: session.userId, revokedAt: null },
        data: { revokedAt: clock() },
      });
      // Here at once; every other process hears it from the database.
      sessionCache?.forget(session.sessionId);
    },

    /** The check behind every authenticated request. */
    authenticate(claims: { sessionId: string; userId: string }): Promise<AuthenticatedSession> {
      return checkSession(sql, claims, clock(), sessionCache);
    },

    async getUser(userId: string): Promise<User> {
      return toUserView(await requireUser(userId));
    },

    async getBalance(userId: string) {
      const { balance, balance_minor, owed_minor } = toUserView(await requireUser(userId));
      return { balance, balance_minor, owed_minor };
    },

    /**
     * Sends a reset link to an address with an account; an address without one is a 422 on `email`
     * (validation.emailNotFound), so the form can say so under the field. That tells nothing
     * registration does not: it refuses a taken address. What bounds trying addresses one after
     * another is the passwordReset rate limit.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
      if (!user || user.deletedAt) throw ValidationError.field('email', ErrorKeys.emailNotFound, 'Email not found.');
      const now = clock();
      const emailId = await db.$transaction((tx) => mailToken(tx, user, 'PASSWORD_RESET', now));
      enqueueEmail(emailId);
    },

    /**
     * Sets the password from a reset link and signs the account out everywhere. Anyone may call
     * this, so a dead token is refused after one indexed read: only a live one costs a hash.
     */
    async resetPassword(token: string, password: string): Promise<void> {
      const now = clock();
      await assertLiveEmailToken(db, { token, purpose: 'PASSWORD_RESET', now });
      const passwordHash = await passwords.hash(password);
      const userId = await db.$transaction(async (tx) => {
        const row = await consumeEmailToken(tx, { token, purpose: 'PASSWORD_RESET', now });
        await tx.user.update({ where: { id: row.userId }, data: { passwordHash } });
        await endOldCredentials(tx, row.userId, now);
        return row.userId;
      });
      sessionCache?.forgetUser(userId);
    },

    /**
     * Whether a reset link can still set a password, without using it: the page shows the form only
     * for a live link, and says a used or expired one is dead before the customer types anything.
     */
    async checkPasswordResetToken(token: string): Promise<void> {
      await assertLiveEmailToken(db, { token, purpose: 'PASSWORD_RESET', now: clock() });
    },

    /** Mails a new activation link to an account not activated yet (the first one was lost or expired). */
    async requestActivation(userId: string): Promise<void> {
      const user = await requireUser(userId);
      if (user.activatedAt) throw new ConflictError('The account is already activated.');
      const now = clock();
      const emailId = await db.$transaction((tx) =>
        mailToken(tx, user, 'ACCOUNT_ACTIVATION', now, { payload: { email: user.email } }),
      );
      enqueueEmail(emailId);
    },

    /** The emailed token is the credential here: the customer may open the link signed out. */
    async activateAccount(token: string): Promise<User> {
      const now = clock();
      const user = await db.$transaction(async (tx) => {
        const row = await consumeEmailToken(tx, { token, purpose: 'ACCOUNT_ACTIVATION', now });
        const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId } });
        // A link sent to an address the account no longer has proves nothing about the current one.
        if (payloadText(row.payload, 'email') !== user.email) throw invalidToken();
        return tx.user.update({
          where: { id: user.id },
          data: { activatedAt: user.activatedAt ?? now, emailVerifiedAt: user.emailVerifiedAt ?? now },
        });
      });
      return toUserView(user);
    },

    async requestEmailVerification(userId: string): Promise<void> {
      const user = await requireUser(userId);
      const now = clock();
      const emailId = await db.$transaction((tx) =>
        mailToken(tx, user, 'EMAIL_VERIFY', now, { payload: { email: user.email } }),
      );
      enqueueEmail(emailId);
    },

    async verifyEmail(userId: string, token: string): Promise<User> {
      const now = clock();
      const user = await db.$transaction(async (tx) => {
        const row = await consumeEmailToken(tx, { token, purpose: 'EMAIL_VERIFY', userId, now });
        const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
        if (payloadText(row.payload, 'email') !== user.email) throw invalidToken();
        return tx.user.update({ where: { id: userId }, data: { emailVerifiedAt: user.emailVerifiedAt ?? now } });
      });
      return toUserView(user);
    },

    /**
     * Step one of an email change: a link to the NEW address, which the token remembers. The
     * current password is checked when sent; a session alone may ask, since the change only takes
     * effect from the new address's link and the old address can undo it for a week
     * (confirmEmailChange). When another account has that address, or an undo link holds it for
     * one, that account gets a notice instead, and the caller sees exactly what a free address gives
     * (same answer, same writes to its own account), so the form does not tell who has an account.
     */
    async requestEmailChange(userId: string, input: { email: string; password?: string | undefined }): Promise<void> {
      const email = input.email.toLowerCase();
      const user = await requireUser(userId);
      if (input.password !== undefined && !(await passwords.verify(user.passwordHash, input.password))) {
        throw wrongPassword();
      }
      if (email === user.email) {
        throw ValidationError.field('email', ErrorKeys.sameEmail, 'This is already your email address.');
      }
      const now = clock();
      const emailId = await db.$transaction(async (tx) => {
        const holder = await holderOf(tx, email, now, user.id);
        if (!holder) return mailToken(tx, user, 'EMAIL_CHANGE', now, { to: email, payload: { email } });
        // A new request ends the previous link whatever the address, or an earlier link that still
        // worked would tell the caller this address is taken.
        await expireEmailTokens(tx, user.id, ['EMAIL_CHANGE'], now);
        return mailNotice(tx, holder, 'email-in-use', email);
      });
      enqueueEmail(emailId);
    },

    /**
     * Step two, from the session that confirms: the address is checked again, since someone may
     * have taken it meanwhile. Whoever else was signed in, or holds a link mailed to the old
     * address, loses the account with it. The old address is told, with a link that undoes the
     * change for a week (undoEmailChange): a change asked for from a stolen session does not keep
     * the account, and until that link expires no other account may take the old address.
     */
    async confirmEmailChange(session: AuthenticatedSession, token: string): Promise<User> {
      const { userId } = session;
      const now = clock();
      try {
        const { user, noticeId } = await db.$transaction(async (tx) => {
          const row = await consumeEmailToken(tx, { token, purpose: 'EMAIL_CHANGE', userId, now });
          const email = payloadText(row.payload, 'email');
          if (await holderOf(tx, email, now, userId)) throw emailTaken();
          const before = await tx.user.findUniqueOrThrow({ where: { id: userId } });
          // Opening the link proved the customer reads the new address.
          const user = await tx.user.update({ where: { id: userId }, data: { email, emailVerifiedAt: now } });
          await revokeSessions(tx, userId, now, { except: session.sessionId });
          await expireEmailTokens(tx, userId, ACCOUNT_LINK_PURPOSES, now);
          const noticeId = await mailToken(tx, before, 'EMAIL_CHANGE_UNDO', now, { payload: { email: before.email } });
          return { user, noticeId };
        });
        sessionCache?.forgetUser(userId);
        enqueueEmail(noticeId);
        return toUserView(user);
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    /**
     * The link of the email-changed notice, followed from the address a change left: that address
     * comes back, every session ends, and so does the password, since whoever made the change may
     * know it or have set it from the new address's reset link; the address gets a link to choose a
     * new one. Every pending link ends too, and so do the undo links of changes made after this one,
     * which would move the account away again; those of earlier changes stay. The token is the
     * credential: whoever follows the link is signed out anyway.
     */
    async undoEmailChange(token: string): Promise<void> {
      const now = clock();
      // Only a live link costs a hash, as for a password reset.
      await assertLiveEmailToken(db, { token, purpose: 'EMAIL_CHANGE_UNDO', now });
      const passwordHash = await passwords.hash(generateEmailToken());
      const addressInUse = () => new ConflictError('Another account uses this address now.');
      try {
        const { userId, emailId } = await db.$transaction(async (tx) => {
          const row = await consumeEmailToken(tx, { token, purpose: 'EMAIL_CHANGE_UNDO', now });
          const email = payloadText(row.payload, 'email');
          const owner = await tx.user.findUnique({ where: { email }, select: { id: true } });
          if (owner && owner.id !== row.userId) throw addressInUse();
          const user = await tx.user.update({
            where: { id: row.userId },
            data: { email, emailVerifiedAt: now, passwordHash },
          });
          await revokeSessions(tx, user.id, now);
          await expireEmailTokens(tx, user.id, ACCOUNT_LINK_PURPOSES, now);
          await tx.emailToken.updateMany({
            where: {
              userId: user.id,
              purpose: 'EMAIL_CHANGE_UNDO',
              usedAt: null,
              expiresAt: { gt: now },
              createdAt: { gt: row.createdAt },
            },
            data: { expiresAt: now },
          });
          return { userId: user.id, emailId: await mailToken(tx, user, 'PASSWORD_RESET', now) };
        });
        sessionCache?.forgetUser(userId);
        enqueueEmail(emailId);
      } catch (error) {
        if (isUniqueViolation(error)) throw addressInUse();
        throw error;
      }
    },

    /**
     * Step one of a password change: the current password must be right; the new one is hashed now
     * and only its hash waits in the token until the emailed link confirms it.
     */
    async requestPasswordChange(userId: string, input: { password: string; newPassword: string }): Promise<void> {
      const user = await requireUser(userId);
      if (!(await passwords.verify(user.passwordHash, input.password))) throw wrongPassword();
      const passwordHash = await passwords.hash(input.newPassword);
      const now = clock();
      const emailId = await db.$transaction((tx) =>
        mailToken(tx, user, 'PASSWORD_CHANGE', now, { payload: { passwordHash } }),
      );
      enqueueEmail(emailId);
    },

    /** Step two: applies the new password, ending every other session and every earlier link. */
    async confirmPasswordChange(session: AuthenticatedSession, token: string): Promise<void> {
      const now = clock();
      await db.$transaction(async (tx) => {
        const row = await consumeEmailToken(tx, { token, purpose: 'PASSWORD_CHANGE', userId: session.userId, now });
        const passwordHash = payloadText(row.payload, 'passwordHash');
        await tx.user.update({ where: { id: session.userId }, data: { passwordHash } });
        await endOldCredentials(tx, session.userId, now, session.sessionId);
      });
      sessionCache?.forgetUser(session.userId);
    },

    async updateName(userId: string, name: string): Promise<User> {
      await requireUser(userId);
      return toUserView(await db.user.update({ where: { id: userId }, data: { name } }));
    },

    /** GET /profile/export: everything the store holds about the customer (account-data.ts). */
    async exportData(userId: string): Promise<AccountExport> {
      return exportAccountData(db, await requireUser(userId), clock());
    },

    /**
     * DELETE /profile: the current password confirms it; then, in one transaction, the personal data
     * is erased and the account can never sign in again (account-data.ts, eraseAccount). Refused
     * with a 409 while a payment is being decided or the customer owes the store.
     */
    async deleteAccount(userId: string, password: string): Promise<ErasureCounts> {
      const user = await requireUser(userId);
      if (!(await passwords.verify(user.passwordHash, password))) throw wrongPassword();
      const now = clock();
      const counts = await db.$transaction((tx) => eraseAccount(tx, userId, now));
      sessionCache?.forgetUser(userId);
      logger.info({ userId, ...counts }, 'account deleted');
      return counts;
    },

    async updateLocale(userId: string, locale: Locale): Promise<User> {
      await requireUser(userId);
      return toUserView(await db.user.update({ where: { id: userId }, data: { locale } }));
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
