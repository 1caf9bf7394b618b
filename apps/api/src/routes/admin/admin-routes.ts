import {
  AdminMeResponseSchema,
  AdminOrderDetailSchema,
  AdminOrderPageSchema,
  AdminOrderSearchQuerySchema,
  AdminRefundBodySchema,
  AdminRefundResponseSchema,
  AdminResendReceiptResponseSchema,
  AdminSessionBodySchema,
  AdminSessionResponseSchema,
  AdminUuidParamsSchema,
  AuditPageSchema,
  AuditQuerySchema,
  MessageErrorSchema,
  ROLE_PERMISSIONS,
  StaffActionBodySchema,
  StaffAddBodySchema,
  StaffListResponseSchema,
  StaffResponseSchema,
  StaffRoleBodySchema,
  StaffSecretsResponseSchema,
} from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActor } from '../../plugins/admin-auth.ts';
import { adminSecurity, adminTags, conflict, denied, invalid, missing } from './route-schemas.ts';

/**
 * The operator console's API (docs/console.md): staff sign-in, the audit log, orders and refunds,
 * staff management. Every route names the permission it needs; every change is audited by the core
 * service in the change's transaction.
 */
export default async function adminRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'auditLog' | 'adminOrders'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staff = app.staffService;
  const { auditLog, adminOrders } = store;
  const tags = adminTags;
  const security = adminSecurity;
  const read = app.rateLimitPreset('read');
  const write = app.rateLimitPreset('write');

  app.post(
    '/session',
    {
      config: { rateLimit: app.rateLimitPreset('login') },
      schema: {
        tags,
        body: AdminSessionBodySchema,
        response: { 200: AdminSessionResponseSchema, ...invalid, 429: MessageErrorSchema },
      },
    },
    async (request) => {
      const { email, password, totp, recovery_code: recoveryCode } = request.body;
      const signedIn = await staff.signIn(
        { email, password, totp, recoveryCode },
        { requestId: request.id, ip: request.ip },
      );
      const { token, expiresAt } = app.signStaffToken({ sub: signedIn.staff.id, ver: signedIn.tokenVersion });
      return {
        token,
        expires_at: expiresAt.toISOString(),
        staff: signedIn.staff,
        recovery_codes_left: signedIn.recoveryCodesLeft,
      };
    },
  );

  app.get(
    '/me',
    {
      onRequest: app.requireStaff('dashboard.read'),
      config: { rateLimit: read },
      schema: { tags, security, response: { 200: AdminMeResponseSchema, ...denied } },
    },
    async (request) => {
      const principal = request.staff;
      if (!principal) throw new Error('requireStaff sets the staff member');
      return { staff: principal.staff, permissions: [...ROLE_PERMISSIONS[principal.role]] };
    },
  );

  app.get(
    '/audit',
    {
      onRequest: app.requireStaff('audit.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...denied, ...invalid },
      },
    },
    (request) => auditLog.list(request.query),
  );

  // Orders ------------------------------------------------------------------------------------

  app.get(
    '/orders',
    {
      onRequest: app.requireStaff('orders.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        querystring: AdminOrderSearchQuerySchema,
        response: { 200: AdminOrderPageSchema, ...denied, ...invalid },
      },
    },
    (request) => adminOrders.search(request.query),
  );

  app.get(
    '/orders/export.csv',
    {
      onRequest: app.requireStaff('orders.export'),
      config: { rateLimit: write },
      schema: { tags, security, querystring: AdminOrderSearchQuerySchema, response: { ...denied, ...invalid } },
    },
    async (request, reply) => {
      const csv = await adminOrders.exportCsv(request.query, auditActor(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="orders.csv"')
        .send(csv as never);
    },
  );

  app.get(
    '/orders/:id',
    {
      onRequest: app.requireStaff('orders.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        response: { 200: AdminOrderDetailSchema, ...denied, ...invalid, ...missing },
      },
    },
    (request) => adminOrders.detail(request.params.id),
  );

  app.post(
    '/orders/:id/refund',
    {
      onRequest: app.requireStaff('orders.refund'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: AdminRefundBodySchema,
        response: { 200: AdminRefundResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
      },
    },
    (request) => adminOrders.refund(request.params.id, request.body, auditActor(request)),
  );

  app.post(
    '/orders/:id/resend-receipt',
    {
      onRequest: app.requireStaff('orders.resend_receipt'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        response: { 200: AdminResendReceiptResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
      },
    },
    async (request) => ({
      email_id: (await adminOrders.resendReceipt(request.params.id, auditActor(request))).emailId,
    }),
  );

  // Staff (owner) -----------------------------------------------------------------------------

  app.get(
    '/staff',
    {
      onRequest: app.requireStaff('staff.manage'),
      config: { rateLimit: read },
      schema: { tags, security, response: { 200: StaffListResponseSchema, ...denied } },
    },
    async () => ({ items: await staff.listStaff() }),
  );

  app.post(
    '/staff',
    {
      onRequest: app.requireStaff('staff.manage'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        body: StaffAddBodySchema,
        response: { 201: StaffSecretsResponseSchema, ...denied, ...invalid },
      },
    },
    async (request, reply) => {
      const added = await staff.addStaff(request.body, auditActor(request));
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ staff: added.staff, otpauth_uri: added.otpauthUri, recovery_codes: added.recoveryCodes });
    },
  );

  app.patch(
    '/staff/:id/role',
    {
      onRequest: app.requireStaff('staff.manage'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: StaffRoleBodySchema,
        response: { 200: StaffResponseSchema, ...denied, ...invalid, ...missing },
      },
    },
    async (request) => ({ staff: await staff.changeRole(request.params.id, request.body.role, auditActor(request)) }),
  );

  app.post(
    '/staff/:id/two-factor-reset',
    {
      onRequest: app.requireStaff('staff.manage'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: StaffActionBodySchema,
        response: { 200: StaffSecretsResponseSchema, ...denied, ...invalid, ...missing },
      },
    },
    async (request, reply) => {
      const reset = await staff.resetTwoFactor(request.params.id, request.body.reason, auditActor(request));
      return reply
        .header('cache-control', 'no-store')
        .send({ staff: reset.staff, otpauth_uri: reset.otpauthUri, recovery_codes: reset.recoveryCodes });
    },
  );

  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/staff/:id/${path}`,
      {
        onRequest: app.requireStaff('staff.manage'),
        config: { rateLimit: write },
        schema: {
          tags,
          security,
          params: AdminUuidParamsSchema,
          body: StaffActionBodySchema,
          response: { 200: StaffResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
        },
      },
      async (request) => ({
        staff: await staff.setDisabled(request.params.id, disabled, request.body.reason, auditActor(request)),
      }),
    );
  }
}
