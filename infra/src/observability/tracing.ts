import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Link, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';

/**
 * Traces (docs/operations/observability.md "Traces"): made only when OTEL_EXPORTER_OTLP_ENDPOINT names a collector.
 * The context travels explicitly, in each event's metadata (W3C traceparent), not in an ambient context: a follower
 * reads it from the events it handles, whichever process stored them. Off, every helper here returns at its first
 * line, so a process without a collector spends a flag test per request and per batch.
 */
let on = false;
const tracer = () => trace.getTracer('property-finance');

export function startTracing(config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT'>, serviceName: string): { close(): Promise<void> } {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || on) return { close: () => Promise.resolve() };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', endpoint.replace(/\/?$/, '/')).href }))],
  });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  on = true;
  return {
    close: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      on = false;
    },
  };
}

export function tracingOn(): boolean {
  return on;
}

/** The context a traceparent names (ROOT_CONTEXT when there is none). */
function contextOf(traceparent: string | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** A span's W3C traceparent, for an event's metadata or an outgoing header. */
export function traceparentOf(span: Span | undefined): string | undefined {
  if (!on || !span) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent;
}

export function startSpan(
  name: string,
  parent: string | undefined,
  kind: SpanKind = SpanKind.INTERNAL,
  links: Link[] = [],
): Span | undefined {
  if (!on) return undefined;
  return tracer().startSpan(name, { kind, links }, contextOf(parent));
}

/** Runs `work` in a span (child of `parent`), ended when it settles, marked as an error when it throws. */
export async function inSpan<T>(name: string, parent: string | undefined, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const span = startSpan(name, parent);
  if (!span) return work(undefined);
  try {
    return await work(span);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * A follower's batch as a span: a child of the trace that stored its events when they all come from one, otherwise
 * a span of its own linked to each of theirs (one batch serving many traces).
 */
export function batchSpan(follower: string, traceparents: readonly (string | undefined)[]): Span | undefined {
  if (!on) return undefined;
  const known = traceparents.filter((parent): parent is string => parent !== undefined);
  if (known.length === 0) return undefined;
  const traceIds = new Set(known.map((parent) => parent.split('-')[1]));
  if (traceIds.size === 1) return startSpan(`${follower} handles`, known[0]);
  const links = known.map((parent) => ({ context: trace.getSpanContext(contextOf(parent))! })).filter((link) => link.context);
  return startSpan(`${follower} handles`, undefined, SpanKind.INTERNAL, links);
}

export { SpanKind, SpanStatusCode };
