import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result, RunOptions } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * The rules of axe's colour category that it runs by default: all that a change of colour
 * scheme can change (the same document, only its colours differ).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe-core on the page as it is (every rule, or only `COLOUR_RULES`); answers the serious
 * and critical violations.
 */
export async function seriousViolations(
  page: Page,
  { coloursOnly = false } = {},
): Promise<Result[]> {
  // Evaluated through DevTools: the page's Content-Security-Policy (rightly) refuses an
  // injected script tag. Once a document: the dark scheme's check after the light one's
  // finds it there (0.5 MB of script to compile again otherwise).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const options: RunOptions = {
    // Only violations get a selector for each element: passes and the rest at most one (the
    // selectors of every element that passed were most of a run's time on a long list).
    resultTypes: ['violations'],
    ...(coloursOnly && { runOnly: { type: 'rule', values: COLOUR_RULES } }),
  };
  const results = await page.evaluate(
    (options) =>
      (
        window as unknown as {
          axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> };
        }
      ).axe.run(document, options),
    options,
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

/**
 * Serious or critical violations as "scheme: rule (targets)": every rule in the light scheme,
 * then the colour rules in the dark one (the scheme changes colours only: the app sets it on
 * the root element and its style sheet reads it). `inScheme` runs after each scheme's check
 * (a screenshot); the page is left in the dark scheme.
 */
export async function seriousViolationsInBothSchemes(
  page: Page,
  inScheme?: (scheme: 'light' | 'dark') => Promise<unknown>,
): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useScheme(page, scheme);
    for (const v of await seriousViolations(page, { coloursOnly: scheme === 'dark' })) {
      found.push(`${scheme}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    }
    await inScheme?.(scheme);
  }
  return found;
}

/** What the page shows while part of it is still loading (skeleton rows, a busy region). */
const BUSY = '.skeleton-row, .react-aria-TableLoadingIndicator, [aria-busy="true"]';

/**
 * What a test checks the screens of one page with: `check` waits for `ready` and for nothing to
 * be loading any more, then collects the serious or critical violations in both schemes in
 * `found` ("where scheme: rule (targets)"); `visit` opens `path` of `origin` first.
 */
export function axeChecker(page: Page, origin: string) {
  const found: string[] = [];
  const check = async (where: string, ready: Locator) => {
    await ready.first().waitFor();
    await expect.poll(() => page.locator(BUSY).count()).toBe(0);
    found.push(...(await seriousViolationsInBothSchemes(page)).map((p) => `${where} ${p}`));
  };
  const visit = async (path: string, ready: Locator) => {
    await page.goto(`${origin}${path}`);
    await check(path, ready);
  };
  return { found, check, visit };
}
