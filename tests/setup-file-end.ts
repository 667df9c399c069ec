/**
 * Unit and component files share their worker's modules (vitest.config.ts, `isolate: false`):
 * what a file faked or stubbed ends with the file, so the next one starts with the real timers,
 * globals, environment variables and methods.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
