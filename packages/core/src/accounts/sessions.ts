import { Prisma, type PrismaClient, sqlOf } from '@store/db';
import { UnauthorizedError } from '../shared/errors.ts';

/** Where a session was opened from; kept for the customer's own security overview. */
export interface SessionMeta {
  userAgent?: string;
  ip?: string;
}

export interface AuthenticatedSession {
  userId: string;
  sessionId: string;
}

/** lastSeenAt is written at most this often, so a busy client does not write on every read. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function openSession(
  tx: Prisma.TransactionClient,
  userId: string,
  meta: SessionMeta,
  expiresAt: Date,
): Promise<string> {
  const session = await tx.session.create({
    data: { userId, userAgent: meta.userAgent?.slice(0, 512), ip: meta.ip?.slice(0, 64), expiresAt },
    select: { id: true },
  });
  return session.id;
}

/**
 * A signed bearer token is honoured only while its session row is neither revoked nor expired and
 * belongs to the token's subject: logout and password changes take effect on the server at once.
 */
export async function checkSession(
  db: PrismaClient,
  claims: { sessionId: string; userId: string },
  now: Date,
): Promise<AuthenticatedSession> {
  if (!UUID.test(claims.sessionId) || !UUID.test(claims.userId)) throw new UnauthorizedError();
  // Every authenticated request comes here: one prepared read by primary key on the driver, a
  // fraction of what the query builder's findUnique costs (bench/checkout).
  const sql = sqlOf(db);
  const [session] = await sql.query<{ lastSeenAt: Date }>(Prisma.sql`
    SELECT last_seen_at AS "lastSeenAt" FROM sessions
    WHERE id = ${claims.sessionId}::uuid AND user_id = ${claims.userId}::uuid
      AND revoked_at IS NULL AND expires_at > ${now}`);
  if (!session) throw new UnauthorizedError();
  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await sql.execute(Prisma.sql`
      UPDATE sessions SET last_seen_at = ${now}
      WHERE id = ${claims.sessionId}::uuid AND last_seen_at = ${session.lastSeenAt}`);
  }
  return { userId: claims.userId, sessionId: claims.sessionId };
}

/** Revokes the user's live sessions, all of them or all but the one given. */
export async function revokeSessions(
  tx: Prisma.TransactionClient,
  userId: string,
  now: Date,
  options: { except?: string } = {},
): Promise<number> {
  const { count } = await tx.session.updateMany({
    where: { userId, revokedAt: null, ...(options.except ? { id: { not: options.except } } : {}) },
    data: { revokedAt: now },
  });
  return count;
}
