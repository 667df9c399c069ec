import type { Browser, BrowserContext, Page } from 'playwright-core';

type Viewport = { width: number; height: number };

/** What a test can do to a page or its profile that clearing cannot undo. */
const LASTING = {
  page: ['addInitScript', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders'],
  context: [
    'addInitScript',
    'exposeBinding',
    'exposeFunction',
    'grantPermissions',
    'setExtraHTTPHeaders',
    'setGeolocation',
    'setOffline',
  ],
} as const;

/** The page and context events tests listen to; a kept profile drops their listeners. */
const EVENTS = ['console', 'dialog', 'pageerror', 'request', 'requestfailed', 'response'] as const;
const CONTEXT_EVENTS = [...EVENTS, 'page', 'requestfinished', 'weberror'] as const;

/** How many cleared profiles wait at most (each holds a renderer); the oldest goes first. */
const MOST_FREE = 6;

/**
 * Browser profiles kept between tests, and between the files of a worker (whose app servers
 * listen on one address: tests/helpers/app.ts). A new context's first page starts a renderer
 * process that compiles the whole app again: about 3.8 s of Chromium's CPU on these 2 cores,
 * against 0.85 s for a page that is cleared and loads the app again (measured with 6 loads of
 * /assets each). So when a test closes a profile this pool lent it (`page.context().close()`,
 * as tests do), the profile stays open: its page leaves the app for the server's /healthz (the
 * app stops, its event stream and presence with it), and its cookies, local and session
 * storage, IndexedDB (the viewer's model cache), routes, listeners, emulated media and
 * viewport go, as a new profile has none. The next test that asks for a profile for the same
 * address at the same viewport gets it. A profile the test changed in a way clearing cannot
 * undo (an init script, an exposed function, offline, a clock), or that holds no page any more,
 * is closed for real.
 */
export class PagePool {
  /** Cleared profiles, the one kept longest first. */
  private readonly free: Page[] = [];
  private readonly places = new WeakMap<Page, Place>();
  /** Each kept profile's own `close`, which closes it for real. */
  private readonly closers = new WeakMap<Page, () => Promise<void>>();
  private readonly lent = new Set<Page>();
  /** The pages lent since the running test began (not those a file's set-up holds). */
  private lentInTest = new Set<Page>();
  private readonly tainted = new WeakSet<Page>();
  /** Pages whose media (colour scheme, reduced motion…) a test emulated. */
  private readonly emulated = new WeakSet<Page>();

  constructor(private readonly browser: Browser) {}

  /**
   * A page in a profile that holds nothing but `localStorage` for `origin` (a server's address),
   * at `viewport`: a kept one, or a new context.
   */
  async page(
    origin: string,
    viewport: Viewport,
    localStorage: Record<string, string>,
  ): Promise<Page> {
    const place = { origin, viewport };
    const kept = this.free.findLast((page) => key(this.places.get(page)!) === key(place));
    if (kept) {
      this.free.splice(this.free.indexOf(kept), 1);
      await kept.evaluate((items) => {
        for (const [name, value] of Object.entries(items)) window.localStorage.setItem(name, value);
      }, localStorage);
      this.lend(kept);
      return kept;
    }
    const context = await this.browser.newContext({
      viewport,
      storageState: {
        cookies: [],
        origins: [
          {
            origin,
            localStorage: Object.entries(localStorage).map(([name, value]) => ({ name, value })),
          },
        ],
      },
    });
    const page = await context.newPage();
    this.keepOnClose(context, page, place);
    this.lend(page);
    return page;
  }

  private lend(page: Page) {
    this.lent.add(page);
    this.lentInTest.add(page);
  }

  /** Whether `page` is waiting in the pool (not a test's). */
  isFree(page: Page): boolean {
    return this.free.includes(page);
  }

  /** A test begins: what it borrows from now on, `takeBack` takes back. */
  testBegins(): void {
    this.lentInTest = new Set();
  }

  /** Takes back the profiles the test left open, as if it had closed them. */
  async takeBack(): Promise<void> {
    const open = [...this.lentInTest].filter((page) => this.lent.has(page));
    this.lentInTest = new Set();
    await Promise.all(open.map((page) => page.context().close()));
  }

  /**
   * A file ends (before its server stops): takes back every profile still lent (a file's
   * set-up's too) and closes the contexts tests opened themselves; the cleared profiles stay
   * for the worker's next file.
   */
  async fileEnds(): Promise<void> {
    await Promise.all([...this.lent].map((page) => page.context().close()));
    const kept = new Set(this.free.map((page) => page.context()));
    await Promise.all(
      this.browser.contexts().flatMap((context) => (kept.has(context) ? [] : [context.close()])),
    );
  }

  /** Makes `context.close()` hand the profile back, and marks what clearing cannot undo. */
  private keepOnClose(context: BrowserContext, page: Page, place: Place) {
    const close = context.close.bind(context);
    const taint = <T extends object>(target: T, names: readonly string[]) => {
      for (const name of names) {
        const method = (target as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        Object.assign(target, {
          [name]: (...args: unknown[]) => {
            this.tainted.add(page);
            return method.apply(target, args);
          },
        });
      }
    };
    taint(page, LASTING.page);
    const emulateMedia = page.emulateMedia.bind(page);
    page.emulateMedia = (options) => {
      this.emulated.add(page);
      return emulateMedia(options);
    };
    taint(context, LASTING.context);
    const clock = page.clock;
    Object.defineProperty(page, 'clock', {
      get: () => {
        this.tainted.add(page);
        return clock;
      },
    });
    this.places.set(page, place);
    this.closers.set(page, () => close());
    context.close = async (options) => {
      if (!this.lent.delete(page)) return;
      if (!(await this.clear(context, page, place))) return close(options);
      this.free.push(page);
      while (this.free.length > MOST_FREE) await this.closers.get(this.free.shift()!)!();
    };
  }

  /** Empties the profile as a new one is; false when it cannot be kept. */
  private async clear(context: BrowserContext, page: Page, { origin, viewport }: Place) {
    if (this.tainted.has(page) || page.isClosed()) return false;
    try {
      for (const other of context.pages()) if (other !== page) await other.close();
      for (const event of EVENTS) page.removeAllListeners(event);
      for (const event of CONTEXT_EVENTS) context.removeAllListeners(event);
      await Promise.all([
        page.unrouteAll({ behavior: 'ignoreErrors' }),
        context.unrouteAll({ behavior: 'ignoreErrors' }),
        context.clearCookies(),
      ]);
      // A form with unsaved changes asks before the page goes: it goes.
      page.on('dialog', (dialog) =>
        dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss(),
      );
      await page.goto(`${origin}/healthz`);
      page.removeAllListeners('dialog');
      await page.evaluate(async () => {
        localStorage.clear();
        sessionStorage.clear();
        const databases = await indexedDB.databases();
        await Promise.all(
          databases.map(
            ({ name }) =>
              new Promise((resolve, reject) => {
                const request = indexedDB.deleteDatabase(name!);
                request.onsuccess = request.onblocked = resolve;
                request.onerror = reject;
              }),
          ),
        );
      });
      if (this.emulated.has(page)) {
        // A new profile's media: Playwright's defaults.
        await page.emulateMedia({
          media: null,
          colorScheme: 'light',
          reducedMotion: 'no-preference',
          forcedColors: 'none',
          contrast: 'no-preference',
        });
        this.emulated.delete(page);
      }
      const size = page.viewportSize();
      if (size?.width !== viewport.width || size.height !== viewport.height) {
        await page.setViewportSize(viewport);
      }
      return true;
    } catch {
      return false;
    }
  }
}

/** Where a kept page can be lent again: the same server, at the same size. */
interface Place {
  origin: string;
  viewport: Viewport;
}
const key = ({ origin, viewport }: Place) => `${origin} ${viewport.width}x${viewport.height}`;
