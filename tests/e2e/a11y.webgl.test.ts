/**
 * Accessibility where the viewer draws a model, checked by axe-core at 1280 and 390 px, in
 * light and dark: /embed with a model and an asset's page with its preview drawn have no
 * serious or critical violation. Every other screen and state is checked without WebGL
 * (a11y.test.ts), where the asset page's viewer shows its error state instead.
 */
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { ADMIN, appUnderTest, blankPage, signedInAt } from '../helpers/app';
import { axeChecker } from '../helpers/axe';
import { serveFixtures } from '../helpers/browser';

const app = appUnderTest({ webgl: true });
const DRAWN = '[data-state="spawned"]';

describe.each([1280, 390])('at %i px', (width) => {
  const viewport = { width, height: 800 };

  it('has no serious or critical axe violation where the viewer draws a model', async () => {
    const embed = await blankPage(app, viewport);
    await serveFixtures(embed.context());
    embed.setDefaultTimeout(30_000);
    const embedChecks = axeChecker(embed, app.server.url);
    await embedChecks.visit(
      '/embed?modelSrc=/fixtures/avatars/male-emissive.glb&fit=true',
      embed.locator(DRAWN),
    );
    await embed.context().close();

    const bodies = await adminApi<{ id: string; modelUrl?: string | null }[]>(
      app.server.url,
      'GET',
      '/v1/assets?type=body&limit=20',
    );
    const asset = bodies.find((body) => body.modelUrl)!;
    const page = await signedInAt(app, `${app.server.url}/assets/${asset.id}`, ADMIN, viewport);
    page.setDefaultTimeout(30_000);
    const pageChecks = axeChecker(page, app.server.url);
    await pageChecks.check("an asset's page with its model drawn", page.locator(DRAWN));
    await page.context().close();

    expect([...embedChecks.found, ...pageChecks.found]).toEqual([]);
  });
});
