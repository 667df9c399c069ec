/**
 * A list screen's title is drawn before its table is built: the header commits on its own and
 * the filters, pagers and rows follow in a later render, so a phone paints the heading (the
 * page's largest text, what Lighthouse times as LCP) without waiting for the table's rendering.
 */
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage } from '../helpers/app';

const app = appUnderTest();

declare global {
  interface Window {
    /** What the list screen held when its title first came into the document. */
    atTitle?: { table: boolean };
  }
}

describe('a list screen on its first visit', () => {
  it.each(['/assets', '/users'])('%s draws its title before its table', async (path) => {
    const page = await signedInPage(app, undefined, { width: 412, height: 823 });
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const screen = document.querySelector('section.list-screen');
        if (!screen?.querySelector('#list-title')) return;
        window.atTitle = { table: screen.querySelector('[role="grid"], table') !== null };
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${app.server.url}${path}`);
    await page.getByRole('grid').or(page.locator('table')).first().waitFor();
    expect(await page.evaluate(() => window.atTitle)).toEqual({ table: false });
  });
});
