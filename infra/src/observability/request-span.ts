import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Span } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, startSpan, tracingOn, traceparentOf } from './tracing';

const spans = new WeakMap<FastifyRequest, Span>();

/** A server span per HTTP request when traces are on, continuing the caller's traceparent header if it sent one. */
export function traceRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (tracingOn()) {
      const header = request.headers.traceparent;
      const span = startSpan(request.method, typeof header === 'string' ? header : undefined, SpanKind.SERVER);
      if (span) spans.set(request, span);
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      const route = request.routeOptions.url;
      if (route) span.updateName(`${request.method} ${route}`);
      span.setAttributes({
        'http.request.method': request.method,
        'http.response.status_code': reply.statusCode,
        ...(route ? { 'http.route': route } : {}),
      });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/** The traceparent of the request's span, for the metadata of the events it causes. */
export function requestTraceparent(request: FastifyRequest): string | undefined {
  return traceparentOf(spans.get(request));
}
