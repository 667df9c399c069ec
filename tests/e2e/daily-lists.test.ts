/**
 * Daily use of the list screens, at 1280 and 390 px: suggestions that open with the
 * first options and load more as the list scrolls, a page size kept in the address and
 * remembered per list, and filters offered only to a role that may read their options.
 */
import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appUnderTest,
  signedInPage,
  signedInAt,
  guestAt,
  ADMIN,
  readyToPick,
} from '../helpers/app';
import { adminApi } from '../helpers/accounts';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const DEMO_USER = { email: 'demo@avatar.studio', password: 'avatar-studio-demo' };
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });

const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';
const search = (page: Page) => new URL(page.url()).searchParams;
/** These tests walk several screens each on a shared 2-core machine. */
const SLOW = 240_000;
const firstRow = (page: Page) => page.locator(ROWS).first().waitFor({ timeout: 60_000 });

/** The filter fields: the bar at 1280 px, the All Filters dialog at 390 px. */
async function filterFields(page: Page, width: number): Promise<Locator> {
  if (width > 500) return page.getByRole('search', { name: 'Filters' });
  await page.getByRole('button', { name: 'All Filters' }).click();
  return page.getByRole('dialog', { name: 'All Filters' });
}

/** The labels of the fields offered (in the bar, or the dialog on a phone). */
const fieldLabels = (scope: Locator) =>
  scope.locator('.filter-label, .field-label').allInnerTexts();

describe.each(WIDTHS)('suggestions at %i px', (width) => {
  it(
    'open with the first options, load more on scroll, and say when none match',
    async () => {
      const page = await signedInPage(app, undefined, viewport(width));
      const reads: URLSearchParams[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/v1/tags') reads.push(url.searchParams);
      });
      await page.goto(`${app.server.url}/assets`);
      await firstRow(page);
      const fields = await filterFields(page, width);
      const tags = fields.locator('.filter-autocomplete', {
        has: page.getByRole('combobox', { name: 'Tags' }),
      });
      // The toggle opens the list with nothing typed: tags at once, not an empty box.
      await tags.getByRole('button', { name: 'Show suggestions' }).click();
      const listbox = page.getByRole('listbox');
      const options = listbox.getByRole('option');
      await options.first().waitFor();
      expect(reads[0]?.toString()).toBe('limit=5');
      // While the end of the list is in view the next pages are read (5 a page, spec §9), until
      // all 12 seeded tags are there. The list's scroll box is scrolled to its end at each look
      // (not an option into view: options re-render as pages arrive).
      const scrollBox = page.locator('.menu-popover').filter({ has: listbox });
      await expect
        .poll(
          async () => {
            await scrollBox.evaluate((box) => box.scrollTo(0, box.scrollHeight));
            return options.count();
          },
          { timeout: 30_000 },
        )
        .toBe(12);
      expect(new Set(await options.allInnerTexts()).size).toBe(12);
      expect(reads.map((params) => params.get('page'))).toEqual([null, '2', '3']);
      await shot(page, `daily-lists-suggestions-${width}`);
      // A text nothing matches says so.
      await page.getByRole('combobox', { name: 'Tags' }).fill('no such tag at all');
      await listbox.getByText('No Results').waitFor();
      await page.context().close();
    },
    SLOW,
  );
});

/**
 * Opens the suggestions of `field` (a `.filter-autocomplete`) with nothing typed and checks
 * what a user sees: the first page of options at once (not an empty box), the rest as the list
 * is scrolled to its end, all `names` once each; then text nothing matches says so.
 */
async function expectSuggestions(
  page: Page,
  field: Locator,
  label: string,
  endpoint: string,
  names: string[],
) {
  const reads: URLSearchParams[] = [];
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === endpoint) reads.push(url.searchParams);
  };
  page.on('request', onRequest);
  // Scrolled to first, once the page stopped loading, as a person would: a list opened while
  // the page still moves or scrolls closes (React Aria closes a combo box's list on scroll).
  await readyToPick(page, field);
  await field.getByRole('button', { name: 'Show suggestions' }).click();
  const listbox = page.getByRole('listbox');
  const options = listbox.getByRole('option');
  await options.first().waitFor();
  // The first page of 5 (spec §9), nothing typed; then the next pages while the end of the
  // list is in view. Its scroll box is scrolled to its end at each look.
  expect(reads[0]?.get('limit')).toBe('5');
  expect(reads[0]?.get('page')).toBeNull();
  expect(reads[0]?.get('search') ?? '').toBe('');
  const scrollBox = page.locator('.menu-popover').filter({ has: listbox });
  await expect
    .poll(
      async () => {
        await scrollBox.evaluate((box) => box.scrollTo(0, box.scrollHeight));
        // (A "Loading" row stands at the end while the next page comes.)
        return (await options.allInnerTexts()).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual([...names].sort());
  expect(reads.map((params) => params.get('page'))).toContain('2');
  page.off('request', onRequest);
  await field.getByRole('combobox', { name: label }).fill('no such name at all');
  await listbox.getByText('No Results').waitFor();
  await page.keyboard.press('Escape');
}

describe.each(WIDTHS)('more suggestions at %i px', (width) => {
  it(
    "the Application filter and the asset page's body picker open with options, load more, and say when none match",
    async () => {
      const applications = await api<{ name: string }[]>('GET', '/v1/applications?limit=100');
      const bodies = await api<{ id: string; name: string; gender: string }[]>(
        'GET',
        '/v1/assets?type=body&limit=100',
      );
      const [asset] = await api<{ id: string }[]>('GET', '/v1/assets?type=top&limit=1');
      // More than one page each, or "load more" would prove nothing.
      expect(applications.length).toBeGreaterThan(5);
      expect(bodies.length).toBeGreaterThan(5);
      const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, viewport(width));
      await firstRow(page);
      const fields = await filterFields(page, width);
      await expectSuggestions(
        page,
        fields.locator('.filter-autocomplete', {
          has: page.getByRole('combobox', { name: 'Application' }),
        }),
        'Application',
        '/v1/applications',
        applications.map((a) => a.name),
      );

      await page.goto(`${app.server.url}/assets/${asset!.id}`);
      const bodyPicker = page.locator('.filter-autocomplete', {
        has: page.getByRole('combobox', { name: 'Body assets' }),
      });
      await expectSuggestions(
        page,
        bodyPicker,
        'Body assets',
        '/v1/assets',
        // Each body's name over its gender and id, which tell bodies of one name apart.
        bodies.map((b) => `${b.name}\n${b.gender[0]!.toUpperCase()}${b.gender.slice(1)} · ${b.id}`),
      );
      await page.context().close();
    },
    SLOW,
  );
});

/** Chooses 50 rows per page below the list and checks the address says so. */
async function choose50(page: Page, width: number) {
  await firstRow(page);
  expect(await page.locator(ROWS).count()).toBe(10);
  await page.getByRole('button', { name: /Rows per page/ }).click();
  await page.getByRole('option', { name: '50', exact: true }).click();
  await expect.poll(() => page.locator(ROWS).count()).toBe(50);
  expect(search(page).get('limit')).toBe('50');
  expect(search(page).get('page')).toBe('1');
  await shot(page, `daily-lists-page-size-${width}`, { fullPage: true });
  await expectAxeClean(page);
}

describe('page size', () => {
  it(
    'at 1280 px is kept in the address and remembered',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, viewport(1280));
      await choose50(page, 1280);

      // Back brings the 10 rows again; Forward the 50.
      await page.goBack();
      await expect.poll(() => page.locator(ROWS).count()).toBe(10);
      await page.goForward();
      await expect.poll(() => page.locator(ROWS).count()).toBe(50);

      // Loaded again without a size, the list remembers 50 (in the browser's storage). That
      // another list keeps its own, and that an address's size the lists do not offer is the
      // remembered one, src/machines/list.view.test.tsx shows.
      await page.goto(`${app.server.url}/assets`);
      await expect.poll(() => page.locator(ROWS).count()).toBe(50);
      await expect.poll(() => search(page).get('limit')).toBe('50');
      await page.context().close();
    },
    SLOW,
  );

  // What a list remembers and how it reads an address is the same at every width: the phone
  // checks the control below its cards.
  it(
    'at 390 px is chosen below the cards and kept in the address',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, viewport(390));
      await choose50(page, 390);
      await page.context().close();
    },
    SLOW,
  );
});

// What each role is offered, in the bar and in a phone's All Filters, is shown on the roles'
// own rules by src/features/assets/list/assets-list-filters.test.tsx; here the real server's
// sessions, and no refused read, at one width.
describe('filters by role at 1280 px', () => {
  const width = 1280;
  it(
    'a guest is offered no Application or Tags filter, the demo user Tags only, with options',
    async () => {
      const guest = await guestAt(app, `${app.server.url}/assets`, viewport(width));
      await firstRow(guest);
      const guestFields = await fieldLabels(await filterFields(guest, width));
      expect(guestFields).toEqual(expect.arrayContaining(['Type', 'Gender']));
      expect(guestFields).not.toContain('Application');
      expect(guestFields).not.toContain('Tags');
      await guest.context().close();

      const demo = await signedInPage(app, DEMO_USER, viewport(width));
      const refused: string[] = [];
      demo.on('response', (response) => {
        if (response.status() === 403) refused.push(response.url());
      });
      await demo.goto(`${app.server.url}/assets`);
      await firstRow(demo);
      const fields = await filterFields(demo, width);
      const labels = await fieldLabels(fields);
      expect(labels).toContain('Tags');
      expect(labels).not.toContain('Application');
      await fields
        .locator('.filter-autocomplete', { has: demo.getByRole('combobox', { name: 'Tags' }) })
        .getByRole('button', { name: 'Show suggestions' })
        .click();
      await demo.getByRole('listbox').getByRole('option').first().waitFor();
      expect(refused).toEqual([]);
      await demo.context().close();
    },
    SLOW,
  );
});

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const rowNamed = (page: Page, name: string) =>
  page.locator(ROWS).filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const stamp = () => Math.random().toString(36).slice(2, 8);

/** Calls the API as the seeded admin; answers the `data` of the answer. */
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);

/** Serious or critical axe violations in both schemes (none expected). */
async function expectAxeClean(page: Page) {
  expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
}

describe.each(WIDTHS)('applications at %i px', (width) => {
  it(
    'an admin creates one (a taken name is refused) and renames it from its row menu',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/applications`, ADMIN, viewport(width));
      await firstRow(page);
      const name = `Showroom ${width} ${stamp()}`;
      const form = page.getByRole('form', { name: 'New application' });
      await form.getByRole('textbox', { name: 'Application name' }).fill(name);
      await form.getByRole('button', { name: 'Add application' }).click();
      await toasts(page).getByText(`Application ${name} created`).waitFor();
      await rowNamed(page, name).waitFor();
      // A name in use (ignoring case) is refused, said where the list's failures are.
      await form.getByRole('textbox', { name: 'Application name' }).fill(name.toUpperCase());
      await form.getByRole('button', { name: 'Add application' }).click();
      await toasts(page).getByText(`An application named "${name.toUpperCase()}"`).waitFor();
      // Blank: the field says so, nothing is sent.
      await form.getByRole('textbox', { name: 'Application name' }).fill('  ');
      await form.getByRole('button', { name: 'Add application' }).click();
      await form.getByText('Required', { exact: true }).waitFor();

      await page.getByRole('button', { name: `Actions: ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rename the application' });
      await dialog.getByRole('textbox', { name: 'Application name' }).fill(`${name} renamed`);
      await shot(page, `daily-lists-application-rename-${width}`);
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await toasts(page).getByText(`Application renamed to ${name} renamed`).waitFor();
      await rowNamed(page, `${name} renamed`).waitFor();
      await shot(page, `daily-lists-applications-${width}`);
      await expectAxeClean(page);
      await page.context().close();
    },
    SLOW,
  );
});

describe.each(WIDTHS)("the asset's tag picker at %i px", (width) => {
  it(
    'creates a tag from text no tag names and sets it on the asset',
    async () => {
      const asset = await api<{ id: string; name: string }>('POST', '/v1/assets', {
        name: `Tagpick ${width} ${stamp()}`,
        type: 'hair',
        gender: 'male',
      });
      const page = await signedInAt(
        app,
        `${app.server.url}/assets/${asset.id}`,
        ADMIN,
        viewport(width),
      );
      const picker = page.getByRole('combobox', { name: 'Add a tag' });
      const tag = `Glitter ${width} ${stamp()}`;
      await picker.fill(tag);
      const create = page.getByRole('option', { name: `Create tag “${tag}”` });
      await create.waitFor();
      await shot(page, `daily-lists-tag-create-${width}`);
      await create.click();
      // Close the options (while open, the combo box hides the page from role queries).
      await page.locator('h1').first().click();
      await page.getByRole('button', { name: `Remove ${tag}` }).waitFor();
      await toasts(page).getByText(`Tags of ${asset.name} saved`).waitFor();
      const saved = await api<{ tags: { name: string }[] }>('GET', `/v1/assets/${asset.id}`);
      expect(saved.tags.map((t) => t.name)).toEqual([tag]);
      // Its name now picks the tag (ignoring case), not a second one.
      await picker.fill(tag.toLowerCase());
      await page.getByRole('option', { name: tag }).waitFor();
      expect(await page.getByRole('option', { name: /^Create tag/ }).count()).toBe(0);
      await page.keyboard.press('Escape');
      // Opened again, the chip names the tag at once: the asset comes with its tags' names, so
      // none is looked up by id (a chip changing size late would move the page under the hand).
      const lookups: string[] = [];
      page.on('request', (request) => {
        if (/^\/v1\/tags\/[^/]+$/.test(new URL(request.url()).pathname))
          lookups.push(request.url());
      });
      await page.reload();
      await page.getByRole('button', { name: `Remove ${tag}` }).waitFor();
      expect(lookups).toEqual([]);
      await shot(page, `daily-lists-tag-created-${width}`);
      await expectAxeClean(page);
      await page.context().close();
    },
    SLOW,
  );
});

/** Where each row on screen is in the document (its top and height, in px). */
const rowBoxes = (page: Page) =>
  page.locator(ROWS).evaluateAll((rows) =>
    rows.map((row) => {
      const box = row.getBoundingClientRect();
      return { top: box.top + window.scrollY, height: box.height };
    }),
  );

describe.each(WIDTHS)('the bulk bar at %i px', (width) => {
  it(
    'appears without moving a row, and the last row scrolls clear of it',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, viewport(width));
      await firstRow(page);
      await expect.poll(() => page.locator(ROWS).count()).toBe(10);
      const before = await rowBoxes(page);
      const checkboxes = page.locator(`${ROWS} .checkbox`);
      await checkboxes.nth(0).click();
      await checkboxes.nth(1).click();
      const bar = page.getByRole('toolbar', { name: '2 selected' });
      await bar.waitFor();
      expect(await rowBoxes(page)).toEqual(before);
      // Scrolled to the end, the bar covers no row: the last row's checkbox can be tapped.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const last = page.locator(ROWS).last();
      const lastBox = (await last.boundingBox())!;
      const barBox = (await bar.boundingBox())!;
      expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(barBox.y + 0.5);
      await shot(page, `daily-lists-bulk-bar-${width}`);
      await checkboxes.last().click();
      await page.getByRole('toolbar', { name: '3 selected' }).waitFor();
      await expectAxeClean(page);
      await page.context().close();
    },
    SLOW,
  );
});

describe.each(WIDTHS)('a kept selection at %i px', (width) => {
  it(
    'tags, then locks the same rows without selecting again, and keeps them selected',
    async () => {
      const prefix = `Keptsel ${width} ${stamp()}`;
      const names = [`${prefix} one`, `${prefix} two`];
      const ids: string[] = [];
      for (const name of names) {
        ids.push(
          (await api<{ id: string }>('POST', '/v1/assets', { name, type: 'hair', gender: 'male' }))
            .id,
        );
      }
      const page = await signedInAt(
        app,
        `${app.server.url}/assets?filter=${encodeURIComponent(JSON.stringify({ search: prefix }))}`,
        ADMIN,
        viewport(width),
      );
      await page.getByText('2 items').waitFor();
      for (const name of names) await rowNamed(page, name).locator('.checkbox').click();
      const bar = page.getByRole('toolbar', { name: '2 selected' });
      await bar.getByRole('combobox', { name: 'Tag' }).fill('Vintage');
      await page.getByRole('option', { name: 'Vintage' }).click();
      await bar.getByRole('button', { name: 'Add tag' }).click();
      await toasts(page).getByText('Tag added to 2 assets').waitFor();
      for (const name of names) await rowNamed(page, name).getByText('Vintage').waitFor();
      // The rows stay, and so does the selection: Lock applies to the same two.
      await bar.getByRole('button', { name: 'Lock', exact: true }).click();
      await toasts(page).getByText('2 assets locked').waitFor();
      for (const name of names) {
        await rowNamed(page, name).getByText('Locked', { exact: true }).waitFor();
      }
      await bar.waitFor();
      for (const name of names) {
        expect(await page.getByRole('checkbox', { name: `Select ${name}` }).isChecked()).toBe(true);
      }
      for (const id of ids) {
        const saved = await api<{ locked: boolean; tags: { name: string }[] }>(
          'GET',
          `/v1/assets/${id}`,
        );
        expect(saved).toMatchObject({ locked: true, tags: [{ name: 'Vintage' }] });
      }
      await shot(page, `daily-lists-kept-selection-${width}`);
      await page.context().close();
    },
    SLOW,
  );
});

// Where each name leads, in the rows and in a phone's cards (the same elements, laid out by
// CSS), src/features/row-links.test.tsx shows; here the real screens are followed, at one width.
describe('names that are links at 1280 px', () => {
  const width = 1280;
  it("the names of an application's, a user's and the morph lists' rows lead to their assets; a dashboard card to what it counts", async () => {
    const page = await signedInPage(app, undefined, viewport(width));
    /** Follows the first row's `nth` link to the asset page it names. */
    const followToAsset = async (nth = 0) => {
      await firstRow(page);
      const link = page.locator(ROWS).first().getByRole('link').nth(nth);
      // Until the new screen has replaced it, the rows are the previous screen's.
      await expect.poll(() => link.getAttribute('href')).toMatch(/^\/assets\/[^/]+$/);
      const href = await link.getAttribute('href');
      await link.click();
      await page.waitForURL(`${app.server.url}${href}`);
      await page.getByRole('button', { name: 'Save' }).first().waitFor();
    };

    await page.goto(`${app.server.url}/applications`);
    await firstRow(page);
    await page.locator(ROWS).first().getByRole('link').first().click();
    await page.waitForURL(/\/applications\/[^/]+\/assets/);
    await followToAsset();

    const users = await adminApi<{ id: string; email: string }[]>(
      app.server.url,
      'GET',
      '/private/v1/users?limit=100',
    );
    const demo = users.find((user) => user.email === DEMO_USER.email)!;
    await page.goto(`${app.server.url}/users/${demo.id}/assets`);
    await followToAsset();

    // The morph queue: the source and the body; morphed assets: the asset made from.
    await page.goto(`${app.server.url}/morph-queue`);
    await firstRow(page);
    expect(await page.locator(ROWS).first().getByRole('link').count()).toBe(2);
    await followToAsset(1);
    await page.goto(`${app.server.url}/morphed-assets`);
    await followToAsset();

    // A dashboard card leads to the assets it counts.
    await page.goto(`${app.server.url}/`);
    const card = page.locator('.count-card:not(.total) a').first();
    const [label, count] = (await card.innerText()).split('\n').map((part) => part.trim());
    await card.click();
    await expect
      .poll(() => search(page).get('filter'))
      .toBe(JSON.stringify({ type: [label!.toLowerCase()] }));
    await page.getByText(`${count} items`).waitFor();
    await expectAxeClean(page);
    await page.context().close();
  });
});

describe('cards at 390 px', () => {
  it(
    'are two lines where the row allows, with 44 px checkbox and menu targets',
    async () => {
      const paths = ['/assets', '/applications', '/tags'];
      const page = await signedInAt(app, `${app.server.url}${paths[0]}`, ADMIN, viewport(390));
      const heights: Record<string, number> = {};
      for (const [index, path] of paths.entries()) {
        if (index > 0) await page.goto(`${app.server.url}${path}`);
        await firstRow(page);
        const card = page.locator(ROWS).first();
        heights[path] = (await card.boundingBox())!.height;
        const menu = card.getByRole('button', { name: /^Actions/ });
        const targets = path === '/tags' ? [menu] : [card.locator('.checkbox'), menu];
        for (const target of targets) {
          const box = (await target.boundingBox())!;
          expect(Math.min(box.width, box.height), path).toBeGreaterThanOrEqual(44);
        }
        await shot(page, `daily-lists-cards${path.replace('/', '-')}`);
        await expectAxeClean(page);
      }
      console.log('card heights at 390 px', heights);
      // An asset has seven values: they take three lines under its name (185 px before).
      expect(heights['/assets']).toBeLessThanOrEqual(135);
      // An application or a tag: its name, then one line of values.
      expect(heights['/applications']).toBeLessThanOrEqual(85);
      expect(heights['/tags']).toBeLessThanOrEqual(85);
      await page.context().close();
    },
    SLOW,
  );

  it('offer a sort menu in place of the folded column headers', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, viewport(390));
    await firstRow(page);
    await page.getByRole('button', { name: /Sort by/ }).click();
    await page.getByRole('option', { name: 'Name, descending' }).click();
    await expect.poll(() => search(page).get('order')).toBe('-name');
    await expect
      .poll(async () => {
        const names = await page.locator(`${ROWS} [role="rowheader"]`).allInnerTexts();
        // Z before A (the server's collation decides ties of case and accents).
        return names.length > 1 && names[0]!.localeCompare(names.at(-1)!) > 0;
      })
      .toBe(true);
    await expectAxeClean(page);
    await page.context().close();
  });
});
