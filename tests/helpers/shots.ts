import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * A picture of `target` for a person to look at, as `<SHOTS_DIR>/<name>.png`, taken only when
 * SHOTS_DIR names a folder: a test run without it spends no time on pictures nobody opens
 * (each costs a raster and a PNG encode on 2 busy cores). `fullPage` applies to a page.
 */
export async function shot(target: Page | Locator, name: string, { fullPage = false } = {}) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await ('goto' in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}
