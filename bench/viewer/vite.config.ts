// The viewer bench pages (npm run bench builds them; see run.ts): ours, visage's Avatar and
// <model-viewer>, each in its own entry. Peers come from bench/viewer/node_modules (React 18,
// three 0.166 for visage); our page must use the app's React 19 and three from the root.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { threeFromSources } from '../../vite.config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const APP_ENTRY = here('../../src/viewer.tsx');
const PAGES = ['ours', 'visage', 'model-viewer'] as const;
/** BENCH_VIEWER_PAGES=ours builds our page alone (when the peers are not installed). */
const pages = (process.env.BENCH_VIEWER_PAGES?.split(',') ?? PAGES).filter((p) =>
  (PAGES as readonly string[]).includes(p),
);

/** Bare react / react-dom imports of our page resolve as the app's own do. */
function appReactForOurPage(): Plugin {
  return {
    name: 'bench-app-react',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (!importer?.endsWith('/pages/ours.tsx') || !/^react(-dom)?(\/|$)/.test(id)) return null;
      return this.resolve(id, APP_ENTRY, { skipSelf: true });
    },
  };
}

export default defineConfig({
  root: here('pages'),
  base: '/',
  publicDir: false,
  plugins: [
    appReactForOurPage(),
    // Our page is built as the app builds it; the peers' three is left as they ship it.
    threeFromSources((importer) => !importer.includes('/bench/viewer/node_modules/')),
    react(),
  ],
  resolve: {
    // visage bundles qs, which imports Node's util; Vite would hand it an empty module.
    alias: { util: here('util-shim.ts') },
  },
  build: {
    outDir: here('../.out/viewer'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: Object.fromEntries(pages.map((p) => [p, here(`pages/${p}.html`)])),
    },
  },
});
