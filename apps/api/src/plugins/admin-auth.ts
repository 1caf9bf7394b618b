import { createHmac } from 'node:crypto';
import jwt from '@fastify/jwt';
import { ADMIN_TOKEN_TTL_MINUTES, type AdminPermission, roleMay } from '@store/contract';
import {
  type AuditActor,
  ForbiddenError,
  type StaffPrincipal,
  type StaffService,
  UnauthorizedError,
} from '@store/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The audience of staff tokens: the shop's routes take only JWT_AUDIENCE, these only this. */
export const ADMIN_JWT_AUDIENCE = 'giftstore-admin';
const ADMIN_JWT_ISSUER = 'giftstore';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface AdminClaims {
  sub: string;
  /** The staff row's token version when the token was made. */
  ver: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff service (the store has the code key wherever the API runs). */
    staffService: StaffService;
    /** onRequest hook of the console's routes: a live staff token whose role may do `permission`. */
    requireStaff(permission: AdminPermission): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    signStaffToken(claims: AdminClaims): { token: string; expiresAt: Date };
  }
  interface FastifyRequest {
    staff: StaffPrincipal | undefined;
  }
}

/** Who did it, for the audit log: the signed-in staff member, this request and its address. */
export function auditActor(request: FastifyRequest): AuditActor {
  const principal = request.staff;
  if (!principal) throw new UnauthorizedError();
  return {
    staffId: principal.staff.id,
    role: principal.role,
    name: principal.staff.email,
    requestId: request.id,
    ip: request.ip,
  };
}

/**
 * Staff tokens: HS256 JWTs under a key of their own (derived from JWT_SECRET) and their own audience,
 * so a customer's token gets 401 on /api/admin and a staff token 401 on the shop's private routes.
 * They live ADMIN_TOKEN_TTL_MINUTES, and each request checks the staff row: a disabled member, a
 * changed role or a reset second factor ends every token made before.
 */
export default fp(
  async function adminAuth(app: FastifyInstance, { staff }: { staff: StaffService }) {
    const secret = createHmac('sha256', app.env.JWT_SECRET).update('store/admin-tokens').digest('hex');
    await app.register(jwt, {
      namespace: 'admin',
      secret,
      sign: {
        algorithm: 'HS256',
        iss: ADMIN_JWT_ISSUER,
        aud: ADMIN_JWT_AUDIENCE,
        expiresIn: `${ADMIN_TOKEN_TTL_MINUTES}m`,
      },
      verify: {
        algorithms: ['HS256'],
        allowedIss: ADMIN_JWT_ISSUER,
        allowedAud: ADMIN_JWT_AUDIENCE,
        requiredClaims: ['sub', 'ver', 'exp', 'iss', 'aud'],
      },
    });
    const signer = (
      app.jwt as unknown as Record<string, { sign(payload: object): string; verify<T>(token: string): T }>
    ).admin;
    if (!signer) throw new Error('the admin token signer was not registered');

    app.decorate('staffService', staff);
    app.decorateRequest('staff', undefined);
    app.decorate('signStaffToken', (claims: AdminClaims) => ({
      token: signer.sign({ sub: claims.sub, ver: claims.ver }),
      expiresAt: new Date(Date.now() + ADMIN_TOKEN_TTL_MINUTES * 60_000),
    }));
    app.decorate('requireStaff', (permission: AdminPermission) => async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError();
      let claims: AdminClaims;
      try {
        claims = signer.verify<AdminClaims>(token);
      } catch {
        throw new UnauthorizedError();
      }
      if (typeof claims.sub !== 'string' || !UUID.test(claims.sub) || !Number.isInteger(claims.ver)) {
        throw new UnauthorizedError();
      }
      const principal = await staff.principal(claims.sub, claims.ver);
      request.staff = principal;
      if (!roleMay(principal.role, permission)) throw new ForbiddenError('Your role may not do this.');
    });
  },
  { name: 'admin-auth', dependencies: ['auth'] },
);
