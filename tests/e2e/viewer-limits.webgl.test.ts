/**
 * A tiny model that declares tens of millions of vertices (or a 30000 × 30000
 * texture) puts the viewer in its error state with the reason, instead of costing the tab
 * gigabytes. The model is served by the test at /oversized/<name>.glb.
 */
import { describe, expect, it } from 'vitest';
import { OVERSIZED_MODELS } from '../../core/files/test-models';
import { appUnderTest } from '../helpers/app';

const app = appUnderTest({ webgl: true });

describe('the viewer and a model over the limits', () => {
  it.each(['sparseVertices', 'hugeTexture'] as const)(
    'shows the error state with the reason for %s, and the tab goes on',
    async (name) => {
      const { glb, reason } = OVERSIZED_MODELS[name];
      const context = await app.browser.newContext({ width: 320, height: 320 });
      await context.route(
        (url) => url.pathname.startsWith('/oversized/'),
        (route) => route.fulfill({ body: Buffer.from(glb()), contentType: 'model/gltf-binary' }),
      );
      const page = await context.newPage();
      await page.goto(`${app.server.url}/embed?modelSrc=/oversized/${name}.glb`);
      await page.locator('[data-state="error"]').waitFor({ timeout: 60_000 });
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        `The model ${reason as string}`,
      );
      // The tab is alive: it still runs script and answers.
      await expect(page.evaluate(() => 6 * 7)).resolves.toBe(42);
      await context.close();
    },
  );
});
