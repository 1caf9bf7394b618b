import { type Database, type Prisma, prepare, qb, type SqlClient } from '@store/db';
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

/** Where the database names each session that ends: revoked, cut short, moved or deleted ('*': all). */
export const SESSION_ENDED_CHANNEL = 'session_ended';

/** How long a checked session is taken on trust before the database is asked again. */
export const SESSION_CACHE_TTL_MS = 5_000;
const SESSION_CACHE_MAX_ENTRIES = 20_000;

interface CachedSession {
  userId: string;
  expiresAt: number;
  lastSeenAt: number;
  checkedAt: number;
}

/**
 * The sessions this process checked in the last few seconds, so that a customer's run of calls (a
 * checkout's, a payment's status polled every second) asks the database once rather than on every
 * call. A session that ends is forgotten at once: here by the call that ended it, after its commit,
 * and in every process by the database's notice (SESSION_ENDED_CHANNEL, raised by a trigger on every
 * revocation, whatever path wrote it). While the notices' connection is down nothing is taken on
 * trust; when it is back, everything is forgotten, since what ended meanwhile is unknown. Past
 * SESSION_CACHE_TTL_MS an entry is checked again whatever happened.
 */
export interface SessionCache {
  /** Starts hearing the database's notices; until then the cache takes nothing on trust. */
  start(listen: Database['listen']): Promise<void>;
  forget(sessionId: string): void;
  forgetUser(userId: string): void;
  close(): Promise<void>;
  /** A fresh entry, else undefined. */
  get(sessionId: string, now: number): CachedSession | undefined;
  /** Changes with every forgetting: a read that began before one must not be kept. */
  generation(): number;
  remember(sessionId: string, entry: CachedSession, readInGeneration: number): void;
  touched(sessionId: string, lastSeenAt: number): void;
}

export function createSessionCache({
  ttlMs = SESSION_CACHE_TTL_MS,
  maxEntries = SESSION_CACHE_MAX_ENTRIES,
}: {
  ttlMs?: number;
  maxEntries?: number;
} = {}): SessionCache {
  const entries = new Map<string, CachedSession>();
  let generation = 0;
  let hearing = false;
  let unlisten: (() => Promise<void>) | undefined;
  const forgetAll = () => {
    generation += 1;
    entries.clear();
  };
  const cache: SessionCache = {
    async start(listen) {
      unlisten = await listen(SESSION_ENDED_CHANNEL, {
        onNotification: (payload) => (payload === '*' ? forgetAll() : cache.forget(payload)),
        onLost: () => {
          hearing = false;
          forgetAll();
        },
        onReconnect: () => {
          forgetAll();
          hearing = true;
        },
      });
      hearing = true;
    },
    forget(sessionId) {
      generation += 1;
      entries.delete(sessionId);
    },
    forgetUser(userId) {
      generation += 1;
      for (const [id, entry] of entries) if (entry.userId === userId) entries.delete(id);
    },
    async close() {
      hearing = false;
      forgetAll();
      await unlisten?.();
    },
    get(sessionId, now) {
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      if (!hearing || now - entry.checkedAt >= ttlMs || now >= entry.expiresAt) {
        entries.delete(sessionId);
        return undefined;
      }
      return entry;
    },
    generation: () => generation,
    remember(sessionId, entry, readInGeneration) {
      if (!hearing || readInGeneration !== generation) return;
      // The oldest entry makes room: a Map keeps the order entries were set in.
      if (entries.size >= maxEntries && !entries.has(sessionId)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(sessionId, entry);
    },
    touched(sessionId, lastSeenAt) {
      const entry = entries.get(sessionId);
      if (entry) entry.lastSeenAt = lastSeenAt;
    },
  };
  return cache;
}

/** A live session of the user's, by id. */
const sessionStatement = prepare((a: { sessionId: string; userId: string; now: Date }) =>
  qb
    .selectFrom('sessions')
    .select(['last_seen_at as lastSeenAt', 'expires_at as expiresAt'])
    .where('id', '=', a.sessionId)
    .where('user_id', '=', a.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', a.now),
);

/** The session's last use moved on, unless another request moved it first. */
const touchStatement = prepare((a: { sessionId: string; now: Date; lastSeenAt: Date }) =>
  qb
    .updateTable('sessions')
    .set({ last_seen_at: a.now })
    .where('id', '=', a.sessionId)
    .where('last_seen_at', '=', a.lastSeenAt),
);

/**
 * A signed bearer token is honoured only while its session row is neither revoked nor expired and
 * belongs to the token's subject: logout and password changes take effect on the server at once.
 * With a cache (createSessionCache), a session checked in the last few seconds is not read again.
 */
export async function checkSession(
  sql: SqlClient,
  claims: { sessionId: string; userId: string },
  now: Date,
  cache?: SessionCache,
): Promise<AuthenticatedSession> {
  if (!UUID.test(claims.sessionId) || !UUID.test(claims.userId)) throw new UnauthorizedError();
  const at = now.getTime();
  const cached = cache?.get(claims.sessionId, at);
  let lastSeenAt: number;
  if (cached) {
    if (cached.userId !== claims.userId) throw new UnauthorizedError();
    lastSeenAt = cached.lastSeenAt;
  } else {
    const generation = cache?.generation() ?? 0;
    // One prepared read by primary key on the driver, a fraction of what the query builder's
    // findUnique costs (bench/checkout).
    const [session] = await sql.query(sessionStatement({ sessionId: claims.sessionId, userId: claims.userId, now }));
    if (!session) throw new UnauthorizedError();
    lastSeenAt = session.lastSeenAt.getTime();
    cache?.remember(
      claims.sessionId,
      { userId: claims.userId, expiresAt: session.expiresAt.getTime(), lastSeenAt, checkedAt: at },
      generation,
    );
  }
  if (at - lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
    cache?.touched(claims.sessionId, at);
    await sql.execute(touchStatement({ sessionId: claims.sessionId, now, lastSeenAt: new Date(lastSeenAt) }));
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
