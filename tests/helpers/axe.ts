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
  // injected script tag. Once a document: the dark scheme's check after the light one's
  // finds it there (0.5 MB of script to compile again otherwise).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe.run(
      document,
    ),
  );
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Puts the page in the colour scheme as a visitor's system would (the app follows
 * prefers-color-scheme unless a scheme was chosen) and waits until the colours have arrived:
 * the app has applied it, and every CSS transition it started (a background easing into the
 * dark scheme over 150 ms) has finished. Contrast read earlier sees half of each scheme.
 */
export async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Serious or critical violations in the light and then the dark scheme, as "scheme: rule (targets)". */
export async function seriousViolationsInBothSchemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useScheme(page, scheme);
    for (const v of await seriousViolations(page)) {
      found.push(`${scheme}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    }
  }
  return found;
}
