// The viewer bench: our viewer on /embed, the route embedders use, against visage and
// <model-viewer>, each on a page that only fills the window with the viewer. How it is kept
// fair (docs/benchmarks.md "Viewer: first painted frame"):
// - one build folder holds the app's build, the peer pages (their scripts under /assets/ like
//   ours) and the fixture files, all compressed by scripts/compress-dist.ts; the project's
//   real server (tests/helpers/server.ts) serves it, so every file of every viewer comes from
//   the same server with the same headers and compression;
// - every viewer gets the same .glb and the same .hdr file (/fixtures/...), and a camera that
//   looks at the model's bounding sphere from the distance at which the sphere fills a 50°
//   vertical field of view (our `fit`);
// - each run is a fresh Chromium (SwiftShader WebGL) at 1280 x 720 with the cache disabled;
//   times are performance.now() in the page, i.e. from navigation start;
// - "first painted frame" is the same probe for all three (probe.ts); each viewer's own
//   "loaded" signal is recorded next to it.
// Measurements only, never pass/fail, and never made up: a viewer that cannot be built or
// fails in a run is reported as such.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../tests/helpers/server';
import {
  BEFORE_SITE,
  ENVIRONMENT,
  FOV_DEG,
  OUT,
  SCREENSHOTS,
  SITE,
  SWITCHED,
  type Viewer,
} from './config';
import {
  viewerOptionsFromArgs,
  withDefaults,
  type BenchViewerOptions,
  type Options,
} from './options';
import { kib, ms, report } from './report';
import {
  measureFirstFrame,
  measureSteady,
  screenshots,
  traceFirstFrame,
  type FirstFrameRun,
  type SteadyRun,
} from './scenarios';
import { buildSite, describeHeaders, framing, pageUrl, type Framing } from './site';

/** Builds, serves and measures; prints the tables and returns every run. */
export async function benchViewer(options: BenchViewerOptions = {}) {
  const opts: Options = withDefaults(options);
  const measured = [...new Set([...opts.avatars, ...SWITCHED])];
  // ours-before is measured with --before, always then.
  const asked = opts.before
    ? [...new Set<Viewer>([...opts.viewers, 'ours-before'])]
    : opts.viewers.filter((v) => v !== 'ours-before' || options.viewers?.includes(v));
  const unbuilt = await buildSite(asked, measured, opts.install, opts.before);
  if (!opts.before && asked.includes('ours-before'))
    unbuilt.set('ours-before', 'no commit to build it from: add --before <ref>');
  for (const [viewer, why] of unbuilt)
    console.log(`NOT MEASURED: ${viewer} could not be built: ${why}`);
  const viewers = asked.filter((v) => !unbuilt.has(v));
  if (viewers.length === 0) return { firstFrames: [], steady: [] };

  const frames = new Map<string, Framing>();
  for (const avatar of measured) frames.set(avatar, await framing(avatar));
  const server = await startServer({ STATIC_DIR: SITE, MORPH_WORKER: 'off' });
  // The same server code on the other folder, so that page is answered as /embed is.
  const beforeServer = viewers.includes('ours-before')
    ? await startServer({ STATIC_DIR: BEFORE_SITE, MORPH_WORKER: 'off' })
    : undefined;
  const firstFrames: FirstFrameRun[] = [];
  const steady: SteadyRun[] = [];
  try {
    const baseOf = (v: Viewer) => (v === 'ours-before' ? beforeServer! : server).url;
    const urls = (avatar: string) =>
      Object.fromEntries(
        viewers.map((v) => [v, pageUrl(baseOf(v), v, avatar, frames.get(avatar)!)]),
      );
    const sample = urls(opts.avatars[0]!);
    console.log(`Server: ${server.url} (the project's server, STATIC_DIR=${SITE})`);
    if (beforeServer)
      console.log(`Server for ours-before: ${beforeServer.url} (STATIC_DIR=${BEFORE_SITE})`);
    for (const viewer of viewers)
      console.log(`  ${viewer}: ${sample[viewer]!.slice(baseOf(viewer).length)}`);
    await describeHeaders(server.url, {
      ...Object.fromEntries(
        viewers
          .filter((v) => v !== 'ours-before')
          .map((v) => [`page (${v})`, sample[v]!.slice(server.url.length)]),
      ),
      'model (.glb)': `/fixtures/avatars/${opts.avatars[0]}`,
      'environment (.hdr)': ENVIRONMENT,
    });
    for (const [avatar, frame] of frames)
      console.log(
        `Framing ${avatar}: target ${frame.target.join(', ')} m, distance ${frame.distance} m, fov ${FOV_DEG}°`,
      );

    if (opts.screenshots) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      console.log(`\nScreenshots (${SCREENSHOTS}):`);
      for (const avatar of opts.avatars)
        for (const viewer of viewers)
          console.log(`  ${await screenshots(urls(avatar)[viewer]!, viewer, avatar, opts)}`);
    }

    if (opts.trace)
      for (const avatar of opts.avatars)
        for (const viewer of viewers)
          await traceFirstFrame(urls(avatar)[viewer]!, viewer, avatar, opts);

    for (const c of opts.cases)
      for (const avatar of opts.avatars) {
        console.log(`\n${avatar}, ${c}:`);
        for (let run = 0; run < opts.runs; run++) {
          // A B C, then B C A, then C A B: no viewer always goes first.
          const order = viewers.map((_, i) => viewers[(i + run) % viewers.length]!);
          for (const viewer of order) {
            const result = await measureFirstFrame(
              urls(avatar)[viewer]!,
              { viewer, avatar, case: c, run: run + 1 },
              opts,
            );
            firstFrames.push(result);
            console.log(
              `  run ${run + 1} ${viewer}: ${
                result.error
                  ? `FAILED: ${result.error}`
                  : `first painted frame ${ms(result.firstPaintMs!)}, loaded ${ms(result.loadedMs!)}, ${kib(result.bytesBeforePaint!)} before the frame`
              }`,
            );
          }
        }
      }

    if (opts.switches > 0 || opts.stillMs > 0) {
      console.log('\nStill frames and memory:');
      for (const viewer of viewers) {
        const result = await measureSteady(urls(SWITCHED[0]!)[viewer]!, viewer, opts);
        steady.push(result);
        console.log(`  ${viewer}: ${result.error ? `FAILED: ${result.error}` : 'done'}`);
      }
    }
  } finally {
    await server.stop();
    await beforeServer?.stop();
  }
  report(firstFrames, steady, viewers, opts);
  for (const [viewer, why] of unbuilt)
    console.log(`${viewer}: not measured (could not be built: ${why.split('\n')[0]})`);
  writeFileSync(
    join(OUT, 'results.json'),
    JSON.stringify(
      { options: opts, unbuilt: Object.fromEntries(unbuilt), firstFrames, steady },
      null,
      2,
    ),
  );
  console.log(`Every run: ${join(OUT, 'results.json')}`);
  return { firstFrames, steady };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchViewer(viewerOptionsFromArgs(process.argv.slice(2)));
}
