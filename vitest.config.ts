import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      // Logic (machines, requests, readers) runs in Node; a jsdom per file costs seconds on
      // 2 cores, so only components (*.test.tsx) and the few files that need a browser's
      // globals (*.dom.test.ts: storage, navigator, FileReader) get one.
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.dom.test.ts'],
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'src/**/*.dom.test.ts'],
          setupFiles: ['./tests/setup-dom.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          globalSetup: ['./server/test-global-setup.ts'],
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // The UI debounces and fetches: give polled expectations as long as a locator gets.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
