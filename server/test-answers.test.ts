import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createDevMailbox } from './mail';
import { testConfig, useAnswerCheck } from './test-app';
import { answerProblem } from './test-answers';
import { failingDb } from './test-db';

const answers = useAnswerCheck();

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const row = {
  id: 't1',
  name: 'Tag',
  assetCount: 0,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
};

describe('the answer check of the server tests', () => {
  it('passes an answer the document gives', async () => {
    expect(await answerProblem('GET', '/v1/tags/t1', json({ data: row }))).toBeUndefined();
    const error = { status: 404, code: 'NOT_FOUND', message: 'No tag t1' };
    expect(await answerProblem('GET', '/v1/tags/t1', json(error, 404))).toBeUndefined();
  });

  it('fails a property, a status or an error body the document does not give', async () => {
    const extra = await answerProblem('GET', '/v1/tags/t1', json({ data: { ...row, x: 1 } }));
    expect(extra).toContain('Property "x"');
    const missing = await answerProblem('GET', '/v1/tags/t1', json({ data: { id: 't1' } }));
    expect(missing).toContain('GET /v1/tags/{tagId}: 200 answer outside its schema');
    const status = await answerProblem('GET', '/v1/tags/t1', json({}, 418));
    expect(status).toContain('undocumented status 418');
    const error = await answerProblem('GET', '/v1/tags/t1', json({ status: 404 }, 404));
    expect(error).toContain('404 answer outside its schema');
  });

  it('reads a compressed answer as the client would, in either encoding', async () => {
    const compressed = (body: unknown, encoding: 'br' | 'gzip') => {
      const text = JSON.stringify(body);
      const bytes = encoding === 'br' ? brotliCompressSync(text) : gzipSync(text);
      return new Response(bytes, {
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
    };
    for (const encoding of ['br', 'gzip'] as const) {
      const good = await answerProblem('GET', '/v1/tags/t1', compressed({ data: row }, encoding));
      expect(good).toBeUndefined();
      const extra = compressed({ data: { ...row, x: 1 } }, encoding);
      expect(await answerProblem('GET', '/v1/tags/t1', extra)).toContain('Property "x"');
    }
  });

  it('wants 405 for a method an address lacks, and leaves addresses the document lacks alone', async () => {
    expect(await answerProblem('PUT', '/v1/assets', json({}, 404))).toContain('not 405');
    expect(await answerProblem('PUT', '/v1/assets', json({}, 405))).toBeUndefined();
    expect(await answerProblem('GET', '/assets/a-page', json({}, 200))).toBeUndefined();
  });

  it('sees the answers of an app a test makes itself', async () => {
    // An app without the dev routes (production) on a database that is never reached.
    const app = answers.createApp({
      db: failingDb('no database in this test'),
      mail: createDevMailbox(),
      config: testConfig(),
    });
    await app.request('/v1/tags/t1', { method: 'PUT' });
    expect(answers.take()).toEqual([]);
    const extra = new Hono().use(answers.answerCheck).get('/v1/tags/:id', (c) => c.json({}, 418));
    await extra.request('/v1/tags/t1');
    expect(answers.take()).toEqual([expect.stringContaining('undocumented status 418')]);
  });
});
