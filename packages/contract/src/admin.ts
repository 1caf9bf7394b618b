import * as z from 'zod/mini';
import { EmailSchema } from './accounts.ts';
import { ErrorKeys } from './errors.ts';
import { ORDER_PAYMENT_METHODS } from './order-history.ts';
import { ORDER_STATUSES, PAYMENT_TYPES } from './orders.ts';

// The operator console's API under /api/admin (docs/console.md): staff sign-in with a password and a
// TOTP code, roles, the audit log, orders and refunds, code stock, customers and balances, the
// dashboard. Staff are not customers: their own accounts and their own tokens.

// ---------------------------------------------------------------------------------------------
// Limits, roles and permissions

export const STAFF_ROLES = ['owner', 'manager', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A staff password: longer than a customer's, since it opens everything. */
export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_MAX = 128;
/** Digits of a TOTP code (RFC 6238, 30-second steps). */
export const TOTP_DIGITS = 6;
/** Recovery codes made for a staff member, each usable once, shown once. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: four groups of four lower-case letters and digits, dashes optional. */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{4}$/;
/** How long a staff token lives. */
export const ADMIN_TOKEN_TTL_MINUTES = 30;
/** A staff member's reason for an action, as the audit log keeps it. */
export const ADMIN_REASON_MIN = 3;
export const ADMIN_REASON_MAX = 500;
/** Rows per page of the console's lists, by default and at most. */
export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** The most text a code import takes at once (a pasted list or a file's text). */
export const CODE_IMPORT_MAX_CHARS = 1_000_000;
/** The longest gift-card code a line may hold. */
export const CODE_MAX_CHARS = 200;

/** What a staff member may do; each route needs one. */
export const ADMIN_PERMISSIONS = [
  'dashboard.read',
  'audit.read',
  'staff.manage',
  'orders.read',
  'orders.refund',
  'orders.resend_receipt',
  'orders.export',
  'codes.read',
  'codes.import',
  'codes.withdraw',
  'codes.reveal',
  'customers.read',
  'customers.balance_adjust',
  'customers.sessions_revoke',
  'customers.block',
  'catalogue.write',
  'promo.write',
  'reviews.moderate',
  'rates.write',
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

const SUPPORT_PERMISSIONS: readonly AdminPermission[] = [
  'dashboard.read',
  'orders.read',
  'orders.resend_receipt',
  'codes.reveal',
  'customers.read',
];
const MANAGER_PERMISSIONS: readonly AdminPermission[] = [
  ...SUPPORT_PERMISSIONS,
  'orders.refund',
  'orders.export',
  'codes.read',
  'codes.import',
  'codes.withdraw',
  'catalogue.write',
  'promo.write',
  'reviews.moderate',
  'rates.write',
];

/**
 * The policy, one table for the server's checks and the console's buttons: support reads orders and
 * customers, resends receipts and reveals a code to a customer's ticket; a manager runs the
 * catalogue, stock, promo codes, orders and refunds; the owner does everything, staff included.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly AdminPermission[]>> = {
  support: SUPPORT_PERMISSIONS,
  manager: MANAGER_PERMISSIONS,
  owner: ADMIN_PERMISSIONS,
};

export function roleMay(role: StaffRole, permission: AdminPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** What the audit log records; `target_type` names what it was done to. */
export const AUDIT_ACTIONS = [
  'staff.sign_in',
  'staff.add',
  'staff.role_change',
  'staff.two_factor_reset',
  'staff.disable',
  'staff.enable',
  'order.refund',
  'order.receipt_resend',
  'order.export',
  'codes.import',
  'codes.withdraw',
  'code.reveal',
  'customer.balance_adjust',
  'customer.sessions_revoke',
  'customer.block',
  'customer.unblock',
  'product.create',
  'product.update',
  'promo.create',
  'promo.update',
  'review.hide',
  'review.restore',
  'rate.set',
  'rate.remove',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'staff',
  'order',
  'product',
  'code',
  'batch',
  'customer',
  'promo',
  'review',
  'rate',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Message keys of the console's own errors; the console translates them. */
export const AdminErrorKeys = {
  /** Wrong email, password or second factor: one answer for all, so none is confirmed. */
  invalidCredentials: 'admin.invalidCredentials',
  secondFactorRequired: 'admin.secondFactorRequired',
  totpInvalid: 'admin.totpInvalid',
  staffDisabled: 'admin.staffDisabled',
  staffExists: 'admin.staffExists',
  lastOwner: 'admin.lastOwner',
  notRefundable: 'admin.notRefundable',
  amountTooLarge: 'admin.amountTooLarge',
  nothingToWithdraw: 'admin.nothingToWithdraw',
  customerBlocked: 'admin.customerBlocked',
  forbidden: 'admin.forbidden',
  unauthorized: 'admin.unauthorized',
} as const;

// ---------------------------------------------------------------------------------------------
// Field rules

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.regex(UUID_PATTERN, { error: ErrorKeys.invalidValue }));

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** An optional query value: blank is absent. */
const optionalQuery = <T extends z.core.SomeType>(schema: T) =>
  z.pipe(z.transform(blankToUndefined), z.optional(schema));

const queryInt = (min: number, max: number) =>
  z.pipe(
    z.pipe(
      z.string({ error: ErrorKeys.notANumber }).check(z.regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })),
      z.transform((value: string) => Number(value)),
    ),
    z.int().check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(max, { error: ErrorKeys.tooLarge })),
  );

/** A day (2026-11-27) or an instant (ISO 8601 with its offset), as a query value. */
const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
const queryDate = z.string({ error: ErrorKeys.invalidValue }).check(
  z.regex(DATE_OR_INSTANT, { error: ErrorKeys.invalidValue }),
  z.refine((value: string) => !Number.isNaN(Date.parse(value)), { error: ErrorKeys.invalidValue }),
);

const pagingShape = {
  page: optionalQuery(queryInt(1, 100_000)),
  page_size: optionalQuery(queryInt(1, ADMIN_PAGE_SIZE_MAX)),
};

/** `from` not after `to`, reported on `to`. */
const fromNotAfterTo = (query: { from?: string | undefined; to?: string | undefined }, ctx: z.core.$RefinementCtx) => {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: ErrorKeys.minAboveMax });
  }
};

/** A staff member's reason for what they do; kept in the audit log. */
export const AdminReasonSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.trim(),
    z.minLength(1, { error: ErrorKeys.requiredField }),
    z.minLength(ADMIN_REASON_MIN, { error: ErrorKeys.tooShort }),
    z.maxLength(ADMIN_REASON_MAX, { error: ErrorKeys.tooLong }),
  );

export const TotpCodeSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.trim(), z.regex(/^\d{6}$/, { error: AdminErrorKeys.totpInvalid }));

export const RecoveryCodeSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.trim(), z.toLowerCase(), z.regex(RECOVERY_CODE_PATTERN, { error: ErrorKeys.invalidValue }));

export const StaffPasswordSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.minLength(1, { error: ErrorKeys.requiredField }),
    z.minLength(STAFF_PASSWORD_MIN, { error: ErrorKeys.passwordTooShort }),
    z.maxLength(STAFF_PASSWORD_MAX, { error: ErrorKeys.tooLong }),
  );

export const StaffRoleSchema = z.enum(STAFF_ROLES, { error: ErrorKeys.unknownOption });

/** The paging of every list: which page, its size and how many rows match in all. */
export const PagingSchema = z.object({ page: z.int(), page_size: z.int(), total: z.int() });
export type Paging = z.infer<typeof PagingSchema>;

export const pageOf = <T extends z.core.SomeType>(item: T) =>
  z.object({ items: z.array(item), page: z.int(), page_size: z.int(), total: z.int() });

/** `{ id }` of a staff member, an order or a customer in the path. */
export const AdminUuidParamsSchema = z.object({ id: uuid });
export type AdminUuidParams = z.infer<typeof AdminUuidParamsSchema>;

/** `{ id }` of a product, a batch, a promo code or a review in the path. */
export const AdminIntParamsSchema = z.object({
  id: z.pipe(
    z.pipe(
      z.string({ error: ErrorKeys.notANumber }).check(z.regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })),
      z.transform((value: string) => Number(value)),
    ),
    z.int().check(z.minimum(1, { error: ErrorKeys.tooSmall })),
  ),
});
export type AdminIntParams = z.infer<typeof AdminIntParamsSchema>;

/** A change that moves money once however often it is sent: the console makes one key per form. */
const idempotencyKey = uuid;

// ---------------------------------------------------------------------------------------------
// Session and staff

/**
 * POST /api/admin/session: the password and either a TOTP code from the authenticator app or one of
 * the recovery codes (each works once).
 */
export const AdminSessionBodySchema = z
  .object({
    email: EmailSchema,
    password: z
      .string({ error: ErrorKeys.requiredField })
      .check(
        z.minLength(1, { error: ErrorKeys.requiredField }),
        z.maxLength(STAFF_PASSWORD_MAX, { error: ErrorKeys.tooLong }),
      ),
    totp: optionalQuery(TotpCodeSchema),
    recovery_code: optionalQuery(RecoveryCodeSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.totp === undefined && body.recovery_code === undefined) {
        ctx.addIssue({ code: 'custom', path: ['totp'], message: AdminErrorKeys.secondFactorRequired });
      }
    }),
  );
export type AdminSessionBody = z.input<typeof AdminSessionBodySchema>;

export const StaffSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  /** False until the first sign-in with a TOTP code proves the authenticator app holds the secret. */
  totp_confirmed: z.boolean(),
  disabled_at: z.nullable(z.string()),
  created_at: z.string(),
  last_sign_in_at: z.nullable(z.string()),
});
export type Staff = z.infer<typeof StaffSchema>;

export const AdminSessionResponseSchema = z.object({
  /** The bearer token for /api/admin/*; it lives ADMIN_TOKEN_TTL_MINUTES. */
  token: z.string(),
  expires_at: z.string(),
  staff: StaffSchema,
  /** Recovery codes left; the console warns when few are. */
  recovery_codes_left: z.int(),
});
export type AdminSessionResponse = z.infer<typeof AdminSessionResponseSchema>;

/** GET /api/admin/me: who is signed in and what they may do. */
export const AdminMeResponseSchema = z.object({
  staff: StaffSchema,
  permissions: z.array(z.enum(ADMIN_PERMISSIONS)),
});
export type AdminMeResponse = z.infer<typeof AdminMeResponseSchema>;

/** GET /api/admin/staff (owner). */
export const StaffListResponseSchema = z.object({ items: z.array(StaffSchema) });
export type StaffListResponse = z.infer<typeof StaffListResponseSchema>;

/** POST /api/admin/staff (owner): a new staff member; they sign in with the password and the app. */
export const StaffAddBodySchema = z.object({
  email: EmailSchema,
  role: StaffRoleSchema,
  password: StaffPasswordSchema,
});
export type StaffAddBody = z.input<typeof StaffAddBodySchema>;

/**
 * The second factor of a staff member, shown once (on adding them or resetting it): the otpauth://
 * URI for the authenticator app (a QR code of it) and the recovery codes.
 */
export const StaffSecretsResponseSchema = z.object({
  staff: StaffSchema,
  otpauth_uri: z.string(),
  recovery_codes: z.array(z.string()),
});
export type StaffSecretsResponse = z.infer<typeof StaffSecretsResponseSchema>;

/** PATCH /api/admin/staff/{id}/role (owner). */
export const StaffRoleBodySchema = z.object({ role: StaffRoleSchema });
export type StaffRoleBody = z.input<typeof StaffRoleBodySchema>;

/** POST /api/admin/staff/{id}/two-factor-reset, /disable, /enable (owner): why. */
export const StaffActionBodySchema = z.object({ reason: AdminReasonSchema });
export type StaffActionBody = z.input<typeof StaffActionBodySchema>;

export const StaffResponseSchema = z.object({ staff: StaffSchema });
export type StaffResponse = z.infer<typeof StaffResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Audit log

/** GET /api/admin/audit: filters, each optional; newest first. */
export const AuditQuerySchema = z
  .object({
    staff_id: optionalQuery(uuid),
    action: optionalQuery(z.enum(AUDIT_ACTIONS, { error: ErrorKeys.unknownOption })),
    target_type: optionalQuery(z.enum(AUDIT_TARGET_TYPES, { error: ErrorKeys.unknownOption })),
    target_id: optionalQuery(
      z
        .string()
        .check(
          z.maxLength(64, { error: ErrorKeys.tooLong }),
          z.regex(/^[A-Za-z0-9_.:-]+$/, { error: ErrorKeys.invalidValue }),
        ),
    ),
    from: optionalQuery(queryDate),
    to: optionalQuery(queryDate),
    ...pagingShape,
  })
  .check(z.superRefine(fromNotAfterTo));
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export const AuditEntrySchema = z.object({
  /** Ascending with time; a string because it is 64-bit. */
  id: z.string(),
  /** Null for the command line (the first owner) and the store itself. */
  staff_id: z.nullable(z.string()),
  staff_email: z.nullable(z.string()),
  /** The role the staff member had when they acted; `cli` for the command line. */
  role: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target_type: z.enum(AUDIT_TARGET_TYPES),
  target_id: z.nullable(z.string()),
  /** What it was and what it became, where that matters; never a secret. */
  before: z.nullable(z.unknown()),
  after: z.nullable(z.unknown()),
  request_id: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = pageOf(AuditEntrySchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;

// ---------------------------------------------------------------------------------------------
// Orders

/**
 * GET /api/admin/orders and /api/admin/orders/export.csv: `q` is an order number (the id's first 8
 * characters) or a whole id; `email` a customer's address or a part of it.
 */
export const AdminOrderSearchQuerySchema = z
  .object({
    q: optionalQuery(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(36, { error: ErrorKeys.tooLong }),
          z.regex(/^[0-9A-Fa-f-]+$/, { error: ErrorKeys.invalidValue }),
        ),
    ),
    email: optionalQuery(z.string().check(z.trim(), z.maxLength(128, { error: ErrorKeys.tooLong }))),
    status: optionalQuery(z.enum(ORDER_STATUSES, { error: ErrorKeys.unknownOption })),
    method: optionalQuery(z.enum(ORDER_PAYMENT_METHODS, { error: ErrorKeys.unknownOption })),
    type: optionalQuery(z.enum(PAYMENT_TYPES, { error: ErrorKeys.unknownOption })),
    from: optionalQuery(queryDate),
    to: optionalQuery(queryDate),
    ...pagingShape,
  })
  .check(z.superRefine(fromNotAfterTo));
export type AdminOrderSearchQuery = z.output<typeof AdminOrderSearchQuerySchema>;

export const AdminOrderListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  user_id: z.string(),
  email: z.string(),
  type: z.enum(PAYMENT_TYPES),
  status: z.enum(ORDER_STATUSES),
  /** How it was paid, or last tried to be; null before any payment. */
  method: z.nullable(z.enum(ORDER_PAYMENT_METHODS)),
  currency: z.string(),
  total_minor: z.int(),
  refunded_minor: z.int(),
  created_at: z.string(),
  paid_at: z.nullable(z.string()),
});
export type AdminOrderListItem = z.infer<typeof AdminOrderListItemSchema>;

export const AdminOrderPageSchema = pageOf(AdminOrderListItemSchema);
export type AdminOrderPage = z.infer<typeof AdminOrderPageSchema>;

export const AdminOrderLineSchema = z.object({
  id: z.string(),
  product_id: z.int(),
  name: z.string(),
  quantity: z.int(),
  unit_price_minor: z.int(),
  discount_minor: z.int(),
  /** The delivered codes' ids (to reveal one with a reason); never the codes. */
  code_ids: z.array(z.string()),
});
export type AdminOrderLine = z.infer<typeof AdminOrderLineSchema>;

export const AdminPaymentSchema = z.object({
  id: z.string(),
  provider: z.string(),
  method: z.enum(ORDER_PAYMENT_METHODS),
  status: z.string(),
  amount_minor: z.int(),
  currency: z.string(),
  provider_payment_id: z.nullable(z.string()),
  card_brand: z.nullable(z.string()),
  card_last4: z.nullable(z.string()),
  created_at: z.string(),
});
export type AdminPayment = z.infer<typeof AdminPaymentSchema>;

/** A provider's callback or answer about one of the order's payments, as stored. */
export const AdminProviderEventSchema = z.object({
  id: z.string(),
  payment_id: z.nullable(z.string()),
  provider: z.string(),
  provider_event_id: z.string(),
  type: z.string(),
  received_at: z.string(),
  processed_at: z.nullable(z.string()),
  /** Why it was set aside (not processed), or null. */
  set_aside: z.nullable(z.string()),
});
export type AdminProviderEvent = z.infer<typeof AdminProviderEventSchema>;

export const AdminProviderRefundSchema = z.object({
  id: z.string(),
  payment_id: z.string(),
  amount_minor: z.int(),
  status: z.string(),
  reason: z.string(),
  created_at: z.string(),
});
export type AdminProviderRefund = z.infer<typeof AdminProviderRefundSchema>;

/** One entry of the order's history (`order_events`), oldest first. */
export const OrderTimelineEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** `customer`, `system`, `provider:<name>`, `operator:<name>`, `staff:<email>`. */
  actor: z.string(),
  kind: z.string(),
  from_status: z.nullable(z.enum(ORDER_STATUSES)),
  to_status: z.nullable(z.enum(ORDER_STATUSES)),
  amount_minor: z.nullable(z.int()),
  payment_id: z.nullable(z.string()),
  detail: z.nullable(z.unknown()),
});
export type OrderTimelineEntry = z.infer<typeof OrderTimelineEntrySchema>;

/** GET /api/admin/orders/{id}. */
export const AdminOrderDetailSchema = z.object({
  order: z.extend(AdminOrderListItemSchema, {
    subtotal_minor: z.int(),
    discount_minor: z.int(),
    promo_code: z.nullable(z.string()),
    expires_at: z.nullable(z.string()),
    /** What may still be refunded to the balance and to the card now. */
    refundable: z.object({ balance_minor: z.int(), card_minor: z.int() }),
  }),
  lines: z.array(AdminOrderLineSchema),
  payments: z.array(AdminPaymentSchema),
  provider_events: z.array(AdminProviderEventSchema),
  refunds: z.array(AdminProviderRefundSchema),
  timeline: z.array(OrderTimelineEntrySchema),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderDetailSchema>;

export const REFUND_DESTINATIONS = ['card', 'balance'] as const;
export type RefundDestinationName = (typeof REFUND_DESTINATIONS)[number];

/**
 * POST /api/admin/orders/{id}/refund (manager): all that is left, or `amount_minor` of it, to the
 * card the order was paid with or to the customer's balance. The same `idempotency_key` again is the
 * same refund, never a second one.
 */
export const AdminRefundBodySchema = z.object({
  to: z.enum(REFUND_DESTINATIONS, { error: ErrorKeys.unknownOption }),
  amount_minor: z.optional(
    z
      .int({ error: ErrorKeys.notANumber })
      .check(
        z.minimum(1, { error: ErrorKeys.tooSmall }),
        z.maximum(Number.MAX_SAFE_INTEGER, { error: ErrorKeys.tooLarge }),
      ),
  ),
  reason: AdminReasonSchema,
  idempotency_key: idempotencyKey,
});
export type AdminRefundBody = z.input<typeof AdminRefundBodySchema>;

export const AdminRefundResponseSchema = z.object({
  to: z.enum(REFUND_DESTINATIONS),
  refunded_minor: z.int(),
  /** The order's status after a refund to the balance; a card refund changes it once the provider has paid. */
  status: z.enum(ORDER_STATUSES),
  /** The refund asked of the provider (card). */
  refund_id: z.nullable(z.string()),
});
export type AdminRefundResponse = z.infer<typeof AdminRefundResponseSchema>;

/** POST /api/admin/orders/{id}/resend-receipt (support): the receipt email, queued again. */
export const AdminResendReceiptResponseSchema = z.object({ email_id: z.string() });
export type AdminResendReceiptResponse = z.infer<typeof AdminResendReceiptResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Code stock

/**
 * POST /api/admin/codes/import (manager): one code a line (a pasted list or a file's text); spaces
 * around a code are trimmed, blank lines skipped. A code that appears earlier in the text or is in
 * stock already (for any product, case aside) is refused and reported by its line number.
 */
export const CodeImportBodySchema = z.object({
  product_id: z.int({ error: ErrorKeys.notANumber }).check(z.minimum(1, { error: ErrorKeys.tooSmall })),
  text: z
    .string({ error: ErrorKeys.requiredField })
    .check(
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(CODE_IMPORT_MAX_CHARS, { error: ErrorKeys.tooLong }),
    ),
  /** The supplier's reference for the batch; the file's name by default. */
  label: z.optional(z.string().check(z.trim(), z.maxLength(100, { error: ErrorKeys.tooLong }))),
});
export type CodeImportBody = z.input<typeof CodeImportBodySchema>;

export const CodeImportReportSchema = z.object({
  /** Null when nothing was added. */
  batch_id: z.nullable(z.int()),
  product_id: z.int(),
  /** Non-blank lines read. */
  lines: z.int(),
  added: z.int(),
  /** Line numbers (1-based) whose code appeared on an earlier line. */
  duplicates_in_file: z.array(z.int()),
  /** Line numbers whose code is in the store already. */
  duplicates_in_stock: z.array(z.int()),
  /** Line numbers longer than CODE_MAX_CHARS. */
  too_long: z.array(z.int()),
});
export type CodeImportReport = z.infer<typeof CodeImportReportSchema>;

/** GET /api/admin/codes/batches (manager). */
export const CodeBatchQuerySchema = z.object({
  product_id: optionalQuery(queryInt(1, 2_147_483_647)),
  ...pagingShape,
});
export type CodeBatchQuery = z.output<typeof CodeBatchQuerySchema>;

/** An import and what became of its codes; never a code. */
export const CodeBatchSchema = z.object({
  id: z.int(),
  product_id: z.int(),
  product_name: z.string(),
  label: z.nullable(z.string()),
  created_at: z.string(),
  created_by: z.nullable(z.string()),
  available: z.int(),
  reserved: z.int(),
  sold: z.int(),
  withdrawn: z.int(),
});
export type CodeBatch = z.infer<typeof CodeBatchSchema>;

export const CodeBatchPageSchema = pageOf(CodeBatchSchema);
export type CodeBatchPage = z.infer<typeof CodeBatchPageSchema>;

/**
 * POST /api/admin/codes/batches/{id}/withdraw (manager): takes the batch's available codes out of
 * stock and answers them, once, for the supplier (export then remove). Reserved and sold codes stay.
 */
export const CodeWithdrawBodySchema = z.object({ reason: AdminReasonSchema });
export type CodeWithdrawBody = z.input<typeof CodeWithdrawBodySchema>;

export const CodeWithdrawResponseSchema = z.object({
  batch_id: z.int(),
  withdrawn: z.int(),
  codes: z.array(z.string()),
});
export type CodeWithdrawResponse = z.infer<typeof CodeWithdrawResponseSchema>;

/** POST /api/admin/codes/{id}/reveal (support): one sold code, for a customer's ticket. */
export const CodeRevealBodySchema = z.object({ reason: AdminReasonSchema });
export type CodeRevealBody = z.input<typeof CodeRevealBodySchema>;

export const CodeRevealResponseSchema = z.object({ code_id: z.string(), code: z.string() });
export type CodeRevealResponse = z.infer<typeof CodeRevealResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Customers

/** GET /api/admin/customers: `q` is a part of the address or the name, or a whole id. */
export const CustomerSearchQuerySchema = z.object({
  q: optionalQuery(z.string().check(z.trim(), z.maxLength(128, { error: ErrorKeys.tooLong }))),
  blocked: optionalQuery(z.enum(['true', 'false'], { error: ErrorKeys.unknownOption })),
  ...pagingShape,
});
export type CustomerSearchQuery = z.output<typeof CustomerSearchQuerySchema>;

export const AdminCustomerSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  locale: z.string(),
  email_verified: z.boolean(),
  balance_minor: z.int(),
  owed_minor: z.int(),
  created_at: z.string(),
  blocked_at: z.nullable(z.string()),
  deleted_at: z.nullable(z.string()),
});
export type AdminCustomer = z.infer<typeof AdminCustomerSchema>;

export const AdminCustomerPageSchema = pageOf(AdminCustomerSchema);
export type AdminCustomerPage = z.infer<typeof AdminCustomerPageSchema>;

export const AdminLedgerEntrySchema = z.object({
  id: z.string(),
  transfer_id: z.string(),
  /** `balance` or `receivable`. */
  account: z.string(),
  amount_minor: z.int(),
  kind: z.string(),
  order_id: z.nullable(z.string()),
  at: z.string(),
});
export type AdminLedgerEntry = z.infer<typeof AdminLedgerEntrySchema>;

/** GET /api/admin/customers/{id}: the profile, the latest orders and ledger entries. */
export const AdminCustomerDetailSchema = z.object({
  customer: AdminCustomerSchema,
  active_sessions: z.int(),
  orders: z.array(AdminOrderListItemSchema),
  ledger: z.array(AdminLedgerEntrySchema),
});
export type AdminCustomerDetail = z.infer<typeof AdminCustomerDetailSchema>;

/**
 * POST /api/admin/customers/{id}/balance (owner): adds (positive) or takes (negative) minor units,
 * with a reason and a fresh TOTP code; the same `idempotency_key` again is the same adjustment.
 */
export const BalanceAdjustBodySchema = z.object({
  amount_minor: z.int({ error: ErrorKeys.notANumber }).check(
    z.minimum(-1_000_000_000, { error: ErrorKeys.tooSmall }),
    z.maximum(1_000_000_000, { error: ErrorKeys.tooLarge }),
    z.refine((value: number) => value !== 0, { error: ErrorKeys.invalidValue }),
  ),
  reason: AdminReasonSchema,
  totp: TotpCodeSchema,
  idempotency_key: idempotencyKey,
});
export type BalanceAdjustBody = z.input<typeof BalanceAdjustBodySchema>;

export const BalanceAdjustResponseSchema = z.object({
  transfer_id: z.string(),
  balance_minor: z.int(),
});
export type BalanceAdjustResponse = z.infer<typeof BalanceAdjustResponseSchema>;

/** POST /api/admin/customers/{id}/block, /unblock, /revoke-sessions: why. */
export const CustomerActionBodySchema = z.object({ reason: AdminReasonSchema });
export type CustomerActionBody = z.input<typeof CustomerActionBodySchema>;

export const CustomerActionResponseSchema = z.object({
  customer: AdminCustomerSchema,
  /** Sessions ended by it. */
  sessions_revoked: z.int(),
});
export type CustomerActionResponse = z.infer<typeof CustomerActionResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Dashboard

export const SalesPointSchema = z.object({ day: z.string(), orders: z.int(), amount_minor: z.int() });
export type SalesPoint = z.infer<typeof SalesPointSchema>;

const salesTotal = z.object({ orders: z.int(), amount_minor: z.int() });

/** GET /api/admin/dashboard. */
export const DashboardResponseSchema = z.object({
  currency: z.string(),
  sales: z.object({
    today: salesTotal,
    days_7: salesTotal,
    days_30: salesTotal,
    /** One point a day for the last 30 days, oldest first (UTC days). */
    series: z.array(SalesPointSchema),
  }),
  orders_by_status: z.record(z.string(), z.int()),
  low_stock: z.array(z.object({ product_id: z.int(), name: z.string(), available: z.int(), threshold: z.int() })),
  payment_events: z.object({ set_aside: z.int(), dead_lettered: z.int() }),
  emails_failing: z.int(),
  receivables: z.object({ customers: z.int(), owed_minor: z.int() }),
});
export type DashboardResponse = z.infer<typeof DashboardResponseSchema>;

const ADMIN_ERROR_KEY_SET: ReadonlySet<string> = new Set(Object.values(AdminErrorKeys));

/** A key of the console's own errors (the server passes it through as a schema named it). */
export function isAdminErrorKey(value: string): boolean {
  return ADMIN_ERROR_KEY_SET.has(value);
}
