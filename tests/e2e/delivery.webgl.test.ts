/**
 * Issue 25: the delivery version of every fixture avatar draws the same picture as the upload.
 * Both are rendered in /embed at 512 px (WebGL on SwiftShader), framed with `fit` as the asset
 * page and the icon rendering frame them, with an emotion on (morph targets), from three angles
 * (turned by dragging), and compared pixel by pixel: the mean difference stays under 2/255,
 * and no 32 px square is far off. The skins, morph targets and animations of the delivery
 * versions are checked in server/deliveries.test.ts.
 */
import { readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureBytes, AVATARS } from '../../core/files/test-fixtures';
import { deriveDelivery } from '../../server/delivery-derive';
import { appUnderTest } from '../helpers/app';
import { opaqueIn, stablePixels, type Pixels } from '../helpers/pixels';

const app = appUnderTest({ webgl: true });
const SIZE = 512;
const SQUARE = 32;
/** The fixtures' morph targets (male-emissive has both, halfBodyAPIv2 the smile). */
const EMOTION = encodeURIComponent(JSON.stringify({ mouthOpen: 1, mouthSmile: 1 }));

/** The fixture avatars that draw a picture, every one compared. */
const DRAWN = [
  'female-animation-catwalk.glb',
  'halfBodyAPIv2.glb',
  'male-emissive.glb',
  'neutral-animated-mask.glb',
];
/** The others, and why they have no picture to compare. */
const NOT_DRAWN: Record<string, string> = {
  'female-idle.glb': 'an animation without a mesh',
  'maleIdle.glb': 'an animation without a mesh',
  'male-emissive.draco.glb': 'Draco, which the server cannot decode: delivered as uploaded',
  'spawn-effect.glb': 'the spawn effect: at rest it draws nothing (it shows while it plays)',
};

/** The model served at `path` in /embed, from three angles. */
async function threeAngles(page: Page, path: string): Promise<Pixels[]> {
  await page.goto(`${app.server.url}/embed?modelSrc=${path}&fit=true&emotion=${EMOTION}`);
  await page.locator('[data-state="spawned"]').waitFor();
  const pictures = [await stablePixels(page)];
  for (let turn = 0; turn < 2; turn++) {
    const box = (await page.getByRole('img', { name: '3D avatar viewer' }).boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 120, y, { steps: 4 });
    await page.mouse.up();
    pictures.push(await stablePixels(page));
  }
  return pictures;
}

/** Mean difference of a channel over the picture, and the largest over a SQUARE² square (0..255). */
function difference(a: Pixels, b: Pixels) {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let total = 0;
  let worstSquare = 0;
  for (let top = 0; top < a.height; top += SQUARE) {
    for (let left = 0; left < a.width; left += SQUARE) {
      let sum = 0;
      let count = 0;
      for (let row = top; row < Math.min(top + SQUARE, a.height); row++) {
        for (let column = left; column < Math.min(left + SQUARE, a.width); column++) {
          const i = (row * a.width + column) * 4;
          for (let c = 0; c < 4; c++) sum += Math.abs(a.data[i + c]! - b.data[i + c]!);
          count += 4;
        }
      }
      total += sum;
      worstSquare = Math.max(worstSquare, sum / count);
    }
  }
  return { mean: total / (a.width * a.height * 4), worstSquare };
}

describe('the delivery version of an avatar', () => {
  it('is compared for every fixture avatar that draws a picture', () => {
    const fixtures = readdirSync(AVATARS).filter((name) => name.endsWith('.glb'));
    expect(fixtures.sort()).toEqual([...DRAWN, ...Object.keys(NOT_DRAWN)].sort());
  });

  it.each(DRAWN)(
    '%s: draws the same picture as the upload from three angles',
    async (name) => {
      const original = fixtureBytes(AVATARS, name);
      const derived = await deriveDelivery(original);
      if (derived.kind !== 'derived') throw new Error(derived.reason);
      expect(derived.bytes.byteLength).toBeLessThanOrEqual(original.byteLength * 0.4);
      console.log(
        `${name}: ${derived.bytes.byteLength} of ${original.byteLength} bytes ` +
          `(${((100 * derived.bytes.byteLength) / original.byteLength).toFixed(1)}%)`,
      );
      const served = {
        '/compared/original.glb': original,
        '/compared/delivery.glb': derived.bytes,
      };
      const context = await app.browser.newContext({ width: SIZE, height: SIZE });
      await context.route(
        (url) => url.pathname in served,
        (route) =>
          route.fulfill({
            body: Buffer.from(
              served[new URL(route.request().url()).pathname as keyof typeof served],
            ),
            contentType: 'model/gltf-binary',
          }),
      );
      const page = await context.newPage();
      page.setDefaultTimeout(90_000);
      const before = await threeAngles(page, '/compared/original.glb');
      const after = await threeAngles(page, '/compared/delivery.glb');
      await context.close();
      // The upload is drawn, framed: its pixels are not a blank canvas.
      expect(opaqueIn(before[0]!, 0, 0, SIZE, SIZE).opaque).toBeGreaterThan(SIZE * SIZE * 0.01);
      for (const [angle, picture] of before.entries()) {
        const { mean, worstSquare } = difference(picture, after[angle]!);
        console.log(
          `${name}, angle ${angle}: mean ${mean.toFixed(3)}/255, worst square ${worstSquare.toFixed(2)}/255`,
        );
        expect(mean, `angle ${angle}`).toBeLessThan(2);
        expect(worstSquare, `angle ${angle}`).toBeLessThan(24);
      }
      // The angles differ: the drags turned the avatar.
      expect(difference(before[0]!, before[1]!).mean).toBeGreaterThan(0.5);
    },
    300_000,
  );
});
