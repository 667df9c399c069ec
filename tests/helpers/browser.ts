import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/**
 * Debian Chromium, headless; `webgl` adds SwiftShader. Each `newContext()` is a fresh
 * profile (own storage), so tests do not see each other's sessions.
 */
export async function launchBrowser(options: { webgl?: boolean } = {}) {
  const args = options.webgl
    ? [...BASE_ARGS, '--use-angle=swiftshader', '--enable-unsafe-swiftshader']
    : BASE_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  return {
    browser,
    newContext: (viewport = { width: 1280, height: 800 }) => browser.newContext({ viewport }),
    close: () => browser.close(),
  };
}
