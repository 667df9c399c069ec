import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** The end-to-end files that run in steps of their own (see the projects below). */
const WEBGL = ['tests/e2e/**/*.webgl.test.ts'];
const QUIET = ['tests/e2e/search-typing.test.ts'];
/**
 * Unit and component files that replace modules with `vi.mock` (named `*.mocked.test.*`, which
 * ESLint holds to): they get modules of their own. The other unit and component files share
 * their worker's modules, as the server's do: a module already loaded by an earlier file would
 * not be replaced.
 */
const MOCKED = ['src/**/*.mocked.test.{ts,tsx}'];

/** An end-to-end project: `test` on top of what they share, run in `group` order. */
const e2e = (
  test: { name: string; include?: string[]; exclude?: string[]; maxWorkers: number },
  group: number,
) => ({
  test: {
    environment: 'node' as const,
    // A worker keeps its modules from one file to the next: its Chromium and the profiles its
    // files closed stay for the next file (tests/helpers/browser.ts, page-pool.ts).
    isolate: false,
    globalSetup: ['./tests/e2e-global-setup.ts'],
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // The UI debounces and fetches: give polled expectations as long as a locator gets.
    expect: { poll: { timeout: 15_000 } },
    sequence: { groupOrder: group },
    ...test,
  },
});

export default defineConfig({
  test: {
    projects: [
      // Logic (machines, requests, readers) runs in Node; a jsdom per file costs seconds on
      // 2 cores, so only components (*.test.tsx) and the few files that need a browser's
      // globals (*.dom.test.ts: storage, navigator, FileReader) get one.
      // Their files share a worker's modules (isolate: false): importing them again for each
      // file costs a third of these projects' time on 2 cores.
      {
        test: {
          name: 'unit',
          environment: 'node',
          // A thread per file starts in half the time a process does (the default, forks).
          pool: 'threads',
          isolate: false,
          include: [
            'src/**/*.test.ts',
            'contract/**/*.test.ts',
            'core/**/*.test.ts',
            'tests/*.test.ts',
          ],
          exclude: ['src/**/*.dom.test.ts', ...MOCKED],
          setupFiles: ['./tests/setup-bytes.ts', './tests/setup-file-end.ts'],
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          pool: 'threads',
          // A component test types and clicks through React Aria in jsdom: about 1 s alone,
          // over 5 s (the default) beside the checks and the PostgreSQL suite on 2 busy cores.
          testTimeout: 15_000,
          isolate: false,
          include: ['src/**/*.test.tsx', 'src/**/*.dom.test.ts'],
          exclude: MOCKED,
          setupFiles: ['./tests/setup-dom.ts', './tests/setup-file-end.ts'],
        },
      },
      // One file a worker's fresh modules; a component file asks for jsdom in its first lines
      // (`@vitest-environment jsdom`).
      {
        plugins: [react()],
        test: {
          name: 'mocked',
          environment: 'node',
          pool: 'threads',
          testTimeout: 15_000,
          include: MOCKED,
          setupFiles: ['./tests/setup-bytes.ts', './tests/setup-dom.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          // The files share one worker's modules: a file of its own would import the server
          // (Hono, PGlite, glTF-Transform, the S3 client) again, about a second each. Each file
          // still gets its own database.
          isolate: false,
          globalSetup: ['./server/test-global-setup.ts'],
          setupFiles: ['./tests/setup-bytes.ts'],
          // A line per request would bury a failure's output; tests read lines with captureLog.
          env: { LOG_LEVEL: 'warn' },
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // End-to-end: a real server and Chromium per file. The one that times typing at a
      // person's pace runs first with nothing beside it (beside another file, 80 ms between
      // keys stretch to about 250); then two files at a time (a file keeps about a core busy:
      // three at a time are slower than two); then the files that draw with WebGL
      // (*.webgl.test.ts: SwiftShader renders on the CPU), also two at a time: one at a time
      // leaves a third of 2 cores idle.
      // scripts/test.sh runs the server suite on PostgreSQL beside them.
      e2e({ name: 'e2e-quiet', include: QUIET, maxWorkers: 1 }, 1),
      e2e({ name: 'e2e', exclude: [...WEBGL, ...QUIET], maxWorkers: 2 }, 2),
      e2e({ name: 'e2e-webgl', include: WEBGL, maxWorkers: 2 }, 3),
    ],
  },
});
