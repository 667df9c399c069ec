import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** Runs axe-core on the page as it is; answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<Result[]> {
  // Evaluated through DevTools: the page's Content-Security-Policy (rightly) refuses an
  // injected script tag.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe.run(
      document,
    ),
  );
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
