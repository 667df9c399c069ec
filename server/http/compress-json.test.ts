import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressJson } from './compress-json';
import { createDevMailbox } from '../mail';
import { failingDb } from '../test-db';
import { testConfig, useAnswerCheck } from '../test-app';

/** Each answer is checked against the OpenAPI document (server/test-answers.ts). */
const answers = useAnswerCheck();

const app = answers.createApp({
  db: failingDb('no database in this test'),
  mail: createDevMailbox(),
  config: testConfig({ API_DOCS: 'on' }),
});

/** The OpenAPI document: a public JSON answer of a few hundred KB. */
const DOCUMENT = '/v1/openapi.json';

describe('JSON answers', () => {
  it('come brotli-compressed to a browser that accepts br, and read the same', async () => {
    const plain = await app.request(DOCUMENT);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(10_000);

    const response = await app.request(DOCUMENT, {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length / 4);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(brotliDecompressSync(bytes).toString()).toBe(text);
  });

  it('come gzipped to a client that accepts only gzip', async () => {
    const response = await app.request(DOCUMENT, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const body = gunzipSync(Buffer.from(await response.arrayBuffer())).toString();
    expect(JSON.parse(body)).toHaveProperty('openapi');
  });

  it('stay as they are when small, refused, or asked for by HEAD', async () => {
    // A 404's JSON error is a few dozen bytes: compressing it would only add work.
    const small = await app.request('/v1/nothing', { headers: { 'Accept-Encoding': 'br' } });
    expect(small.status).toBe(404);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toMatchObject({ code: 'NOT_FOUND' });
    const refused = await app.request(DOCUMENT, { headers: { 'Accept-Encoding': 'br;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    const head = await app.request(DOCUMENT, {
      method: 'HEAD',
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});

describe('compressJson', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `asset ${i}` })) };
  const bare = new Hono();
  bare.use('*', compressJson());
  bare.get('/json', (c) => c.json(big));
  // The live stream: each event must reach the browser when it is written, never buffered.
  bare.get('/stream', () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${'x'.repeat(4000)}\n\n`));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  // A file compressed at build time, or a model: sent as they are.
  bare.get('/already', () => Response.json(big, { headers: { 'content-encoding': 'gzip' } }));

  bare.get('/range', (c) => {
    c.header('Content-Range', 'bytes 0-4095/8192');
    return c.body(JSON.stringify(big).slice(0, 4096), 206, { 'content-type': 'application/json' });
  });

  it('leaves the event stream, ranges and already-encoded answers alone', async () => {
    const accept = { 'Accept-Encoding': 'br, gzip' };
    expect((await bare.request('/json', { headers: accept })).headers.get('content-encoding')).toBe(
      'br',
    );
    const stream = await bare.request('/stream', { headers: accept });
    expect(stream.headers.get('content-encoding')).toBeNull();
    const reader = stream.body!.getReader();
    // The first event arrives while the stream is still open.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^data: x+/);
    await reader.cancel();
    const range = await bare.request('/range', { headers: accept });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-encoding')).toBeNull();
    const already = await bare.request('/already', { headers: accept });
    expect(already.headers.get('content-encoding')).toBe('gzip');
  });
});
