// npm run build:viewer: the avatar viewer as an ES module library in dist-viewer/, for other
// React apps. react, react-dom and three are peer dependencies (externals); the Draco decoder
// and the environment presets are copied to dist-viewer/decoders/draco/ and
// dist-viewer/environments/ for the host app to serve (see dracoDecoderPath, environmentPath).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viewerAssets } from './vite.config';

const PEERS = /^(react|react-dom|three)(\/|$)/;

export default defineConfig({
  plugins: [react(), viewerAssets()],
  publicDir: false,
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
      external: (id) => PEERS.test(id),
    },
  },
});
