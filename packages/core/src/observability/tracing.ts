import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Job, JobTrace } from '@store/contract';

/**
 * Traces (OpenTelemetry), off unless an OTLP endpoint is configured: then each API request is a
 * trace (@fastify/otel), and a job carries the trace of what enqueued it in its payload, so its run,
 * in the worker or in this process, is a span of the same trace. Only the API (@opentelemetry/api,
 * a no-op until a provider registers) is loaded up front: the SDK and the exporter are imported when
 * traces are turned on, so a store without a collector never loads them.
 */

export interface TracingOptions {
  /** service.name of the spans: `store-api`, `store-worker`. */
  serviceName: string;
  /** The collector's OTLP/HTTP base address (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<it>/v1/traces`. */
  endpoint?: string | undefined;
  /** Spans handed straight to this exporter instead (tests read them back). */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Whether spans are recorded at all. */
  enabled: boolean;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export async function startTracing({ serviceName, endpoint, exporter }: TracingOptions): Promise<Tracing> {
  if (!endpoint && !exporter) return { enabled: false, shutdown: async () => {} };
  const [{ resourceFromAttributes }, { BatchSpanProcessor, SimpleSpanProcessor }, { NodeTracerProvider }] =
    await Promise.all([
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/sdk-trace-node'),
    ]);
  const processor = exporter
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(await otlpExporter(endpoint as string));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [processor],
  });
  // The global provider, context manager (AsyncLocalStorage) and W3C trace-context propagator.
  provider.register();
  return {
    enabled: true,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** Spans to `<endpoint>/v1/traces` over OTLP/HTTP. */
async function otlpExporter(endpoint: string): Promise<SpanExporter> {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  return new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(endpoint)).toString() });
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The active trace, as a job carries it: its run then joins the trace of what enqueued it. */
export function currentTrace(): JobTrace | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent) return undefined;
  return { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) };
}

/** The job, carrying the active trace (unless it carries one already). */
export function withCurrentTrace(job: Job): Job {
  if (job.trace) return job;
  const current = currentTrace();
  return current ? { ...job, trace: current } : job;
}

/**
 * Runs a job inside a span of the trace it carries (else of whatever is active): `job <kind>`, marked
 * failed when the job throws.
 */
export function inJobSpan<T>(job: Job, run: () => Promise<T>): Promise<T> {
  const parent = job.trace ? propagation.extract(context.active(), job.trace) : context.active();
  return trace
    .getTracer('store-jobs')
    .startActiveSpan(`job ${job.kind}`, { kind: SpanKind.CONSUMER }, parent, async (span) => {
      try {
        return await run();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
}
