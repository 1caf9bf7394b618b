import type { EmailSendJob, HealthJob, Job, PaymentEventJob, PaymentRefundJob } from '@store/contract';
import { qb, type SqlClient } from '@store/db';
import { createEmailDelivery, type DeliveryResult } from '../mail/email-delivery.ts';
import type { Mailer } from '../mail/mail-types.ts';
import { inJobSpan } from '../observability/tracing.ts';
import type { PaymentEventProcessor, ProcessResult } from '../payments/payment-events.ts';
import type { ProviderRefunds, RefundSendOutcome } from '../payments/provider-refunds.ts';
import type { Logger } from '../shared/logger.ts';
import type { HealthResult, JobContext, JobHandlers } from './job-queue.ts';

export interface JobHandlerDeps {
  sql: SqlClient;
  logger: Logger;
  /** Delivers `email.send` jobs: SMTP in the full stack, the dev outbox in the embedded mode. */
  mailer: Mailer;
  /**
   * Applies `payment.event` jobs: the one path that completes a provider-paid order. A process
   * without it (a test of mail alone) fails such a job, and the stored event waits for one that has it.
   */
  paymentEvents?: PaymentEventProcessor;
  /**
   * Sends `payment.refund` jobs to the provider. A process without it (no provider configured) fails
   * such a job, and the refund waits, PENDING, for one that has it.
   */
  providerRefunds?: ProviderRefunds;
}

/** The handlers of every job kind; the in-process queue and the BullMQ worker both run these. */
export function createJobHandlers({
  sql,
  logger,
  mailer,
  paymentEvents,
  providerRefunds,
}: JobHandlerDeps): JobHandlers {
  const delivery = createEmailDelivery({ sql, mailer, logger });
  return {
    async health(job: HealthJob): Promise<HealthResult> {
      await sql.query(qb.selectNoFrom((eb) => eb.lit(1).as('one')));
      logger.debug({ nonce: job.nonce }, 'health job handled');
      return { nonce: job.nonce, handledAt: new Date().toISOString(), database: 'ok' };
    },
    'email.send'(job: EmailSendJob, context?: JobContext): Promise<DeliveryResult> {
      return delivery.deliverEmail(job.emailId, context);
    },
    async 'payment.event'(job: PaymentEventJob): Promise<ProcessResult> {
      if (!paymentEvents) throw new Error('this process applies no payment events');
      return paymentEvents.processEvent(job.eventId);
    },
    async 'payment.refund'(job: PaymentRefundJob): Promise<RefundSendOutcome> {
      if (!providerRefunds) throw new Error('this process sends no refunds: it has no payment provider');
      return providerRefunds.sendRefund(job.refundId);
    },
  };
}

/** Runs a job with its handler, in a span of the trace that enqueued it when traces are on. */
export function runJob(handlers: JobHandlers, job: Job, context?: JobContext): Promise<unknown> {
  // The union is closed by JobSchema, so the handler for `job.kind` accepts `job`.
  const handler = handlers[job.kind] as (job: Job, context?: JobContext) => Promise<unknown>;
  return inJobSpan(job, () => handler(job, context));
}
