/**
 * The OpenTelemetry SDK behind server/tracing.ts, imported only when traces are exported.
 * No context manager is registered: a request's span takes its parent from the traceparent
 * header explicitly and jobs start their own traces, so nothing runs on every async hop.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { routePath } from 'hono/route';
import type { Tracing } from './tracing';

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

export function createTracing(): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME || 'avatar-studio-api',
    }),
    // The batch queue is bounded (2,048 spans): a collector that is down or slow drops spans
    // instead of growing this process's memory.
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  const tracer = provider.getTracer('avatar-studio');
  const propagator = new W3CTraceContextPropagator();

  return {
    async request(c, next) {
      const parent = propagator.extract(ROOT_CONTEXT, c.req.raw.headers, headerGetter);
      const method = c.req.method;
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
        parent,
      );
      try {
        await next();
      } finally {
        // The pattern that answered (as the request log and the metrics name it), never the path.
        const route = routePath(c) || '*';
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
        span.setAttribute('http.response.status_code', c.res.status);
        if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
    async job(name, attributes, run) {
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, ROOT_CONTEXT);
      try {
        return await run((more) => span.setAttributes(more));
      } catch (error) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.name : 'Error',
        });
        throw error;
      } finally {
        span.end();
      }
    },
    shutdown: () => provider.shutdown(),
  };
}
