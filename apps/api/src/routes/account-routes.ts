import {
  AuthResponseSchema,
  BalanceResponseSchema,
  LoginRequestSchema,
  MessageErrorSchema,
  OkResponseSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  RegisterRequestSchema,
  TokenBodySchema,
  TokenParamsSchema,
  UserResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const errors = { 422: ValidationErrorSchema, 429: MessageErrorSchema };
const authErrors = { 401: MessageErrorSchema, 429: MessageErrorSchema };

const sessionMeta = (request: FastifyRequest) => ({
  userAgent: request.headers['user-agent'],
  ip: request.ip,
});

/**
 * Registration, login and logout, the current user, password reset, activation (docs/api.md, "Accounts
 * and profile").
 */
export default async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { accounts } = app.services;
  const tags = ['accounts'];
  const security = [{ bearer: [] }];

  app.post(
    '/register',
    {
      config: { rateLimit: app.rateLimitPreset('register') },
      schema: { tags, body: RegisterRequestSchema, response: { 201: AuthResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const { name, email, password, locale } = request.body;
      const { user, sessionId } = await accounts.register({ name, email, password, locale }, sessionMeta(request));
      const token = app.signSessionToken({ userId: user.id, sessionId });
      return reply.code(201).send({ token, user });
    },
  );

  app.post(
    '/login',
    {
      config: { rateLimit: app.rateLimitPreset('login') },
      preHandler: app.loginThrottle.check,
      onResponse: app.loginThrottle.record,
      schema: { tags, body: LoginRequestSchema, response: { 200: AuthResponseSchema, ...errors } },
    },
    async (request) => {
      const { user, sessionId } = await accounts.login(request.body, sessionMeta(request));
      return { token: app.signSessionToken({ userId: user.id, sessionId }), user };
    },
  );

  app.post(
    '/logout',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: { tags, security, response: { 204: z.null(), ...authErrors } },
    },
    async (request, reply) => {
      await accounts.logout(request.user);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/user',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: { tags, security, response: { 200: UserResponseSchema, ...authErrors } },
    },
    async (request) => ({ user: await accounts.getUser(request.user.userId) }),
  );

  app.get(
    '/user/balance',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: { tags, security, response: { 200: BalanceResponseSchema, ...authErrors } },
    },
    (request) => accounts.getBalance(request.user.userId),
  );

  app.post(
    '/password-reset',
    {
      config: { rateLimit: app.rateLimitPreset('passwordReset') },
      schema: { tags, body: PasswordResetRequestSchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      await accounts.requestPasswordReset(request.body.email);
      return { ok: true as const, message: 'A reset link is on its way to this address.' };
    },
  );

  app.get(
    '/password-reset/:token',
    {
      config: { rateLimit: app.rateLimitPreset('passwordReset') },
      schema: { tags, params: TokenParamsSchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      // Only reads: the link stays usable for the PATCH that sets the password.
      await accounts.checkPasswordResetToken(request.params.token);
      return { ok: true as const, message: 'This link can set a new password.' };
    },
  );

  app.patch(
    '/password-reset/:token',
    {
      config: { rateLimit: app.rateLimitPreset('passwordReset') },
      schema: {
        tags,
        params: TokenParamsSchema,
        body: PasswordResetConfirmSchema,
        response: { 200: OkResponseSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.params.token, request.body.password);
      return { ok: true as const, message: 'Your password has been set. Please log in again.' };
    },
  );

  app.post(
    '/account/activate',
    {
      config: { rateLimit: app.rateLimitPreset('emailVerify') },
      schema: { tags, body: TokenBodySchema, response: { 200: UserResponseSchema, ...errors } },
    },
    async (request) => ({ user: await accounts.activateAccount(request.body.token) }),
  );
}
