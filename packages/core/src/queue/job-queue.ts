import type { Job, JobKind } from '@store/contract';

export interface EnqueueOptions {
  /**
   * One job per id at a time: while a job with this id waits, runs or waits to be retried, enqueueing
   * the id again adds nothing ('already-queued'). Once that job is finished for good (completed, or
   * failed with no retry left, a stalled job included) the id is free, and a new job is queued.
   */
  jobId?: string;
  /**
   * `jobId` was made just now (the id of a row this caller has just inserted) and never queued, so no
   * finished job can hold it: the queue adds without looking for one first.
   */
  newId?: boolean;
  delayMs?: number;
}

/** What an enqueue did, so a caller can say it truthfully. */
export type EnqueueOutcome = 'queued' | 'already-queued';

export interface QueueDepth {
  queue: string;
  /** waiting, active, delayed, failed... */
  state: string;
  count: number;
}

export type JobOf<K extends JobKind> = Extract<Job, { kind: K }>;

/** Where a run stands in the queue's retry policy; handlers use it to tell the last attempt apart. */
export interface JobContext {
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
  maxAttempts: number;
}

export type JobHandlers = { [K in JobKind]: (job: JobOf<K>, context?: JobContext) => Promise<unknown> };

export interface HealthResult {
  nonce: string;
  handledAt: string;
  database: 'ok';
}

/** The queue port: BullMQ on Redis in the full stack, in-process in the embedded mode. */
export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  enqueue(job: Job, options?: EnqueueOptions): Promise<EnqueueOutcome>;
  /** Sends a health job through the queue and resolves once a worker has handled it. */
  ping(timeoutMs?: number): Promise<HealthResult>;
  /** How many jobs each lane holds, by state, for the metrics (absent in test doubles). */
  depths?(): Promise<QueueDepth[]>;
  close(): Promise<void>;
}

/** Retry policy shared by both implementations: 8 attempts, exponential from 1 s. */
export const JOB_ATTEMPTS = 8;
export const JOB_BACKOFF_MS = 1_000;

export function backoffDelay(attemptsMade: number): number {
  return JOB_BACKOFF_MS * 2 ** Math.max(0, attemptsMade - 1);
}
