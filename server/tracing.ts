/**
 * OpenTelemetry traces: a span per request and per background job (morph job, delivery
 * derivation, mail send, file sweep), exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Otherwise the SDK is never imported: a
 * server without an exporter pays one branch per request and job, not the SDK's start-up.
 *
 * Spans carry what the metrics' labels carry (method, route pattern, status, job outcome),
 * never an address as sent, a body or who the caller is.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';

/** Attributes a span may carry: bounded, never secret. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** What the SDK side (tracing-otel.ts) does once loaded. */
export interface Tracing {
  request(c: Context, next: Next): Promise<void>;
  job<T>(
    name: string,
    attributes: SpanAttributes,
    run: (note: (more: SpanAttributes) => void) => Promise<T>,
  ): Promise<T>;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}

let active: Tracing | undefined;

/** Whether `env` names where to export traces. */
export function tracingEnabled(env: Record<string, string | undefined>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Loads the SDK and starts recording; the exporter reads the OTEL_* variables itself. */
export async function startTracing(): Promise<void> {
  const { createTracing } = await import('./tracing-otel');
  active = createTracing();
}

/** Exports the spans still buffered; later requests and jobs are not traced. */
export async function stopTracing(): Promise<void> {
  const tracing = active;
  active = undefined;
  await tracing?.shutdown();
}

/** A span per request, a child of the caller's `traceparent` when it sends one. */
export function traceRequests(): MiddlewareHandler {
  return (c, next) => (active ? active.request(c, next) : next());
}

/**
 * Runs a background job inside a span named `name`; `run` may add attributes (its outcome)
 * through the function it is given.
 */
export function traced<T>(
  name: string,
  attributes: SpanAttributes,
  run: (note: (more: SpanAttributes) => void) => Promise<T>,
): Promise<T> {
  return active ? active.job(name, attributes, run) : run(() => {});
}
