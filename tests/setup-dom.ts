import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // The `mocked` project's files run in Node unless they ask for jsdom.
  globalThis.localStorage?.clear();
});
