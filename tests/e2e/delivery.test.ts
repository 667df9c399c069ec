/**
 * Issue 25: the delivery version of an avatar draws the same picture as the upload. Both are
 * rendered in /embed at 512 px (WebGL on SwiftShader) from three angles (turned by dragging),
 * and compared pixel by pixel: the mean difference stays under 2/255, and no 32 px square is
 * far off. The skins, morph targets and animations of the delivery version are checked in
 * server/deliveries.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fixtureBytes, AVATARS } from '../../src/files/test-fixtures';
import { deriveDelivery } from '../../server/delivery-derive';
import { appUnderTest } from '../helpers/app';
import { stablePixels, type Pixels } from '../helpers/pixels';

const app = appUnderTest({ webgl: true });
const SIZE = 512;
const SQUARE = 32;

/** The model at `path` in /embed, from three angles. */
async function threeAngles(bytes: Uint8Array): Promise<Pixels[]> {
  const context = await app.browser.newContext({ width: SIZE, height: SIZE });
  await context.route(
    (url) => url.pathname === '/compared/model.glb',
    (route) => route.fulfill({ body: Buffer.from(bytes), contentType: 'model/gltf-binary' }),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  await page.goto(`${app.server.url}/embed?modelSrc=/compared/model.glb`);
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
  await context.close();
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
  it('draws the same picture as the upload from three angles', async () => {
    const original = fixtureBytes(AVATARS, 'male-emissive.glb');
    const derived = await deriveDelivery(original);
    if (derived.kind !== 'derived') throw new Error(derived.reason);
    expect(derived.bytes.byteLength).toBeLessThanOrEqual(original.byteLength * 0.4);
    const before = await threeAngles(original);
    const after = await threeAngles(derived.bytes);
    for (const [angle, picture] of before.entries()) {
      const { mean, worstSquare } = difference(picture, after[angle]!);
      console.log(
        `angle ${angle}: mean ${mean.toFixed(3)}/255, worst square ${worstSquare.toFixed(2)}/255`,
      );
      expect(mean, `angle ${angle}`).toBeLessThan(2);
      expect(worstSquare, `angle ${angle}`).toBeLessThan(24);
    }
    // The angles differ: the drags turned the avatar.
    expect(difference(before[0]!, before[1]!).mean).toBeGreaterThan(2);
  }, 300_000);
});
