import { createHash, randomBytes } from 'node:crypto';
import { EMAIL_TOKEN_TTL_MINUTES, type EmailTemplate, ErrorKeys } from '@store/contract';
import { type EmailTokenPurpose, type Prisma, prismaQueryable, qb, sql } from '@store/db';
import { ValidationError } from '../shared/errors.ts';

/** Each purpose of a token and the email that carries it. */
export const TEMPLATE_BY_PURPOSE = {
  ACCOUNT_ACTIVATION: 'account-activation',
  EMAIL_VERIFY: 'email-verify',
  PASSWORD_RESET: 'password-reset',
  EMAIL_CHANGE: 'email-change',
  PASSWORD_CHANGE: 'password-change',
  EMAIL_CHANGE_UNDO: 'email-changed',
} as const satisfies Record<EmailTokenPurpose, EmailTemplate>;

export const EMAIL_TOKEN_PURPOSES = Object.keys(TEMPLATE_BY_PURPOSE) as EmailTokenPurpose[];

/**
 * The links that act on the account as it is: everything but the undo links, which act on a change
 * of address already made and are the old address's recourse against it. Whatever ends the pending
 * links (a change of address, an undo) ends these and leaves those.
 */
export const ACCOUNT_LINK_PURPOSES = EMAIL_TOKEN_PURPOSES.filter((purpose) => purpose !== 'EMAIL_CHANGE_UNDO');

/** 32 random bytes, base64url: 43 characters, the shape EmailTokenSchema accepts. */
export function generateEmailToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored: a database leak does not hand out working links. */
export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function emailTokenTtlMinutes(purpose: EmailTokenPurpose): number {
  return EMAIL_TOKEN_TTL_MINUTES[TEMPLATE_BY_PURPOSE[purpose]];
}

export interface IssueEmailTokenInput {
  userId: string;
  purpose: EmailTokenPurpose;
  payload?: Prisma.InputJsonValue;
  now: Date;
}

/**
 * Stores a new token and returns it in clear, for the email only. The user's older unused tokens of
 * the same purpose stop working: only the latest link does what it says. Undo links are the
 * exception: each puts back the address its own change left, so a second change must not end the
 * link that undoes the first, or whoever made both would have silenced the address that could stop
 * them.
 */
export async function issueEmailToken(tx: Prisma.TransactionClient, input: IssueEmailTokenInput) {
  const { userId, purpose, payload, now } = input;
  if (purpose !== 'EMAIL_CHANGE_UNDO') {
    await tx.emailToken.updateMany({
      where: { userId, purpose, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    });
  }
  const token = generateEmailToken();
  const expiresInMinutes = emailTokenTtlMinutes(purpose);
  await tx.emailToken.create({
    data: {
      userId,
      purpose,
      tokenHash: hashEmailToken(token),
      payload,
      expiresAt: new Date(now.getTime() + expiresInMinutes * 60_000),
    },
  });
  return { token, expiresInMinutes };
}

/** Every pending token of these purposes stops working, e.g. after the password changed. */
export async function expireEmailTokens(
  tx: Prisma.TransactionClient,
  userId: string,
  purposes: EmailTokenPurpose[],
  now: Date,
) {
  await tx.emailToken.updateMany({
    where: { userId, purpose: { in: purposes }, usedAt: null, expiresAt: { gt: now } },
    data: { expiresAt: now },
  });
}

export interface ConsumeEmailTokenInput {
  token: string;
  purpose: EmailTokenPurpose;
  now: Date;
  /** When set, a token of any other user is refused as if it did not exist. */
  userId?: string;
}

export const invalidToken = () =>
  ValidationError.field('token', ErrorKeys.tokenInvalid, 'This link is not valid or has expired.');

function liveTokenWhere(input: ConsumeEmailTokenInput) {
  return {
    tokenHash: hashEmailToken(input.token),
    purpose: input.purpose,
    usedAt: null,
    expiresAt: { gt: input.now },
    ...(input.userId ? { userId: input.userId } : {}),
  };
}

/**
 * Throws the same 422 as consumeEmailToken unless the token is live, without using it up: one
 * indexed read, for a caller to run before costly work (hashing a new password) that only a live
 * token deserves. Only consumeEmailToken decides; the token may still be taken in between.
 */
export async function assertLiveEmailToken(db: Prisma.TransactionClient, input: ConsumeEmailTokenInput) {
  const row = await db.emailToken.findFirst({ where: liveTokenWhere(input), select: { id: true } });
  if (!row) throw invalidToken();
}

/**
 * Marks the token used and returns its row. The conditional update is the check: of two concurrent
 * uses only one matches `used_at IS NULL`, the other finds nothing and gets the same 422 as an
 * unknown, expired or foreign token. Run it in the transaction that applies the token, so a failure
 * there leaves the token unused.
 */
export async function consumeEmailToken(tx: Prisma.TransactionClient, input: ConsumeEmailTokenInput) {
  const { count } = await tx.emailToken.updateMany({ where: liveTokenWhere(input), data: { usedAt: input.now } });
  if (count !== 1) throw invalidToken();
  const row = await tx.emailToken.findUnique({ where: { tokenHash: hashEmailToken(input.token) } });
  if (!row) throw invalidToken();
  return row;
}

/**
 * The account a live undo link would give `email` back to, other than `exceptUserId`: until the
 * link expires the address is held for it, so nobody can take the address to stop the undo. One
 * read on the partial index of the undo links' addresses.
 */
export async function undoHolderOf(
  tx: Prisma.TransactionClient,
  email: string,
  now: Date,
  exceptUserId?: string,
): Promise<string | undefined> {
  const [row] = await prismaQueryable(tx).query(
    qb
      .selectFrom('email_tokens')
      .select('user_id as userId')
      // The partial index's expression and predicate as it words them, the purpose a literal rather
      // than a parameter: a prepared statement's generic plan uses the index only then.
      .where(sql<string>`"payload" ->> 'email'`, '=', email)
      .where('purpose', '=', sql.lit('EMAIL_CHANGE_UNDO'))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .$if(exceptUserId !== undefined, (query) => query.where('user_id', '<>', exceptUserId as string))
      .limit((eb) => eb.lit(1)),
  );
  return row?.userId;
}
