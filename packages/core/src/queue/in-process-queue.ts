import { randomUUID } from 'node:crypto';
import { type Job, JobSchema } from '@store/contract';
import { withCurrentTrace } from '../observability/tracing.ts';
import type { Logger } from '../shared/logger.ts';
import { runJob } from './job-handlers.ts';
import type { HealthResult, JobHandlers } from './job-queue.ts';
import {
  backoffDelay,
  type EnqueueOptions,
  type EnqueueOutcome,
  JOB_ATTEMPTS,
  type JobQueue,
  type QueueDepth,
} from './job-queue.ts';

/**
 * Runs jobs in this process with the same handlers and retry policy as the BullMQ worker. Used by the
 * embedded mode, where there is no Redis. `handlersOrFactory` may be a function of the queue, for
 * handlers that enqueue jobs of their own. Jobs do not survive a restart here; what must survive one
 * (payment events, outgoing mail) is stored in the database first and swept again at start.
 */
export function createInProcessQueue(
  handlersOrFactory: JobHandlers | ((queue: JobQueue) => JobHandlers),
  logger: Logger,
): JobQueue {
  // Handlers that enqueue follow-up jobs (a receipt after a payment) are made with this very queue.
  let handlers: JobHandlers;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const seenIds = new Set<string>();
  let closed = false;

  interface RunOptions {
    maxAttempts: number;
    jobId?: string;
    resolve?: (value: unknown) => void;
    reject?: (error: unknown) => void;
  }

  function schedule(job: Job, delayMs: number, attempt: number, settle: RunOptions) {
    const { maxAttempts } = settle;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = runJob(handlers, job, { attempt, maxAttempts }).then(
        (value) => {
          if (settle.jobId) seenIds.delete(settle.jobId);
          settle.resolve?.(value);
        },
        (error: unknown) => {
          if (attempt >= maxAttempts || closed) {
            logger.error({ err: error, kind: job.kind, attempt }, 'job failed for good');
            if (settle.jobId) seenIds.delete(settle.jobId);
            settle.reject?.(error);
            return;
          }
          logger.warn({ err: error, kind: job.kind, attempt }, 'job failed, retrying');
          // The same delays as BullMQ's exponential backoff: 1 s, 2 s, 4 s... after the 1st, 2nd, 3rd failure.
          schedule(job, backoffDelay(attempt), attempt + 1, settle);
        },
      );
      running.add(run);
      void run.finally(() => running.delete(run));
    }, delayMs);
    timers.add(timer);
  }

  const queue: JobQueue = {
    kind: 'in-process',
    async enqueue(job, options: EnqueueOptions = {}): Promise<EnqueueOutcome> {
      if (closed) throw new Error('queue is closed');
      const parsed = withCurrentTrace(JobSchema.parse(job));
      // An id is taken while its job waits, runs or retries, and freed once it is done for good, so
      // the outbox sweep can bring back an unsent email.
      if (options.jobId) {
        if (seenIds.has(options.jobId)) return 'already-queued';
        seenIds.add(options.jobId);
      }
      schedule(parsed, options.delayMs ?? 0, 1, { maxAttempts: JOB_ATTEMPTS, jobId: options.jobId });
      return 'queued';
    },
    async depths(): Promise<QueueDepth[]> {
      return [
        { queue: 'in-process', state: 'waiting', count: timers.size },
        { queue: 'in-process', state: 'active', count: running.size },
      ];
    },
    ping(timeoutMs = 5_000) {
      const job: Job = { kind: 'health', requestedAt: new Date().toISOString(), nonce: randomUUID() };
      return new Promise<HealthResult>((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error('health job timed out')), timeoutMs);
        // A ping is answered once, as BullMQ's (attempts: 1): a retry would only hide a failure.
        schedule(job, 0, 1, {
          maxAttempts: 1,
          resolve: (value) => {
            clearTimeout(timeout);
            resolve(value as HealthResult);
          },
          reject: (error) => {
            clearTimeout(timeout);
            reject(error);
          },
        });
      });
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
  handlers = typeof handlersOrFactory === 'function' ? handlersOrFactory(queue) : handlersOrFactory;
  return queue;
}
