import type { Job } from '@store/contract';
import type { HealthResult } from './job-handlers.ts';

export interface EnqueueOptions {
  /** A job with the same id is enqueued once (BullMQ dedupes by id; the in-process queue too). */
  jobId?: string;
  delayMs?: number;
}

/** The queue port: BullMQ on Redis in the full stack, in-process in the embedded mode. */
export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  enqueue(job: Job, options?: EnqueueOptions): Promise<void>;
  /** Sends a health job through the queue and resolves once a worker has handled it. */
  ping(timeoutMs?: number): Promise<HealthResult>;
  close(): Promise<void>;
}

/** Retry policy shared by both implementations: 8 attempts, exponential from 1 s. */
export const JOB_ATTEMPTS = 8;
export const JOB_BACKOFF_MS = 1_000;

export function backoffDelay(attemptsMade: number): number {
  return JOB_BACKOFF_MS * 2 ** Math.max(0, attemptsMade - 1);
}
