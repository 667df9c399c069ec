/**
 * Typing in a list's search: the field keeps the keys to itself until the typing
 * pauses, so ten characters typed at a person's pace (60 to 100 ms apart) send exactly one
 * list request, and the list then shows what was typed; at 1280 and 390 px, axe clean in both schemes.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN, appUnderTest, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const QUERY = 'Sneakers 2'; // ten characters

describe.each([1280, 390])('at %i px', (width) => {
  it('typing ten characters into the assets search sends one list request', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, { width, height: 800 });
    await page.getByText('300 items').waitFor();
    const sent: string[][] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/assets') sent.push([...url.searchParams.values()]);
    });
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.click();
    // Typed inside the page, 80 ms apart: sent key by key from here, a loaded machine spaced
    // them seconds apart (pauses, rightly handed on). The gaps measured include the page's
    // own work for each key, which is what used to make typing send several requests.
    const gaps = await page.evaluate(async (text) => {
      const stamps: number[] = [];
      for (const key of text) {
        document.execCommand('insertText', false, key);
        stamps.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 80));
      }
      return stamps.slice(1).map((stamp, index) => stamp - stamps[index]!);
    }, QUERY);
    expect(await search.inputValue()).toBe(QUERY);
    await expect.poll(() => new URL(page.url()).searchParams.get('filter') ?? '').toContain(QUERY);
    await page.getByText(/^\d+ items?$/).waitFor();
    // Long past the debounce: nothing more is coming.
    await page.waitForTimeout(1_000);
    expect(sent, `gaps between keys: ${gaps.map(Math.round).join(', ')} ms`).toHaveLength(1);
    expect(sent[0]!.some((value) => value.includes(QUERY))).toBe(true);
    expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
    await shot(page, `search-typed-${width}`);
    await page.context().close();
  });
});
