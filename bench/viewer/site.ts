// The site the viewer bench serves: the app's build and the peer pages in one folder with the
// fixtures, compressed as the build compresses; the camera each viewer is given; the address
// each is measured on, and what the server sends for each kind of file.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { getBounds } from '@gltf-transform/functions';
import { deriveDelivery } from '../../server/delivery-derive';
import { compressModel } from '../../server/http/compressed-models';
import {
  APP_ROOT,
  BEFORE_SITE,
  BEFORE_TREE,
  deliveryName,
  ENVIRONMENT,
  FIXTURES,
  FOV_DEG,
  isOurs,
  modelPath,
  SITE,
  type Avatar,
  type Viewer,
} from './config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Runs a command in the app's root (or `cwd`); on failure, the error carries its output's end. */
function run(command: string, args: string[], env: Record<string, string> = {}, cwd = APP_ROOT) {
  try {
    execFileSync(command, args, {
      cwd,
      stdio: 'pipe',
      env: { ...process.env, ...env },
      maxBuffer: 64 * 2 ** 20,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`.trim();
    throw new Error(
      `${[command, ...args].join(' ')} failed:\n${output.split('\n').slice(-15).join('\n')}`,
      { cause: error },
    );
  }
}

/**
 * Builds the site: the app as `npm run build` builds it (into SITE), the peer pages into the
 * same folder, the fixtures beside them, then the build's own compression over all of it.
 * Returns the viewers that could be built and, for the others, why not.
 */
export async function buildSite(
  viewers: readonly Viewer[],
  avatars: readonly Avatar[],
  install: boolean,
  before: string | undefined,
): Promise<Map<Viewer, string>> {
  const unbuilt = new Map<Viewer, string>();
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  if (viewers.some(isOurs)) {
    console.log(
      'bench/viewer: building the app (tsr generate, vite build, the same for /embed) ...',
    );
    try {
      run('npx', ['tsr', 'generate']);
      run('npx', ['vite', 'build', '--outDir', SITE, '--emptyOutDir']);
      run('npx', ['vite', 'build', '--config', 'vite.embed.config.ts', '--outDir', SITE]);
    } catch (error) {
      for (const viewer of viewers.filter(isOurs)) unbuilt.set(viewer, String(error));
    }
  }
  // The server serves a folder only when it holds an index.html.
  if (!existsSync(join(SITE, 'index.html'))) writeFileSync(join(SITE, 'index.html'), '');

  const peers = viewers.filter((v) => !isOurs(v));
  if (peers.length) {
    const installed = () => existsSync(here('node_modules/@readyplayerme/visage'));
    if (!installed() && install) {
      console.log('bench/viewer: installing the peers (npm install --prefix bench/viewer) ...');
      try {
        run('npm', ['install', '--prefix', 'bench/viewer']);
      } catch (error) {
        for (const peer of peers) unbuilt.set(peer, `peer install failed: ${String(error)}`);
      }
    } else if (!installed()) {
      for (const peer of peers)
        unbuilt.set(peer, 'peers not installed: run `npm install --prefix bench/viewer`');
    }
    const buildable = peers.filter((p) => !unbuilt.has(p));
    console.log(`bench/viewer: building the peer pages (${buildable.join(', ')}) ...`);
    const config = ['vite', 'build', '--config', 'bench/viewer/vite.config.ts'];
    try {
      run('npx', config, { BENCH_VIEWER_OUT: SITE, BENCH_VIEWER_PAGES: buildable.join(',') });
    } catch {
      // Build them one by one, to tell which one fails.
      for (const peer of buildable) {
        try {
          run('npx', config, { BENCH_VIEWER_OUT: SITE, BENCH_VIEWER_PAGES: peer });
        } catch (error) {
          unbuilt.set(peer, String(error));
        }
      }
    }
  }

  for (const file of [...avatars.map((a) => `avatars/${a}`), 'environments/soft.hdr']) {
    const target = join(SITE, 'fixtures', file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(FIXTURES, file), target);
  }
  if (viewers.includes('ours-delivery')) {
    console.log('bench/viewer: deriving the delivery versions (server/delivery-derive.ts) ...');
    for (const avatar of avatars) {
      const original = new Uint8Array(readFileSync(join(FIXTURES, 'avatars', avatar)));
      const derived = await deriveDelivery(original);
      const bytes = derived.kind === 'derived' ? derived.bytes : original;
      const target = join(SITE, 'fixtures', 'avatars', deliveryName(avatar));
      writeFileSync(target, bytes);
      // Sent as the studio's /files sends a model to a browser that accepts brotli.
      const compressed = await compressModel(bytes);
      writeFileSync(`${target}.br`, compressed);
      console.log(
        `  ${avatar}: ${bytes.byteLength} of ${original.byteLength} bytes, ${compressed.byteLength} sent (brotli)`,
      );
    }
  }
  const sites = [SITE];
  if (before && viewers.includes('ours-before')) {
    try {
      buildBefore(before);
      sites.push(BEFORE_SITE);
    } catch (error) {
      unbuilt.set('ours-before', String(error));
    }
  }
  console.log('bench/viewer: compressing (scripts/compress-dist.ts) ...');
  for (const site of sites) run('node', ['--import', 'tsx', 'scripts/compress-dist.ts', site]);
  return unbuilt;
}

/**
 * The site as built above (not yet compressed), with /embed as commit `ref` builds it: its
 * page and scripts laid over the same folder, so everything else (the back office's public
 * files, the peers, the fixtures) is the same. Built in a git worktree of `ref` sharing this
 * checkout's node_modules, so `ref` must need no other dependencies.
 */
function buildBefore(ref: string) {
  console.log(`bench/viewer: building /embed as ${ref} builds it (ours-before) ...`);
  rmSync(BEFORE_TREE, { recursive: true, force: true });
  run('git', ['worktree', 'prune']);
  run('git', ['worktree', 'add', '--detach', BEFORE_TREE, ref]);
  try {
    symlinkSync(join(APP_ROOT, 'node_modules'), join(BEFORE_TREE, 'node_modules'));
    const built = join(BEFORE_TREE, '.bench-embed');
    run('npx', ['tsr', 'generate'], {}, BEFORE_TREE);
    const config = ['--config', 'vite.embed.config.ts', '--outDir', built, '--emptyOutDir'];
    run('npx', ['vite', 'build', ...config], {}, BEFORE_TREE);
    rmSync(BEFORE_SITE, { recursive: true, force: true });
    cpSync(SITE, BEFORE_SITE, { recursive: true });
    cpSync(built, BEFORE_SITE, { recursive: true });
  } finally {
    run('git', ['worktree', 'remove', '--force', BEFORE_TREE]);
  }
}

export interface Framing {
  /** The bounding sphere's centre, in the model's own coordinates (metres). */
  target: [number, number, number];
  /** Distance at which the sphere fills the vertical field of view. */
  distance: number;
}

/** Our `fit` (src/ui/canvas/avatar-model.tsx): the sphere around the bind-pose bounding box. */
export async function framing(avatar: string): Promise<Framing> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const document = await io.read(join(FIXTURES, 'avatars', avatar));
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) throw new Error(`${avatar} has no scene`);
  const { min, max } = getBounds(scene);
  const target = [0, 1, 2].map((i) => (min[i]! + max[i]!) / 2) as Framing['target'];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  const distance = radius / Math.sin(((FOV_DEG / 2) * Math.PI) / 180);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return { target: target.map(round) as Framing['target'], distance: round(distance) };
}

/** The address each viewer is measured on: /embed for ours, a thin page for the peers. */
export function pageUrl(base: string, viewer: Viewer, avatar: string, frame: Framing): string {
  const modelSrc = modelPath(viewer, avatar);
  if (isOurs(viewer)) {
    const query = new URLSearchParams({ modelSrc, environment: ENVIRONMENT, fit: 'true' });
    return `${base}/embed?${query}`;
  }
  const query = new URLSearchParams({
    modelSrc,
    environment: ENVIRONMENT,
    target: frame.target.join(','),
    distance: String(frame.distance),
    fov: String(FOV_DEG),
  });
  return `${base}/${viewer}.html?${query}`;
}

/** What the server answers for each kind of file, so the run shows the headers are the same. */
export async function describeHeaders(base: string, urls: Record<string, string>) {
  console.log('What the server sends (Accept-Encoding: br, gzip):');
  for (const [what, url] of Object.entries(urls)) {
    const response = await fetch(`${base}${url}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    await response.arrayBuffer();
    const h = (name: string) => response.headers.get(name) ?? '-';
    console.log(
      `  ${what.padEnd(26)} ${response.status} ${h('content-type')}; encoding ${h('content-encoding')}; cache-control ${h('cache-control')}${
        h('link') !== '-' ? `; link ${h('link')}` : ''
      }`,
    );
  }
}
