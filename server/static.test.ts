import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { failingDb } from './test-db';
import { createDevMailbox } from './mail';
import { testConfig, useAnswerCheck } from './test-app';
import { tempDir } from '../tests/temp-dir';

/** Each answer is checked against the OpenAPI document (server/test-answers.ts). */
const answers = useAnswerCheck();

const unusedDb = failingDb('no database in this test');

/** The page's inline loader, as the build writes it into index.html (src/boot.ts). */
const BOOT = 'import("/assets/index-abc123.js")';

function appWithSpa(env: Record<string, string> = {}) {
  const dir = tempDir('spa-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><title>Avatar Studio</title><script type="module">${BOOT}</script>`,
  );
  writeFileSync(join(dir, 'embed.html'), '<!doctype html><title>Avatar viewer</title>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'index-abc123.js.map'), '{"version":3}');
  // Precompressed copies, as a build before the compressor skipped maps wrote them.
  writeFileSync(join(dir, 'assets', 'index-abc123.js.map.gz'), gzipSync('{"version":3}'));
  writeFileSync(join(dir, 'assets', 'index-abc123.js.map.br'), brotliCompressSync('{"version":3}'));
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  const config = testConfig({ STATIC_DIR: dir, ...env });
  return answers.createApp({ db: unusedDb, mail: createDevMailbox(), config });
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

  it('has /embed fetch its model and environment with the page (Link preload)', async () => {
    const response = await app.request('/embed?modelSrc=/files/0123456789abcdef01234567.glb');
    expect(response.status).toBe(200);
    // /embed is its own page, without the back office's code.
    expect(await response.text()).toContain('<title>Avatar viewer</title>');
    expect(await (await app.request('/embed/')).text()).toContain('<title>Avatar viewer</title>');
    expect(response.headers.get('link')).toBe(
      '</files/0123456789abcdef01234567.glb?delivery>; rel=preload; as=fetch; crossorigin=anonymous, ' +
        '</environments/city.pmrem>; rel=preload; as=fetch; crossorigin=anonymous',
    );
    expect((await app.request('/embed')).headers.get('link')).toBeNull();
    // Nothing the viewer would refuse to load is fetched for it.
    expect((await app.request('/embed?modelSrc=/readme.txt')).headers.get('link')).toBeNull();
    expect((await app.request('/assets?modelSrc=/a.glb')).headers.get('link')).toBeNull();
  });

  it("has /embed preload only the studio's own models, never naming another site", async () => {
    const key = '0123456789abcdef01234567.glb';
    const own = await app.request(
      `/embed?modelSrc=${encodeURIComponent(`http://localhost/files/${key}`)}`,
    );
    expect(own.headers.get('link')).toMatch(
      new RegExp(`^<http://localhost/files/${key}\\?delivery>`),
    );
    for (const modelSrc of ['https://elsewhere.example/a.glb', '//elsewhere.example/a.glb']) {
      const response = await app.request(`/embed?modelSrc=${encodeURIComponent(modelSrc)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toBeNull();
    }
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
    for (const path of [
      '/assets/missing-000.js',
      '/v1/nothing',
      '/private/v1/nothing',
      '/dev/x',
      // The operator's routes: a probe must never mistake the page for an answer.
      '/metrics',
      '/metrics/x',
      '/readyz/x',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('content-type')).toMatch(/json/);
    }
  });

  it('answers 404, not the page, for a file that is not in the build', async () => {
    // Crawlers and probes ask for these; a 200 page tells them the file exists.
    for (const path of [
      '/favicon.ico',
      '/apple-touch-icon.png',
      '/sitemap.xml',
      '/wp-login.php',
      '/.env',
      '/assets/5f2a9c0e1b7d4a6f8e3c2b1a/model.glb',
      '/users/x/config.json',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('<title>Avatar Studio</title>');
      expect((await app.request(path, { method: 'HEAD' })).status, path).toBe(404);
    }
  });

  it('keeps search engines out with robots.txt', async () => {
    const response = await app.request('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/^User-agent: \*\nDisallow: \/$/m);
  });

  it('is skipped when STATIC_DIR has no index.html', async () => {
    const app = answers.createApp({ db: unusedDb, mail: createDevMailbox(), config: testConfig() });
    expect((await app.request('/')).status).toBe(404);
  });
});

describe('security headers', () => {
  const app = appWithSpa();
  const csp = (response: Response) => response.headers.get('content-security-policy') ?? '';

  it("give pages a policy that allows only the page's own inline loader, and that no other site may frame", async () => {
    const boot = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
    for (const path of ['/', '/assets', '/signin', '/assets/index-abc123.js', '/favicon.svg']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      const page = response.headers.get('content-type')?.startsWith('text/html');
      expect(csp(response)).toContain(
        page
          ? `script-src 'self' 'wasm-unsafe-eval' ${boot};`
          : "script-src 'self' 'wasm-unsafe-eval';",
      );
      expect(csp(response)).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp(response)).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('let any site frame /embed by default, or only the EMBED_FRAME_ANCESTORS', async () => {
    const open = await app.request('/embed?modelSrc=/a.glb');
    expect(csp(open)).toContain('frame-ancestors *');
    expect(open.headers.get('x-frame-options')).toBeNull();
    const listed = appWithSpa({
      EMBED_FRAME_ANCESTORS: 'https://shop.example https://cms.example',
    });
    const response = await listed.request('/embed');
    expect(csp(response)).toContain('frame-ancestors https://shop.example https://cms.example');
  });

  it('keep API answers, errors included, out of every cache and every frame', async () => {
    for (const path of ['/v1/users/me', '/v1/no-such-route', '/private/v1/assets']) {
      const response = await app.request(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(csp(response)).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serve source maps in development only', async () => {
    expect((await app.request('/assets/index-abc123.js.map')).status).toBe(200);
    const production = appWithSpa({
      NODE_ENV: 'production',
      ADMIN_PASSWORD: 'a-long-production-password',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PUBLIC_URL: 'https://avatars.example',
    });
    for (const path of [
      '/assets/index-abc123.js.map',
      '/assets/index-abc123.js.map.gz',
      '/assets/index-abc123.js.map.br',
      '/assets/index-abc123.js%2emap',
      '/assets/index-abc123.js%2Emap%2Egz',
      '/assets/index-abc123%2ejs%2emap%2ebr',
      '/assets/index-abc123.js.MAP',
      '/assets/index-abc123.js.Map.GZ',
    ]) {
      expect((await production.request(path)).status, path).toBe(404);
      expect((await production.request(path, { method: 'HEAD' })).status, path).toBe(404);
    }
    for (const encoding of ['br', 'gzip', 'br, gzip, zstd']) {
      const map = await production.request('/assets/index-abc123.js.map', {
        headers: { 'Accept-Encoding': encoding },
      });
      expect(map.status, encoding).toBe(404);
    }
    expect((await production.request('/assets/index-abc123.js')).status).toBe(200);
  });
});
