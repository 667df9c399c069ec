/**
 * The asset page's 3D viewer on a touch screen (a phone): its code is not even fetched while the
 * page opens, loads and sits idle; the person's first touch, key or scroll starts it. With a
 * mouse it starts once the page is idle (delivery.webgl.test.ts draws it so).
 */
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { appUnderTest, signedInPage } from '../helpers/app';

const app = appUnderTest();

/** The viewer's code-split chunk (src/viewer: three.js and the avatar viewer). */
const VIEWER_CHUNK = /\/assets\/viewer-[^/]+\.js$/;

describe('the asset page on a touch screen', () => {
  it('fetches the 3D viewer only once the person touches the page', async () => {
    const { url } = app.server;
    const assets = await adminApi<{ id: string; modelUrl: string | null }[]>(
      url,
      'GET',
      '/v1/assets?limit=50',
    );
    const asset = assets.find((row) => row.modelUrl);
    expect(asset).toBeDefined();
    const page = await signedInPage(app, undefined, { width: 412, height: 823 });
    // As a phone's browser (and Lighthouse's mobile preset): the primary pointer is a finger.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    try {
      const viewerRequests: string[] = [];
      page.on('request', (request) => {
        if (VIEWER_CHUNK.test(new URL(request.url()).pathname)) viewerRequests.push(request.url());
      });
      await page.goto(`${url}/assets/${asset!.id}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const preview = page.locator('.asset-preview').first();
      await preview.waitFor();
      // Loaded, then idle twice over: where a mouse's page starts the viewer.
      await page.waitForLoadState('load');
      for (let i = 0; i < 2; i += 1) {
        await page.evaluate(
          () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })),
        );
      }
      expect(viewerRequests).toEqual([]);
      const fetched = page.waitForRequest((request) =>
        VIEWER_CHUNK.test(new URL(request.url()).pathname),
      );
      await preview.click();
      await fetched;
    } finally {
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
      await cdp.detach();
    }
  });
});
