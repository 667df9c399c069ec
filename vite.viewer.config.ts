// npm run build:viewer: the avatar viewer as an ES module library in dist-viewer/, for other
// React apps: avatar-viewer.js, its lazy chunks, package.json (below) and, from
// tsconfig.viewer.json, the type declarations (viewer.d.ts). The peers are external; the Draco
// decoder and the environment presets are copied to dist-viewer/decoders/draco/ and
// dist-viewer/environments/ for the host app to serve (see dracoDecoderPath, environmentPath).
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { prefilterWorker, viewerAssets } from './vite.config';

/**
 * Singletons the host app provides: one React (hooks), one three.js (no duplicate scene
 * classes). Everything else (@react-three/fiber, xstate, postprocessing, ...) is bundled.
 */
const VIEWER_PEERS = ['react', 'react-dom', 'three'] as const;
const PEER_PATTERN = new RegExp(`^(${VIEWER_PEERS.join('|')})(/|$)`);

/** dist-viewer/package.json: the library's entry, types and peer dependencies. */
function libraryManifest(): Plugin {
  const app = JSON.parse(readFileSync('package.json', 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const manifest = {
    name: '@avatar-studio/viewer',
    version: app.version,
    description: 'The embeddable avatar viewer of Avatar Studio, as a React component.',
    type: 'module',
    module: './avatar-viewer.js',
    types: './src/viewer.d.ts',
    exports: { '.': { types: './src/viewer.d.ts', import: './avatar-viewer.js' } },
    peerDependencies: Object.fromEntries(
      VIEWER_PEERS.map((peer) => [peer, app.dependencies[peer]]),
    ),
  };
  return {
    name: 'viewer-library-manifest',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'package.json',
        source: `${JSON.stringify(manifest, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), viewerAssets(), libraryManifest()],
  publicDir: false,
  // The environment prefilter's worker takes the little of three it needs with it (a worker
  // cannot share the host app's three): the HDR and EXR loaders, from three's sources.
  worker: prefilterWorker,
  build: {
    outDir: 'dist-viewer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: 'src/viewer.tsx',
      formats: ['es'],
      fileName: 'avatar-viewer',
    },
    rolldownOptions: {
      external: (id) => PEER_PATTERN.test(id),
    },
  },
});
