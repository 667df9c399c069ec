import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startServer, type TestServer } from './server';

/** The real server and a Chromium, shared by the tests of one file. */
export interface AppUnderTest {
  server: TestServer;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
}

/**
 * Starts the reference server on a throwaway data folder and Debian's Chromium before the
 * file's tests, and stops both after them. Read `server` and `browser` inside tests and hooks.
 */
export function appUnderTest(options: { webgl?: boolean } = {}): AppUnderTest {
  const app = {} as AppUnderTest;
  beforeAll(async () => {
    app.server = await startServer();
    app.browser = await launchBrowser(options);
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}
