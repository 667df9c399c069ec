// npm run bench: measurements, never pass/fail. Each section prints figures and, where
// there is a baseline, the ratio against it measured in the same run. `npm run bench -- <name>`
// runs one section (`lists`, `textures`, `events`, `auth-check`, `attack` (a flood from one address against a production start: `npm run bench -- attack [--rate 0]`; only on its own), `s3`, `server-start` (the server's start, compiled against tsx: `npm run bench -- server-start [--runs 7]`), `lighthouse` (Lighthouse's mobile preset on seven pages: `npm run bench -- lighthouse --runs 3`; only on its own), `first-paint-js` (the JavaScript those pages fetch before their first paint, from a build: `npm run bench -- first-paint-js [--static-dir DIR]`), `long-tasks` (the long tasks of a first visit of those pages, CPU 4x slower: `npm run bench -- long-tasks [--static-dir DIR[,DIR2]] [--runs 5]`; only on its own), `scale` (on PostgreSQL, ~10 minutes; only on its own), `browser-scale` (the assets list in Chromium at the seed's 600 and at a million assets: `npm run bench -- browser-scale --large-url <database at a million>`; only on its own), `load` (two instances under 200 clients, on PostgreSQL; only on its own: `npm run bench -- load --seconds 60 --soak 600`), `fuzz` (`npm run bench -- fuzz 1000` for fewer cases), or `viewer`, which takes options: `npm run bench -- viewer --runs 3`).
import { execFileSync, execSync } from 'node:child_process';
import { buildReport } from './build-report';
import { benchFileValidation } from './files/validate';
import { benchServerAuthCheck } from './server-auth-check';
import { benchServerEvents } from './server-events';
import { benchServerList } from './server-list';
import { benchServerS3 } from './server-s3';
import { benchServerUpload } from './server-upload';

/** The sections that run by name (`npm run bench -- <name> [options]`): title and run. */
const SECTIONS: Record<string, { title: string; run: (args: string[]) => Promise<unknown> }> = {
  viewer: {
    title:
      'Viewer: first painted frame of ours (/embed) against visage and <model-viewer> (bench/viewer)',
    run: async (args) => {
      const { benchViewer } = await import('./viewer/run');
      const { viewerOptionsFromArgs } = await import('./viewer/options');
      await benchViewer(viewerOptionsFromArgs(args));
    },
  },
  fuzz: {
    title: 'Fuzzing: every reader of untrusted input, 100,000 cases each (bench/fuzz.ts)',
    // A process of its own: the fuzz targets are typed with the browser's modules (tests/fuzz).
    run: (args) => {
      execFileSync(process.execPath, ['--import', 'tsx', 'bench/fuzz.ts', ...args], {
        stdio: 'inherit',
      });
      return Promise.resolve();
    },
  },
  s3: {
    title:
      'Two instances on one PostgreSQL and one S3 bucket (Ceph): 50 concurrent 5 MB uploads, 500 concurrent downloads from the other instance',
    run: () => benchServerS3(),
  },
  scale: {
    title: 'Lists and writes at 10,000 and at 1,000,000 assets and events, on PostgreSQL',
    run: async (args) => (await import('./server-scale')).benchServerScale(args),
  },
  // Against the build in dist/ as it is (npm run build first).
  'browser-scale': {
    title: 'The assets list in Chromium at 600 and at 1,000,000 assets, on PostgreSQL',
    run: async (args) => (await import('./browser-scale')).benchBrowserScale(args),
  },
  load: {
    title:
      'Load: two instances on PostgreSQL (a million assets) and S3 behind a round-robin proxy, signed-in clients doing what admins do',
    run: async (args) => (await import('./server-load')).benchServerLoad(args),
  },
  lighthouse: {
    title:
      'Lighthouse, mobile preset: sign-in, dashboard, assets list, asset page, users, Trash, embed',
    run: async (args) => (await import('./lighthouse')).benchLighthouse(args),
  },
  attack: {
    title:
      'A flood from one address: sign-in and /healthz from elsewhere, quiet, under 10 guests doing their worst, and under a /healthz flood',
    run: async (args) => (await import('./server-attack')).benchServerAttack(args),
  },
  'server-start': {
    title: 'Server start: process to first /healthz answer, compiled (npm run serve) against tsx',
    run: async (args) => (await import('./server-start')).benchServerStart(args),
  },
  'auth-check': {
    title: 'Session check: an authenticated list request with the check on and off',
    run: () => benchServerAuthCheck(),
  },
  // Against the build in dist/ as it is (npm run build first), or --static-dir (two to compare).
  'long-tasks': {
    title:
      'Long tasks of a first visit of the signed-in pages, CPU 4x slower: count, total, blocking, longest',
    run: async (args) => (await import('./long-tasks')).benchLongTasks(args),
  },
  // Against the build in dist/ as it is (npm run build first), or --static-dir.
  'first-paint-js': {
    title:
      'JavaScript before the first render of the app: requests and bytes of the pages the Lighthouse bench opens',
    run: async (args) => (await import('./first-paint-js')).benchFirstPaintJs(args),
  },
  // Against the build in dist/ as it is (npm run build first).
  lists: {
    title:
      'List screens in Chromium: typing, event timing (INP) of keys, select, menu, sort and page, infinite paging, scrolling',
    run: async () => (await import('./lists')).benchLists(),
  },
  textures: {
    title:
      'Delivery textures: WebP against KTX2/Basis (ETC1S, UASTC), bytes, decode in Chromium, GPU memory',
    run: async () => (await import('./textures')).benchTextures(),
  },
  events: {
    title: 'Live events: 100 clients, a burst of 1,000 changes, SSE against polling',
    run: () => benchServerEvents(),
  },
};

async function runSection(name: string, args: string[] = []) {
  const { title, run } = SECTIONS[name]!;
  section(title);
  await run(args);
}

const only = process.argv[2];
if (only !== undefined && Object.hasOwn(SECTIONS, only)) {
  await runSection(only, process.argv.slice(3));
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

await runSection('auth-check');

await runSection('server-start');

section('Server memory while a 50 MB model uploads (streamed; target growth under 20 MB)');
await benchServerUpload();

await runSection('events');

await runSection('s3');

section('Upload validation of a 50 MB PNG: header rules and chunk walk against a full decode');
await benchFileValidation();

await runSection('lists');

await runSection('textures');

await runSection('viewer');
