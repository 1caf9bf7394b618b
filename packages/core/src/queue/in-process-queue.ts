import { randomUUID } from 'node:crypto';
import { type Job, JobSchema } from '@store/contract';
import type { Logger } from '../shared/logger.ts';
import { type HealthResult, type JobHandlers, runJob } from './job-handlers.ts';
import { backoffDelay, type EnqueueOptions, JOB_ATTEMPTS, type JobQueue } from './job-queue.ts';

/**
 * Runs jobs in this process with the same handlers and retry policy as the BullMQ worker. Used by the
 * embedded mode, where there is no Redis. Jobs do not survive a restart here; what must survive one
 * (payment events, outgoing mail) is stored in the database first and swept again at start.
 */
export function createInProcessQueue(handlers: JobHandlers, logger: Logger): JobQueue {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const seenIds = new Set<string>();
  let closed = false;

  function schedule(
    job: Job,
    delayMs: number,
    attempt: number,
    resolve?: (value: unknown) => void,
    reject?: (error: unknown) => void,
  ) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = runJob(handlers, job).then(
        (value) => resolve?.(value),
        (error: unknown) => {
          if (attempt >= JOB_ATTEMPTS || closed) {
            logger.error({ err: error, kind: job.kind, attempt }, 'job failed for good');
            reject?.(error);
            return;
          }
          logger.warn({ err: error, kind: job.kind, attempt }, 'job failed, retrying');
          schedule(job, backoffDelay(attempt), attempt + 1, resolve, reject);
        },
      );
      running.add(run);
      void run.finally(() => running.delete(run));
    }, delayMs);
    timers.add(timer);
  }

  return {
    kind: 'in-process',
    async enqueue(job, options: EnqueueOptions = {}) {
      if (closed) throw new Error('queue is closed');
      const parsed = JobSchema.parse(job);
      if (options.jobId) {
        if (seenIds.has(options.jobId)) return;
        seenIds.add(options.jobId);
      }
      schedule(parsed, options.delayMs ?? 0, 1);
    },
    ping(timeoutMs = 5_000) {
      const job: Job = { kind: 'health', requestedAt: new Date().toISOString(), nonce: randomUUID() };
      return new Promise<HealthResult>((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error('health job timed out')), timeoutMs);
        schedule(
          job,
          0,
          JOB_ATTEMPTS,
          (value) => {
            clearTimeout(timeout);
            resolve(value as HealthResult);
          },
          (error) => {
            clearTimeout(timeout);
            reject(error);
          },
        );
      });
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
