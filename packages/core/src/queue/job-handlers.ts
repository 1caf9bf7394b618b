import type { HealthJob, Job, JobKind } from '@store/contract';
import type { PrismaClient } from '@store/db';
import type { Logger } from '../shared/logger.ts';

export type JobOf<K extends JobKind> = Extract<Job, { kind: K }>;
export type JobHandlers = { [K in JobKind]: (job: JobOf<K>) => Promise<unknown> };

export interface HealthResult {
  nonce: string;
  handledAt: string;
  database: 'ok';
}

export interface JobHandlerDeps {
  db: PrismaClient;
  logger: Logger;
}

/** The handlers of every job kind; the in-process queue and the BullMQ worker both run these. */
export function createJobHandlers({ db, logger }: JobHandlerDeps): JobHandlers {
  return {
    async health(job: HealthJob): Promise<HealthResult> {
      await db.$queryRaw`SELECT 1`;
      logger.debug({ nonce: job.nonce }, 'health job handled');
      return { nonce: job.nonce, handledAt: new Date().toISOString(), database: 'ok' };
    },
  };
}

export function runJob(handlers: JobHandlers, job: Job): Promise<unknown> {
  // The union is closed by JobSchema, so the handler for `job.kind` accepts `job`.
  const handler = handlers[job.kind] as (job: Job) => Promise<unknown>;
  return handler(job);
}
