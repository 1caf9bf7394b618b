import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '@store/core';
import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';

// With traces on, a request is a trace of its own, and the job it enqueues (here the activation
// email a registration writes) is a span of that same trace.

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  tracing = await startTracing({ serviceName: 'store-api', exporter });
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { tracing: true });
});
afterAll(async () => {
  await ctx?.close();
  await tracing?.shutdown();
});

describe('traces', () => {
  it('make a request and the job it enqueued one trace, and leave the probes out', async () => {
    await registerUser(ctx.app);
    await call(ctx.app, 'GET', '/health');

    await eventually(() => exporter.getFinishedSpans().some((span) => span.name === 'job email.send'));
    const spans = exporter.getFinishedSpans();
    const job = spans.find((span) => span.name === 'job email.send');
    const request = spans.find(
      (span) => span.spanContext().traceId === job?.spanContext().traceId && span.parentSpanContext === undefined,
    );
    expect(request?.attributes).toMatchObject({ 'http.route': '/api/register' });
    expect(spans.some((span) => String(span.attributes['http.route'] ?? '').includes('health'))).toBe(false);
  });
});
