/**
 * Traces: with OTEL_EXPORTER_OTLP_ENDPOINT a request's span reaches an OTLP/HTTP receiver,
 * named by its route pattern and in the caller's trace (traceparent), as do background jobs';
 * without it the SDK is not even loaded and nothing is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queueMail } from './mail-outbox';
import { dataOf, uniqueEmail, useTestApp } from './test-app';
import { startTracing, stopTracing, tracingEnabled } from './tracing';

const sdk = vi.hoisted(() => ({ loads: 0 }));
vi.mock(import('./tracing-otel'), async (importOriginal) => {
  sdk.loads += 1;
  return importOriginal();
});

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}
interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const t = useTestApp();
/** What the receiver was sent, body by body. */
const received: { path: string; body: string }[] = [];
let receiver: Server;
let endpoint: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stopTracing();
  vi.unstubAllEnvs();
  await new Promise((resolve) => receiver.close(resolve));
});

const spans = () =>
  received.flatMap(({ body }) =>
    (JSON.parse(body) as OtlpExport).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;

// In this order: the first test is a server that was started without the variable.
describe('traces', () => {
  it('are off without OTEL_EXPORTER_OTLP_ENDPOINT: the SDK is not loaded and nothing is sent', async () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint })).toBe(true);
    const response = await t.request('GET', `/v1/users/email/${uniqueEmail()}`, {
      headers: { traceparent },
    });
    expect(response.status).toBe(200);
    await stopTracing();
    expect(sdk.loads).toBe(0);
    expect(received).toEqual([]);
  });

  it('export a span per request, named by its route pattern, in the caller’s trace', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint);
    await startTracing();
    const email = uniqueEmail();
    const response = await t.request('GET', `/v1/users/email/${email}`, {
      headers: { traceparent },
    });
    expect(response.status).toBe(200);
    const user = await t.signUp();
    const me = dataOf(await t.get('/v1/users/me', user.token)) as { id: string };
    await stopTracing();

    expect(received.map((r) => r.path)).toContain('/v1/traces');
    const span = spans().find((s) => s.name === 'GET /v1/users/email/:email');
    expect(span).toBeDefined();
    expect(span!.traceId).toBe(TRACE_ID);
    expect(span!.parentSpanId).toBe(PARENT_ID);
    expect(attribute(span!, 'http.route')).toBe('/v1/users/email/:email');
    expect(attribute(span!, 'http.request.method')).toBe('GET');
    expect(attribute(span!, 'http.response.status_code')).toBe(200);
    // A request without traceparent starts a trace of its own.
    const mine = spans().find((s) => s.name === 'GET /v1/users/me');
    expect(mine).toBeDefined();
    expect(mine!.traceId).not.toBe(TRACE_ID);
    expect(mine!.parentSpanId ?? '').toBe('');
    // Neither the address as sent nor who called nor their token is exported.
    const sent = received.map((r) => r.body).join('\n');
    expect(sent).not.toContain(email);
    expect(sent).not.toContain(me.id);
    expect(sent).not.toContain(user.token);
    expect(sdk.loads).toBe(1);
  });

  it('export a span per background job (a mail sent from the outbox)', async () => {
    received.length = 0;
    await startTracing();
    const to = uniqueEmail();
    await queueMail(
      { db: t.db, now: () => t.clock.current },
      {
        to,
        subject: 'Hello',
        text: 'A mail',
        kind: 'notice',
      },
    );
    expect(await t.deliverMail()).toBeGreaterThanOrEqual(1);
    await stopTracing();
    const span = spans().find((s) => s.name === 'mail send');
    expect(span).toBeDefined();
    expect(received.map((r) => r.body).join('\n')).not.toContain(to);
  });
});
