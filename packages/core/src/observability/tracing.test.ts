import { randomUUID } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullQueue, createBullWorker } from '../queue/bullmq-queue.ts';
import { createInProcessQueue } from '../queue/in-process-queue.ts';
import type { JobHandlers, JobQueue } from '../queue/job-queue.ts';
import { silentLogger } from '../shared/logger.ts';
import { dropTestQueue, eventually } from '../testing.ts';
import { currentTrace, startTracing, type Tracing } from './tracing.ts';

// With traces on, a job joins the trace of what enqueued it, across processes (the trace travels in
// the job's payload through Redis) and within one (the embedded store's in-process queue).

const redisUrl = process.env.REDIS_URL;
const exporter = new InMemorySpanExporter();
let tracing: Tracing;

beforeAll(async () => {
  tracing = await startTracing({ serviceName: 'store-test', exporter });
});
afterAll(async () => {
  await tracing?.shutdown();
});

/** Handlers whose email job records that it ran, and nothing else. */
function handlers(ran: string[]): JobHandlers {
  const unused = async () => {
    throw new Error('not used here');
  };
  return {
    health: unused,
    'email.send': async (job) => {
      ran.push(job.emailId);
    },
    'payment.event': unused,
    'payment.refund': unused,
  };
}

/** Enqueues one email job inside a span, as a request would; answers that span. */
async function enqueueInSpan(queue: JobQueue, emailId: string): Promise<ReadableSpan> {
  const tracer = trace.getTracer('store-test');
  const span = tracer.startSpan('POST /api/register');
  await context.with(trace.setSpan(context.active(), span), () => queue.enqueue({ kind: 'email.send', emailId }));
  span.end();
  const [ended] = exporter
    .getFinishedSpans()
    .filter((finished) => finished.spanContext().spanId === span.spanContext().spanId);
  return ended as ReadableSpan;
}

function jobSpanOf(traceId: string): ReadableSpan | undefined {
  return exporter
    .getFinishedSpans()
    .find((span) => span.name === 'job email.send' && span.spanContext().traceId === traceId);
}

describe('a job and the request that enqueued it', () => {
  it('share one trace through BullMQ: the job carries it in its payload', async () => {
    if (!redisUrl) throw new Error('REDIS_URL is needed: this test runs the worker of a real queue');
    const prefix = `test-tracing-${randomUUID()}`;
    const ran: string[] = [];
    const queue = createBullQueue({ redisUrl, prefix });
    const worker = createBullWorker({ redisUrl, prefix, handlers: handlers(ran), logger: silentLogger });
    try {
      const emailId = randomUUID();
      const request = await enqueueInSpan(queue, emailId);
      await eventually(() => ran.includes(emailId), 10_000);
      await eventually(() => jobSpanOf(request.spanContext().traceId) !== undefined, 5_000);
      const job = jobSpanOf(request.spanContext().traceId) as ReadableSpan;
      expect(job.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    } finally {
      await worker.close();
      await queue.close();
      await dropTestQueue(redisUrl, prefix);
    }
  });

  it('share one trace in the embedded store’s in-process queue', async () => {
    const ran: string[] = [];
    const queue = createInProcessQueue(handlers(ran), silentLogger);
    try {
      const emailId = randomUUID();
      const request = await enqueueInSpan(queue, emailId);
      await eventually(() => ran.includes(emailId));
      await eventually(() => jobSpanOf(request.spanContext().traceId) !== undefined);
    } finally {
      await queue.close();
    }
  });

  it('carry no trace where none is active', () => {
    expect(currentTrace()).toBeUndefined();
  });
});
