import { z } from 'zod';

/** Queue names and job payloads. The worker parses every payload it receives with these. */
export const QUEUE_NAME = 'store';
/**
 * The lane of `payment.event` and `payment.refund` jobs, apart from mail and health: fulfilment never waits behind a slow
 * mail server, and its concurrency (bounded by the database's cores, not by network waits) is set
 * on its own.
 */
export const PAYMENTS_QUEUE_NAME = 'store-payments';
/** Every queue the worker serves. */
export const QUEUE_NAMES = [QUEUE_NAME, PAYMENTS_QUEUE_NAME] as const;

/**
 * The trace of what enqueued a job (W3C trace context), when traces are on: the job's run joins it.
 * It names a trace, nothing more; a job without it starts none of its own.
 */
export const JobTraceSchema = z.object({
  traceparent: z.string().regex(/^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/),
  tracestate: z.string().max(512).optional(),
});
export type JobTrace = z.infer<typeof JobTraceSchema>;

export const HealthJobSchema = z.object({
  kind: z.literal('health'),
  trace: JobTraceSchema.optional(),
  requestedAt: z.iso.datetime(),
  nonce: z.string().min(1).max(64),
});
export type HealthJob = z.infer<typeof HealthJobSchema>;

/** Sends one row of `outbound_emails`; the row holds the address, template, language and data. */
export const EmailSendJobSchema = z.object({
  kind: z.literal('email.send'),
  emailId: z.uuid(),
  trace: JobTraceSchema.optional(),
});
export type EmailSendJob = z.infer<typeof EmailSendJobSchema>;

/**
 * Applies one stored provider event (a row of `payment_events`): the one path that marks an order
 * paid and fulfils it. The row holds the event; the job only names it.
 */
export const PaymentEventJobSchema = z.object({
  kind: z.literal('payment.event'),
  eventId: z.uuid(),
  trace: JobTraceSchema.optional(),
});
export type PaymentEventJob = z.infer<typeof PaymentEventJobSchema>;

/**
 * Sends one refund the store asked of the provider (a row of `provider_refunds`): to the card or
 * account the payment came from. The row holds the refund; the job only names it.
 */
export const PaymentRefundJobSchema = z.object({
  kind: z.literal('payment.refund'),
  refundId: z.uuid(),
  trace: JobTraceSchema.optional(),
});
export type PaymentRefundJob = z.infer<typeof PaymentRefundJobSchema>;

export const JobSchema = z.discriminatedUnion('kind', [
  HealthJobSchema,
  EmailSendJobSchema,
  PaymentEventJobSchema,
  PaymentRefundJobSchema,
]);
export type Job = z.infer<typeof JobSchema>;
export type JobKind = Job['kind'];

/** The queue a job of `kind` goes through: the payments lane for what moves money. */
export const queueNameOf = (kind: JobKind): string =>
  kind === 'payment.event' || kind === 'payment.refund' ? PAYMENTS_QUEUE_NAME : QUEUE_NAME;
