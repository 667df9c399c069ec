import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { ENVIRONMENT_PRESET_FILES, ENVIRONMENT_URL_DIR } from './src/ui/canvas/environment-presets';

/** URL folder (under the base) where the avatar viewer finds the Draco decoder. */
const DRACO_URL_DIR = 'decoders/draco';

/** Files the viewer loads at run time, by URL path under the base: name -> bytes. */
function viewerFiles(): Map<string, { type: string; read: () => Buffer }> {
  const require = createRequire(import.meta.url);
  const files = new Map<string, { type: string; read: () => Buffer }>();
  const draco = dirname(require.resolve('three/examples/jsm/libs/draco/gltf/draco_decoder.js'));
  for (const name of readdirSync(draco).filter((f) => /\.(js|wasm)$/.test(f))) {
    files.set(`${DRACO_URL_DIR}/${name}`, {
      type: name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
      read: () => readFileSync(join(draco, name)),
    });
  }
  // @pmndrs/assets ships each HDRI as a module exporting a base64 data URL; the viewer gets
  // the decoded bytes as a plain file instead (no JavaScript to parse, fetched on use).
  for (const file of new Set(Object.values(ENVIRONMENT_PRESET_FILES))) {
    const module = require.resolve(`@pmndrs/assets/hdri/${file}.exr.js`);
    files.set(`${ENVIRONMENT_URL_DIR}/${file}.exr`, {
      type: 'image/x-exr',
      read: () => {
        const text = readFileSync(module, 'utf8');
        const base64 = /base64,([A-Za-z0-9+/=]+)/.exec(text)?.[1];
        if (!base64) throw new Error(`No base64 EXR in ${module}`);
        return Buffer.from(base64, 'base64');
      },
    });
  }
  return files;
}

/**
 * Serves the viewer's run-time files from the app itself — three's Draco decoder and the
 * environment presets — on the dev server and as files in the build, so the viewer never
 * needs a third-party host. See src/ui/canvas/decoders.ts and environments.ts.
 */
export function viewerAssets(): Plugin {
  const files = viewerFiles();
  return {
    name: 'viewer-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0]?.replace(/^\//, '');
        const file = path === undefined ? undefined : files.get(path);
        if (!file) return next();
        res.setHeader('Content-Type', file.type);
        res.end(file.read());
      });
    },
    generateBundle() {
      for (const [fileName, file] of files) {
        this.emitFile({ type: 'asset', fileName, source: file.read() });
      }
    },
  };
}

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8081';

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react(), viewerAssets()],
  server: {
    proxy: {
      '/v1': apiTarget,
      '/private': apiTarget,
      '/dev': apiTarget,
      '/healthz': apiTarget,
      '/files': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // bench/ reads the manifest to report the JS each route loads.
    manifest: true,
  },
});
