/**
 * `npm run mutation`: StrykerJS changes the pure modules below one small edit at a time and runs
 * their own unit tests against each change; a change no test notices is a behaviour the tests
 * do not pin. A measurement to read (docs/testing.md), never part of CI's pass or fail.
 * One module: `npm run mutation -- --mutate contract/list-query.ts`.
 */
export default {
  testRunner: 'vitest',
  // The unit (Node) and dom (jsdom) projects of vitest.config.ts on each module's own tests
  // (a mutant some distant component test happens to kill is still unpinned where the module
  // is specified), with fresh modules per file.
  vitest: { configFile: 'vitest.mutation.config.mjs' },
  mutate: [
    'core/files/validate.ts',
    'src/api/http.ts',
    'src/machines/list.rules.ts',
    'contract/list-query.ts',
    'contract/paths.ts',
  ],
  coverageAnalysis: 'perTest',
  // The machine is small and shared.
  concurrency: 2,
  // The sandbox lives under the git-ignored .tmp/, and the fixtures are found above it
  // (core/files/test-fixtures.ts); builds and data are not copied into it.
  tempDirName: '.tmp/stryker',
  ignorePatterns: [
    '/dist',
    '/dist-dev',
    '/dist-viewer',
    '/dist-server',
    '/.data',
    '/.tmp',
    '/bench',
    '/coverage',
    '/docs',
    '/public',
  ],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '.tmp/mutation/index.html' },
  jsonReporter: { fileName: '.tmp/mutation/report.json' },
  clearTextReporter: { allowColor: false, logTests: false },
  thresholds: { high: 90, low: 85, break: null },
};
