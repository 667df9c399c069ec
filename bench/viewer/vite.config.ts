// The peer pages of the viewer bench (run.ts builds them): visage's Avatar and <model-viewer>,
// each a thin page filling the window. They are built into the same folder as the app's own
// build (BENCH_VIEWER_OUT), their scripts under /assets/ beside the app's, so the project's
// server sends them with the same headers and compression as /embed. Peers come from
// bench/viewer/node_modules (React 18 and three 0.166 for visage) and are left as they ship.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const PAGES = ['visage', 'model-viewer'] as const;
/** BENCH_VIEWER_PAGES=model-viewer builds that page alone (when the other fails to build). */
const pages = (process.env.BENCH_VIEWER_PAGES?.split(',') ?? PAGES).filter((p) =>
  (PAGES as readonly string[]).includes(p),
);

export default defineConfig({
  root: here('pages'),
  base: '/',
  publicDir: false,
  plugins: [react()],
  resolve: {
    // visage bundles qs, which imports Node's util; Vite would hand it an empty module.
    alias: { util: here('util-shim.ts') },
  },
  build: {
    outDir: process.env.BENCH_VIEWER_OUT ?? here('../.out/viewer/site'),
    // The app's build is already there.
    emptyOutDir: false,
    target: 'es2022',
    rolldownOptions: {
      input: Object.fromEntries(pages.map((p) => [p, here(`pages/${p}.html`)])),
    },
  },
});
