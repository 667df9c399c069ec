import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

/** URL folder (under the base) where the avatar viewer finds the Draco decoder. */
const DRACO_URL_DIR = 'decoders/draco';

/**
 * Serves three's Draco decoder from the app itself (dev server) and copies it into the build,
 * so Draco-compressed avatars never need a third-party host. See src/ui/canvas/decoders.ts.
 */
export function viewerDecoders(): Plugin {
  const require = createRequire(import.meta.url);
  const source = dirname(require.resolve('three/examples/jsm/libs/draco/gltf/draco_decoder.js'));
  const files = readdirSync(source).filter((f) => /\.(js|wasm)$/.test(f));
  return {
    name: 'viewer-decoders',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = req.url?.split('?')[0]?.split(`/${DRACO_URL_DIR}/`)[1];
        if (!name || !files.includes(name)) return next();
        res.setHeader(
          'Content-Type',
          name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
        );
        createReadStream(join(source, name)).pipe(res);
      });
    },
    generateBundle() {
      for (const name of files) {
        this.emitFile({
          type: 'asset',
          fileName: `${DRACO_URL_DIR}/${name}`,
          source: readFileSync(join(source, name)),
        });
      }
    },
  };
}

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8081';

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    viewerDecoders(),
  ],
  server: {
    proxy: {
      '/v1': apiTarget,
      '/private': apiTarget,
      '/dev': apiTarget,
      '/healthz': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // bench/ reads the manifest to report the JS each route loads.
    manifest: true,
  },
});
