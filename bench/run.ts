// npm run bench: measurements, never pass/fail. Each section prints figures and, where
// there is a baseline, the ratio against it measured in the same run. `npm run bench -- <name>`
// runs one section (`lists`, `textures`, `events`, `auth-check`, `attack` (a flood from one address against a production start: `npm run bench -- attack [--rate 0]`; only on its own), `s3`, `lighthouse` (Lighthouse's mobile preset on seven pages: `npm run bench -- lighthouse --runs 3`; only on its own), `scale` (on PostgreSQL, ~10 minutes; only on its own), `browser-scale` (the assets list in Chromium at the seed's 600 and at a million assets: `npm run bench -- browser-scale --large-url <database at a million>`; only on its own), `load` (two instances under 200 clients, on PostgreSQL; only on its own: `npm run bench -- load --seconds 60 --soak 600`), `fuzz` (`npm run bench -- fuzz 1000` for fewer cases), or `viewer`, which takes options: `npm run bench -- viewer --runs 3`).
import { execFileSync, execSync } from 'node:child_process';
import { buildReport } from './build-report';
import { benchFileValidation } from './files/validate';
import { benchServerAuthCheck } from './server-auth-check';
import { benchServerEvents } from './server-events';
import { benchServerList } from './server-list';
import { benchServerS3 } from './server-s3';
import { benchServerUpload } from './server-upload';

const only = process.argv[2];
const VIEWER_TITLE =
  'Viewer: first painted frame of ours (/embed) against visage and <model-viewer> (bench/viewer)';
if (only === 'viewer') {
  const { benchViewer } = await import('./viewer/run');
  const { viewerOptionsFromArgs } = await import('./viewer/options');
  section(VIEWER_TITLE);
  await benchViewer(viewerOptionsFromArgs(process.argv.slice(3)));
  process.exit(0);
}
if (only === 'fuzz') {
  section('Fuzzing: every reader of untrusted input, 100,000 cases each (bench/fuzz.ts)');
  // A process of its own: the fuzz targets are typed with the browser's modules (tests/fuzz).
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/fuzz.ts', ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  process.exit(0);
}
const S3_TITLE =
  'Two instances on one PostgreSQL and one S3 bucket (Ceph): 50 concurrent 5 MB uploads, 500 concurrent downloads from the other instance';
if (only === 's3') {
  section(S3_TITLE);
  await benchServerS3();
  process.exit(0);
}
if (only === 'scale') {
  section('Lists and writes at 10,000 and at 1,000,000 assets and events, on PostgreSQL');
  await (await import('./server-scale')).benchServerScale(process.argv.slice(3));
  process.exit(0);
}
if (only === 'browser-scale') {
  // Against the build in dist/ as it is (npm run build first).
  section('The assets list in Chromium at 600 and at 1,000,000 assets, on PostgreSQL');
  await (await import('./browser-scale')).benchBrowserScale(process.argv.slice(3));
  process.exit(0);
}
if (only === 'load') {
  section(
    'Load: two instances on PostgreSQL (a million assets) and S3 behind a round-robin proxy, signed-in clients doing what admins do',
  );
  await (await import('./server-load')).benchServerLoad(process.argv.slice(3));
  process.exit(0);
}
if (only === 'lighthouse') {
  section(
    'Lighthouse, mobile preset: sign-in, dashboard, assets list, asset page, users, Trash, embed',
  );
  await (await import('./lighthouse')).benchLighthouse(process.argv.slice(3));
  process.exit(0);
}
if (only === 'attack') {
  section(
    'A flood from one address: sign-in and /healthz from elsewhere, quiet, under 10 guests doing their worst, and under a /healthz flood',
  );
  await (await import('./server-attack')).benchServerAttack(process.argv.slice(3));
  process.exit(0);
}
if (only === 'auth-check') {
  section('Session check: an authenticated list request with the check on and off');
  await benchServerAuthCheck();
  process.exit(0);
}
const LISTS_TITLE =
  'List screens in Chromium: typing, event timing (INP) of keys, select, menu, sort and page, infinite paging, scrolling';
if (only === 'lists') {
  // Against the build in dist/ as it is (npm run build first).
  section(LISTS_TITLE);
  await (await import('./lists')).benchLists();
  process.exit(0);
}
const TEXTURES_TITLE =
  'Delivery textures: WebP against KTX2/Basis (ETC1S, UASTC), bytes, decode in Chromium, GPU memory';
if (only === 'textures') {
  section(TEXTURES_TITLE);
  await (await import('./textures')).benchTextures();
  process.exit(0);
}
if (only === 'events') {
  section('Live events: 100 clients, a burst of 1,000 changes, SSE against polling');
  await benchServerEvents();
  process.exit(0);
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function section(title: string) {
  console.log(`\n== ${title}`);
}

section('Build report: JS per route on a first visit (gzip -9)');
execSync('npm run --silent build', { stdio: 'ignore' });
const report = buildReport();
const baseline = report.find((r) => r.route === '/signin')?.gzipBytes ?? 1;
console.log('route'.padEnd(22), 'raw'.padStart(12), 'gzip'.padStart(12), ' vs /signin');
for (const r of report) {
  console.log(
    r.route.padEnd(22),
    kib(r.rawBytes).padStart(12),
    kib(r.gzipBytes).padStart(12),
    ` ${(r.gzipBytes / baseline).toFixed(2)}x`,
  );
}
const signin = report.find((r) => r.route === '/signin');
if (signin) {
  const budget = 150 * 1024;
  console.log(
    `/signin budget: ${kib(signin.gzipBytes)} of ${kib(budget)} (${((signin.gzipBytes / budget) * 100).toFixed(0)}%)`,
  );
}

section('Server list latency with 100,000 assets (PGlite, in process)');
await benchServerList();

section('Session check: an authenticated list request with the check on and off');
await benchServerAuthCheck();

section('Server memory while a 50 MB model uploads (streamed; target growth under 20 MB)');
await benchServerUpload();

section('Live events: 100 clients, a burst of 1,000 changes, SSE against polling');
await benchServerEvents();

section(S3_TITLE);
await benchServerS3();

section('Upload validation of a 50 MB PNG: header rules and chunk walk against a full decode');
await benchFileValidation();

section(LISTS_TITLE);
await (await import('./lists')).benchLists();

section(TEXTURES_TITLE);
await (await import('./textures')).benchTextures();

section(VIEWER_TITLE);
await (await import('./viewer/run')).benchViewer();
