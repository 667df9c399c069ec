import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDevMailbox } from './mail';
import { routePages } from './spa-preload';
import { testConfig, useAnswerCheck } from './test-app';
import { failingDb } from './test-db';
import { tempDir } from '../tests/temp-dir';

/** Each answer is checked against the OpenAPI document (server/test-answers.ts). */
const answers = useAnswerCheck();

/** A build's manifest as Vite writes it: the entry, the layout and three screens. */
const MANIFEST = {
  'index.html': { file: 'assets/main-1.js', isEntry: true, imports: ['_start.js'] },
  '_start.js': { file: 'assets/start-1.js' },
  '_query.js': { file: 'assets/query-1.js', imports: ['_start.js'] },
  'src/routes/_app.tsx?tsr-split=component': {
    file: 'assets/_app-1.js',
    isDynamicEntry: true,
    imports: ['_start.js', '_query.js'],
  },
  'src/routes/_app/assets.index.tsx?tsr-split=component---loader': {
    file: 'assets/assets.index-1.js',
    isDynamicEntry: true,
    imports: ['_query.js'],
  },
  'src/routes/_app/assets.$assetId.tsx?tsr-split=component---loader': {
    file: 'assets/assets._assetId-1.js',
    isDynamicEntry: true,
    imports: ['_query.js'],
  },
  'src/routes/_app/assets.$assetId.tsx?tsr-split=errorComponent': {
    file: 'assets/assets._assetId-error-1.js',
    isDynamicEntry: true,
  },
  'src/routes/_app/index.tsx?tsr-split=component---loader': {
    file: 'assets/dashboard-1.js',
    isDynamicEntry: true,
  },
  'src/routes/_app/assets.new.tsx?tsr-split=component---loader': {
    file: 'assets/assets.new-1.js',
    isDynamicEntry: true,
  },
  'src/locales/en-back-office.ts': { file: 'assets/en-back-office-1.js', isDynamicEntry: true },
  'contract/ability.ts': { file: 'assets/ability-1.js', isDynamicEntry: true },
  'src/routes/signin.tsx?tsr-split=component---loader': {
    file: 'assets/signin-1.js',
    isDynamicEntry: true,
    imports: ['_start.js'],
  },
};

function build() {
  const dir = tempDir('spa-preload-');
  mkdirSync(join(dir, '.vite'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Avatar Studio</title>' +
      '<script type="module" crossorigin src="/assets/main-1.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  // As the build writes them (vite.config.ts, firstPaintTexts).
  writeFileSync(
    join(dir, '.vite', 'first-paint.json'),
    JSON.stringify({
      appName: 'Avatar Studio',
      breadcrumb: 'Breadcrumb',
      headings: { '/': 'Dashboard', '/assets': 'Assets & <more>' },
      records: [
        {
          section: '/assets',
          sectionTitle: 'Assets & <more>',
          heading: 'Asset "{{name}}"',
          endpoint: 'asset',
          page: 'asset-page',
          header: 'asset-page-header',
        },
      ],
    }),
  );
  return dir;
}

const hrefs = (html: string | undefined) =>
  [...(html ?? '').matchAll(/<link rel="(\w+)" crossorigin href="([^"]+)">/g)].map(
    ([, rel, href]) => `${rel} ${href}`,
  );

describe('the files a route loads', () => {
  const pages = routePages(build());
  const preloads = (path: string) => pages(path)?.links;

  it('are the screen, its layout and what they import, less what the page loads anyway', () => {
    expect(hrefs(preloads('/assets'))).toEqual([
      'modulepreload /assets/_app-1.js',
      'modulepreload /assets/query-1.js',
      // What the signed-in layout's loader reads first: its texts and the abilities.
      'modulepreload /assets/en-back-office-1.js',
      'modulepreload /assets/ability-1.js',
      'modulepreload /assets/assets.index-1.js',
    ]);
    expect(hrefs(preloads('/signin'))).toEqual(['modulepreload /assets/signin-1.js']);
    // The dashboard, not its layout (whose address is the same).
    expect(hrefs(preloads('/'))).toContain('modulepreload /assets/dashboard-1.js');
    expect(hrefs(preloads('/'))).toContain('modulepreload /assets/ability-1.js');
  });

  it('are those of the route the address names: a literal segment before a parameter', () => {
    expect(hrefs(preloads('/assets/new'))).toContain('modulepreload /assets/assets.new-1.js');
    const page = hrefs(preloads('/assets/5f2a9c0e1b7d4a6f8e3c2b1a'));
    expect(page).toContain('modulepreload /assets/assets._assetId-1.js');
    // Only the screen's component: its error screen loads if it is ever needed.
    expect(page.join()).not.toContain('error');
    expect(preloads('/no/such/route')).toBeUndefined();
    expect(preloads('/assets/a/b/c')).toBeUndefined();
  });

  it('are nothing without a manifest', () => {
    expect(routePages(tempDir('no-manifest-'))('/assets')).toBeUndefined();
  });
});

describe('the page of a client route', () => {
  it("names its screen's files, for src/boot.ts to load with the start-up bundle once the page has painted", async () => {
    const dir = build();
    const app = answers.createApp({
      db: failingDb('no database in this test'),
      mail: createDevMailbox(),
      config: testConfig({ STATIC_DIR: dir }),
    });
    const response = await app.request('/assets/5f2a9c0e1b7d4a6f8e3c2b1a');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toContain('<title>Avatar Studio</title>');
    expect(html).toMatch(
      /<template class="app-modules">(<link [^>]+>)*<link rel="modulepreload" crossorigin href="\/assets\/assets\._assetId-1\.js"><\/template>\s*<\/head>/,
    );
    // A build written while the server runs is the one the next page names.
    const rebuilt = JSON.stringify(MANIFEST).replaceAll('-1.', '-2.');
    writeFileSync(join(dir, '.vite', 'manifest.json'), rebuilt);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, '.vite', 'manifest.json'), later, later);
    const next = await (await app.request('/assets/5f2a9c0e1b7d4a6f8e3c2b1a')).text();
    expect(next).toContain('href="/assets/assets._assetId-2.js"');
    expect(next).not.toContain('assets._assetId-1.js');
    // The unknown route still gets the page, as it is.
    const other = await (await app.request('/somewhere')).text();
    expect(other).not.toContain('modulepreload');
    expect(other).toContain('<title>Avatar Studio</title>');
  });
});

describe('the page of a signed-in screen', () => {
  const dir = build();
  const app = answers.createApp({
    db: failingDb('no database in this test'),
    mail: createDevMailbox(),
    config: testConfig({ STATIC_DIR: dir }),
  });
  const page = async (path: string) => (await app.request(path)).text();
  /** The markup after React's element, up to the end of the body. */
  const frame = (html: string) => /<div id="root"><\/div>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '';

  it('draws the frame and the heading after #root, so they paint before the scripts run', async () => {
    const assets = frame(await page('/assets'));
    expect(assets).toContain('class="app-shell first-paint"');
    expect(assets).toContain('<main class="app-main"><h1>Assets &amp; &lt;more&gt;</h1></main>');
    // The dashboard is `/`, which is also the build folder's index.html.
    const dashboard = await page('/');
    expect(frame(dashboard)).toContain('<h1>Dashboard</h1>');
    expect(dashboard).toContain('href="/assets/dashboard-1.js"');
    expect(frame(await page('/assets/'))).toContain('<h1>Assets &amp; &lt;more&gt;</h1>');
  });

  it("leaves a record's heading to boot.ts: a template naming the record in the API, its name left out", async () => {
    const record = frame(await page('/assets/5f2a9c0e1b7d4a6f8e3c2b1a'));
    expect(record).toContain('class="app-shell first-paint"');
    expect(record).toContain(
      '<main class="app-main"><template class="first-paint-record" data-read="v1/assets/5f2a9c0e1b7d4a6f8e3c2b1a">' +
        '<section class="asset-page"><nav aria-label="Breadcrumb" class="breadcrumbs"><ol>' +
        '<li><a href="/assets">Assets &amp; &lt;more&gt;</a></li><li aria-current="page" data-name></li></ol></nav>' +
        '<div class="asset-page-header"><h1 data-heading="Asset &quot;{{name}}&quot;"></h1></div>' +
        '</section></template></main>',
    );
    // No record there: a new asset's form, an address that is no record's id.
    expect(frame(await page('/assets/new'))).toContain('<main class="app-main"></main>');
    expect(frame(await page('/assets/a%22b'))).toContain('<main class="app-main"></main>');
  });

  it('draws no frame on a public page', async () => {
    expect(frame(await page('/signin'))).not.toContain('first-paint');
    expect(frame(await page('/somewhere'))).not.toContain('first-paint');
  });
});
