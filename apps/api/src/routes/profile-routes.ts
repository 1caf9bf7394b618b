import {
  AccountDeleteRequestSchema,
  AccountExportSchema,
  AuthResponseSchema,
  EmailUpdateRequestSchema,
  LocaleUpdateRequestSchema,
  MessageErrorSchema,
  NameUpdateRequestSchema,
  OkResponseSchema,
  PasswordUpdateRequestSchema,
  TokenBodySchema,
  TokenParamsSchema,
  UserResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 401: MessageErrorSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema };

/**
 * Profile changes of the signed-in customer (docs/api.md, "Accounts and profile"). Email and password
 * changes are two steps: a request that mails a link, then the confirmation with the link's token. A
 * confirmed change of address mails the old address a link that undoes it, which works signed out.
 */
export default async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { accounts } = app.services;
  const tags = ['profile'];
  const security = [{ bearer: [] }];
  const onRequest = app.authenticate;
  const write = { rateLimit: app.rateLimitPreset('write') };
  const mailing = { rateLimit: app.rateLimitPreset('emailVerify') };

  app.post(
    '/profile/email-verify-request',
    { onRequest, config: mailing, schema: { tags, security, response: { 200: OkResponseSchema, ...errors } } },
    async (request) => {
      await accounts.requestEmailVerification(request.user.userId);
      return { ok: true as const, message: 'A confirmation link is on its way to your email.' };
    },
  );

  app.post(
    '/profile/activation-request',
    {
      onRequest,
      config: mailing,
      schema: { tags, security, response: { 200: OkResponseSchema, 409: MessageErrorSchema, ...errors } },
    },
    async (request) => {
      await accounts.requestActivation(request.user.userId);
      return { ok: true as const, message: 'An activation link is on its way to your email.' };
    },
  );

  app.post(
    '/profile/email-verify',
    {
      onRequest,
      config: mailing,
      schema: { tags, security, body: TokenBodySchema, response: { 200: AuthResponseSchema, ...errors } },
    },
    // SPEC.md's client keeps the token this answers: a fresh one for the same session, so a client
    // that stores it and one that keeps its own are both signed in.
    async (request) => ({
      user: await accounts.verifyEmail(request.user.userId, request.body.token),
      token: app.signSessionToken(request.user),
    }),
  );

  app.patch(
    '/profile/email-update',
    {
      onRequest,
      // It mails an address the caller names and checks the current password when sent: the mailing
      // limit, tighter than a login's, bounds both the mail sent and the passwords tried.
      config: mailing,
      schema: { tags, security, body: EmailUpdateRequestSchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      const { email, password } = request.body;
      await accounts.requestEmailChange(request.user.userId, { email, password });
      // The same words whether the address is free (it gets the link) or taken (its holder is told).
      return { ok: true as const, message: 'A message is on its way to the new address.' };
    },
  );

  app.patch(
    '/profile/email-update-confirmation/:token',
    {
      onRequest,
      config: write,
      schema: { tags, security, params: TokenParamsSchema, response: { 200: UserResponseSchema, ...errors } },
    },
    async (request) => ({ user: await accounts.confirmEmailChange(request.user, request.params.token) }),
  );

  app.post(
    '/profile/email-update/undo/:token',
    {
      // The link's token is the credential: it was mailed to the address the change left, and the
      // undo signs every session out, so whoever follows it may well be signed out already.
      config: mailing,
      schema: {
        tags,
        summary: 'Undoes a change of address from the link mailed to the old address',
        params: TokenParamsSchema,
        response: { 200: OkResponseSchema, 409: MessageErrorSchema, 422: errors[422], 429: errors[429] },
      },
    },
    async (request) => {
      await accounts.undoEmailChange(request.params.token);
      return {
        ok: true as const,
        message: 'The address is back and every session was signed out. A link to choose a new password is on its way.',
      };
    },
  );

  app.patch(
    '/profile/password-update',
    {
      onRequest,
      // It checks the current password: as guessable as a login.
      config: { rateLimit: app.rateLimitPreset('login') },
      schema: { tags, security, body: PasswordUpdateRequestSchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      const { password, newPassword } = request.body;
      await accounts.requestPasswordChange(request.user.userId, { password, newPassword });
      return { ok: true as const, message: 'A confirmation link is on its way to your email.' };
    },
  );

  app.post(
    '/profile/password-update-confirmation',
    {
      onRequest,
      config: write,
      schema: { tags, security, body: TokenBodySchema, response: { 200: OkResponseSchema, ...errors } },
    },
    async (request) => {
      await accounts.confirmPasswordChange(request.user, request.body.token);
      return { ok: true as const, message: 'Your password has been changed. Other sessions were signed out.' };
    },
  );

  app.patch(
    '/profile/name-update',
    {
      onRequest,
      config: write,
      schema: { tags, security, body: NameUpdateRequestSchema, response: { 200: UserResponseSchema, ...errors } },
    },
    async (request) => ({ user: await accounts.updateName(request.user.userId, request.body.name) }),
  );

  app.get(
    '/profile/export',
    {
      onRequest,
      // Reads every table that names the customer: more than a page's worth, so the mailing limit.
      config: mailing,
      schema: {
        tags,
        security,
        summary: 'Everything the store holds about the customer, as a JSON download',
        response: { 200: AccountExportSchema, ...errors },
      },
    },
    async (request, reply) => {
      const data = await accounts.exportData(request.user.userId);
      const day = data.exported_at.slice(0, 10);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="account-data-${day}.json"`);
      return data;
    },
  );

  app.delete(
    '/profile',
    {
      onRequest,
      // It checks the current password, as a password change does: as guessable as a login.
      config: { rateLimit: app.rateLimitPreset('login') },
      schema: {
        tags,
        security,
        summary: 'Deletes the account: erases the personal data, keeps the orders anonymised for the books',
        body: AccountDeleteRequestSchema,
        response: { 200: OkResponseSchema, 409: MessageErrorSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.deleteAccount(request.user.userId, request.body.password);
      return { ok: true as const, message: 'Your account was deleted. Every session was signed out.' };
    },
  );

  app.patch(
    '/profile/locale',
    {
      onRequest,
      config: write,
      schema: { tags, security, body: LocaleUpdateRequestSchema, response: { 200: UserResponseSchema, ...errors } },
    },
    async (request) => ({ user: await accounts.updateLocale(request.user.userId, request.body.locale) }),
  );
}
