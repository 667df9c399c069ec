import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from './app';
import type { Db } from './db';
import { createDevMailbox } from './mail';
import { testConfig } from './test-app';

const unusedDb: Db = {
  query: () => Promise.reject(new Error('no database in this test')),
  exec: () => Promise.reject(new Error('no database in this test')),
  transaction: () => Promise.reject(new Error('no database in this test')),
  close: () => Promise.resolve(),
};

function appWithSpa() {
  const dir = mkdtempSync(join(tmpdir(), 'spa-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Avatar Studio</title>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  const config = testConfig({ STATIC_DIR: dir });
  return createApp({ db: unusedDb, mail: createDevMailbox(), config });
}

describe('the built SPA', () => {
  const app = appWithSpa();

  it('serves hashed assets as immutable', async () => {
    const response = await app.request('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toBe('console.log(1)');
  });

  it('falls back to index.html without caching for client routes', async () => {
    for (const path of [
      '/',
      '/signin?reason=login_required',
      '/assets-list/42',
      // Client routes that share the build's /assets/ folder name.
      '/assets',
      '/assets/new',
      '/assets/5f2a9c0e1b7d4a6f8e3c2b1a',
      '/index.html',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<title>Avatar Studio</title>');
    }
  });

  it('serves other files revalidated', async () => {
    const response = await app.request('/favicon.svg');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe('<svg/>');
  });

  it('answers JSON 404s for missing hashed assets and unknown API routes', async () => {
    for (const path of ['/assets/missing-000.js', '/v1/nothing', '/private/v1/nothing', '/dev/x']) {
      const response = await app.request(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('content-type')).toMatch(/json/);
    }
  });

  it('is skipped when STATIC_DIR has no index.html', async () => {
    const app = createApp({ db: unusedDb, mail: createDevMailbox(), config: testConfig() });
    expect((await app.request('/')).status).toBe(404);
  });
});
