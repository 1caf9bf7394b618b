import jwt from '@fastify/jwt';
import { type AuthenticatedSession, UnauthorizedError } from '@store/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Issuer and audience of our bearer tokens: a token minted for anything else is refused. */
export const JWT_ISSUER = 'giftstore';
export const JWT_AUDIENCE = 'giftstore';

/** Claims of a bearer token: the user and the session row that must still be live. */
interface TokenClaims {
  sub: string;
  sid: string;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: AuthenticatedSession;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of authenticated routes: a valid bearer token of a live session, or 401. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The bearer token for a new session. */
    signSessionToken(session: AuthenticatedSession): string;
  }
}

/**
 * Bearer tokens: HS256 JWTs naming a session row (`sid`). The signature proves who issued them; the
 * session row decides whether they still work, so logout and password changes revoke them on the
 * server. Each instance takes a session it checked in the last few seconds on trust and forgets it
 * the moment it ends (packages/core accounts/sessions.ts).
 */
export default fp(
  async function auth(app: FastifyInstance) {
    const { env, services } = app;
    await app.register(jwt, {
      secret: env.JWT_SECRET,
      sign: { algorithm: 'HS256', iss: JWT_ISSUER, aud: JWT_AUDIENCE, expiresIn: `${env.SESSION_TTL_HOURS}h` },
      verify: {
        algorithms: ['HS256'],
        allowedIss: JWT_ISSUER,
        allowedAud: JWT_AUDIENCE,
        requiredClaims: ['sub', 'sid', 'exp', 'iss', 'aud'],
      },
      formatUser: (payload) => ({ userId: String(payload.sub), sessionId: String(payload.sid) }),
    });

    app.decorate('signSessionToken', (session: AuthenticatedSession) =>
      app.jwt.sign({ sub: session.userId, sid: session.sessionId }),
    );

    app.decorate('authenticate', async (request: FastifyRequest) => {
      try {
        // Sets request.user to formatUser's result.
        await request.jwtVerify();
      } catch {
        // Missing, malformed, forged and expired tokens all get the same answer.
        throw new UnauthorizedError();
      }
      request.user = await services.accounts.authenticate(request.user);
    });
  },
  { name: 'auth' },
);
