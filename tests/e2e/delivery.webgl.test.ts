/**
 * The delivery version of every fixture avatar draws the same picture as the upload.
 * Both are rendered in /embed at 512 px (WebGL on SwiftShader), framed with `fit` as the asset
 * page and the icon rendering frame them, with an emotion on (morph targets), from three angles
 * (turned by dragging), and compared pixel by pixel: the mean difference stays under 2/255,
 * and no 32 px square is far off. The skins, morph targets and animations of the delivery
 * versions are checked in server/deliveries.test.ts. Then what a user sees of it: the asset page
 * showing the upload and the delivery version side by side, a failed derivation said in words on
 * an asset that still shows its model, and the spawn effect, spawn animation and an emotion
 * playing on delivery versions.
 */
import { readdirSync } from 'node:fs';
import { getBounds, NodeIO } from '@gltf-transform/core';
import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes, AVATARS } from '../../core/files/test-fixtures';
import { deriveDelivery } from '../../server/delivery-derive';
import { ADMIN, appUnderTest, blankPage, signedInPage } from '../helpers/app';
import { serveFixtures } from '../helpers/browser';
import { opaqueIn, pixelsOf, stablePixels, type Pixels } from '../helpers/pixels';

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

/** A blank SIZE² page (90 s timeouts) on which each model of `served` is served at its path. */
async function pageServing(served: Record<string, Uint8Array>): Promise<Page> {
  const page = await blankPage(app, { width: SIZE, height: SIZE });
  await page.context().route(
    (url) => url.pathname in served,
    (route) =>
      route.fulfill({
        body: Buffer.from(served[new URL(route.request().url()).pathname]!),
        contentType: 'model/gltf-binary',
      }),
  );
  page.setDefaultTimeout(90_000);
  return page;
}

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

/**
 * The two models drawn in /embed from three angles, each angle's pictures compared: their mean
 * difference and their worst square under `limits` (0..255). Answers the first model's pictures,
 * which are checked to hold the model (not a blank canvas).
 */
async function drawnAlike(
  label: string,
  [first, second]: [Uint8Array, Uint8Array],
  limits: { mean: number; worstSquare: number },
): Promise<Pixels[]> {
  const page = await pageServing({ '/compared/first.glb': first, '/compared/second.glb': second });
  const before = await threeAngles(page, '/compared/first.glb');
  const after = await threeAngles(page, '/compared/second.glb');
  await page.context().close();
  expect(opaqueIn(before[0]!, 0, 0, SIZE, SIZE).opaque).toBeGreaterThan(SIZE * SIZE * 0.01);
  for (const [angle, picture] of before.entries()) {
    const { mean, worstSquare } = difference(picture, after[angle]!);
    console.log(
      `${label}, angle ${angle}: mean ${mean.toFixed(4)}/255, worst square ${worstSquare.toFixed(3)}/255`,
    );
    expect(mean, `angle ${angle}`).toBeLessThan(limits.mean);
    expect(worstSquare, `angle ${angle}`).toBeLessThan(limits.worstSquare);
  }
  return before;
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
      const before = await drawnAlike(name, [original, derived.bytes], {
        mean: 2,
        worstSquare: 24,
      });
      // The angles differ: the drags turned the avatar.
      expect(difference(before[0]!, before[1]!).mean).toBeGreaterThan(0.5);
    },
    300_000,
  );
});

/** The delivery version of a fixture, derived here as the server derives it. */
async function deliveryOf(name: string): Promise<Uint8Array> {
  const derived = await deriveDelivery(fixtureBytes(AVATARS, name));
  if (derived.kind !== 'derived') throw new Error(derived.reason);
  return derived.bytes;
}

/** Opaque pixels of a viewer's canvas, drawn (its avatar spawned), as a share of its area. */
async function drawnShare(page: Page, viewer: Locator): Promise<number> {
  await viewer.and(page.locator('[data-state="spawned"]')).waitFor();
  const png = await viewer.locator('canvas').screenshot({ omitBackground: true });
  const pixels = await pixelsOf(page, png);
  const { opaque } = opaqueIn(pixels, 0, 0, pixels.width, pixels.height);
  return opaque / (pixels.width * pixels.height);
}

describe('the delivery version on the asset page', () => {
  let page: Page;
  let token = '';
  beforeAll(async () => {
    page = await signedInPage(app);
    page.setDefaultTimeout(90_000);
    const response = await fetch(`${app.server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = ((await response.json()) as { data: { token: string } }).data.token;
  });

  /** An asset with the fixture `model`, uploaded and created through the API. */
  async function assetWith(name: string, model: string) {
    const api = (path: string, init: RequestInit) =>
      fetch(`${app.server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    const stored = await api('/v1/uploads/model', {
      method: 'POST',
      headers: { 'content-type': 'model/gltf-binary' },
      body: Buffer.from(fixtureBytes(AVATARS, model)),
    });
    expect(stored.status).toBe(200);
    const { url } = ((await stored.json()) as { data: { url: string } }).data;
    const created = await api('/v1/assets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, type: 'body', gender: 'female', modelUrl: url }),
    });
    expect(created.status).toBe(200);
    return (
      (await created.json()) as {
        data: { id: string; modelUrl: string; modelDelivery: { url: string | null } };
      }
    ).data;
  }

  it('says both sizes and shows the uploaded model beside the delivered one, both drawn', async () => {
    const name = 'Delivered beside uploaded';
    const { id, modelUrl, modelDelivery } = await assetWith(name, 'female-animation-catwalk.glb');
    const models: string[] = [];
    const record = (request: Request) => models.push(new URL(request.url()).pathname);
    page.on('request', record);
    await page.goto(`${app.server.url}/assets/${id}`);
    await expect
      .poll(() => page.getByTestId('model-delivery').innerText())
      .toMatch(/^814\.1 KB uploaded, \d+(\.\d)? KB delivered$/);
    await page.getByLabel('Show the uploaded model beside the delivered one').check();
    const uploaded = page.getByRole('img', { name: `The model of ${name} as uploaded` });
    const delivered = page.getByRole('img', { name: `The model of ${name}`, exact: true });
    await expect(
      page.getByRole('figure').filter({ has: uploaded }).locator('figcaption').innerText(),
    ).resolves.toBe('Uploaded');
    await expect(
      page.getByRole('figure').filter({ has: delivered }).locator('figcaption').innerText(),
    ).resolves.toBe('Delivered');
    expect(await drawnShare(page, uploaded)).toBeGreaterThan(0.01);
    expect(await drawnShare(page, delivered)).toBeGreaterThan(0.01);
    // Each shows its own file: the upload as it is, and its delivery version.
    expect(models).toContain(modelUrl);
    expect(models).toContain(modelDelivery.url);
    page.off('request', record);
  });

  it('says why a model has no delivery version, and still shows the uploaded one', async () => {
    const name = 'Delivered as uploaded';
    // Draco: the viewer decodes it, the server cannot, so its derivation fails.
    const { id } = await assetWith(name, 'male-emissive.draco.glb');
    await page.goto(`${app.server.url}/assets/${id}`);
    await expect
      .poll(() => page.getByTestId('model-delivery').innerText())
      .toBe(
        '2.5 MB uploaded, delivered as uploaded: no smaller copy could be made. ' +
          'The model is compressed with Draco, which this server cannot decompress to re-encode it',
      );
    const viewer = page.getByRole('img', { name: `The model of ${name}`, exact: true });
    expect(await drawnShare(page, viewer)).toBeGreaterThan(0.01);
    // Nothing to compare it with.
    await expect(
      page.getByLabel('Show the uploaded model beside the delivered one').count(),
    ).resolves.toBe(0);
  });
});

describe('the spawn and an emotion on delivery versions', () => {
  it('plays the spawn effect and animation, and an emotion changes the face', async () => {
    const served: Record<string, Uint8Array> = {
      '/delivered/avatar.glb': await deliveryOf('halfBodyAPIv2.glb'),
      '/delivered/effect.glb': await deliveryOf('spawn-effect.glb'),
      '/delivered/idle.glb': await deliveryOf('maleIdle.glb'),
    };
    const page = await pageServing(served);
    const query =
      'modelSrc=/delivered/avatar.glb&fit=true&spawnEffect=/delivered/effect.glb' +
      '&spawnAnimation=/delivered/idle.glb&spawnEffectLoop=2&spawnAnimationLoop=2';
    await page.goto(`${app.server.url}/embed?${query}`);
    const shot = () => page.locator('canvas').screenshot({ omitBackground: true });
    const state = () =>
      page.getByRole('img', { name: '3D avatar viewer' }).getAttribute('data-state');
    // While it spawns, the picture moves: a later frame differs from an earlier one.
    await page.locator('[data-state="spawning"]').waitFor();
    const early = await shot();
    await expect.poll(async () => (await shot()).equals(early)).toBe(false);
    expect(await state()).toBe('spawning');
    await page.locator('[data-state="spawned"]').waitFor();
    // Then it stands still, and a smile changes the face, and only the face.
    const still = await stablePixels(page);
    expect(opaqueIn(still, 0, 0, SIZE, SIZE).opaque).toBeGreaterThan(SIZE * SIZE * 0.01);
    await page.evaluate(
      (q) => {
        history.pushState(history.state, '', `/embed?${q}`);
        dispatchEvent(new PopStateEvent('popstate'));
      },
      `${query}&emotion=${encodeURIComponent('{"mouthSmile":1}')}`,
    );
    await expect
      .poll(async () => (await pixelsOf(page, await shot())).data.equals(still.data))
      .toBe(false);
    const smiling = await stablePixels(page);
    const { mean, worstSquare } = difference(still, smiling);
    expect(worstSquare).toBeGreaterThan(2);
    expect(mean).toBeLessThan(1);
    await page.context().close();
  }, 300_000);
});

/**
 * `halfBodyAPIv2.glb` with one material without textures on every mesh (`alone`), and the same
 * with a triangle of no area inside it whose material has every map the viewer shares
 * (`beside`): there the bare material is given neutral maps to share a program with it.
 */
async function bareSkin(): Promise<{ alone: Uint8Array; beside: Uint8Array }> {
  const io = new NodeIO();
  const document = await io.readBinary(fixtureBytes(AVATARS, 'halfBodyAPIv2.glb'));
  const root = document.getRoot();
  const bare = document
    .createMaterial('bare')
    .setRoughnessFactor(0.6)
    .setMetallicFactor(0.2)
    .setEmissiveFactor([0.2, 0.05, 0])
    .setDoubleSided(true);
  for (const mesh of root.listMeshes()) for (const p of mesh.listPrimitives()) p.setMaterial(bare);
  const alone = await io.writeBinary(document);

  const shirt = root.listMaterials().find((m) => m.getName() === 'Wolf3D_Shirt')!;
  const [colour, surface] = [shirt.getBaseColorTexture()!, shirt.getMetallicRoughnessTexture()!];
  const full = shirt
    .clone()
    .setEmissiveTexture(colour)
    .setEmissiveFactor([1, 1, 1])
    .setOcclusionTexture(surface);
  const { min, max } = getBounds(root.listScenes()[0]!);
  const inside = [0, 1, 2].map((i) => (min[i]! + max[i]!) / 2);
  const accessor = (type: 'VEC2' | 'VEC3', values: number[]) =>
    document.createAccessor().setType(type).setArray(new Float32Array(values));
  const triangle = document
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', [0, 0, 0, 0, 0, 0, 0, 0, 0]))
    .setAttribute('NORMAL', accessor('VEC3', [0, 0, 1, 0, 0, 1, 0, 0, 1]))
    .setAttribute('TEXCOORD_0', accessor('VEC2', [0, 0, 0, 0, 0, 0]))
    .setMaterial(full);
  const node = document
    .createNode('no area')
    .setTranslation(inside as [number, number, number])
    .setMesh(document.createMesh().addPrimitive(triangle));
  root.listScenes()[0]!.addChild(node);
  return { alone, beside: await io.writeBinary(document) };
}

/** Init script: the standard materials' fragment shaders the page compiles, one per program. */
function recordStandardShaders() {
  const sources = new Set<string>();
  (window as unknown as { standardShaders: () => number }).standardShaders = () => sources.size;
  const proto = WebGL2RenderingContext.prototype as unknown as Record<
    'shaderSource',
    (this: WebGL2RenderingContext, shader: WebGLShader, source: string) => void
  >;
  const shaderSource = proto.shaderSource;
  proto.shaderSource = function (shader, source) {
    const fragment = this.getShaderParameter(shader, this.SHADER_TYPE) === this.FRAGMENT_SHADER;
    // three.js names a program after its material; a standard one defines STANDARD.
    if (fragment && /^#define STANDARD$/m.test(source)) sources.add(source);
    shaderSource.call(this, shader, source);
  };
}

describe('materials that share shader programs (src/ui/canvas/shared-programs.ts)', () => {
  it('draw what they drew without the neutral maps that let them share', async () => {
    const { alone, beside } = await bareSkin();
    // Measured: no pixel differs; a neutral normal map left at its scale of 1 would put some
    // squares ten levels in 255 off.
    await drawnAlike('neutral maps', [alone, beside], { mean: 0.05, worstSquare: 0.5 });
  }, 300_000);

  it("draws halfBodyAPIv2.glb's six materials with three programs", async () => {
    const page = await blankPage(app, { width: SIZE, height: SIZE });
    page.setDefaultTimeout(90_000);
    await serveFixtures(page.context());
    await page.addInitScript(recordStandardShaders);
    await page.goto(
      `${app.server.url}/embed?modelSrc=/fixtures/avatars/halfBodyAPIv2.glb&fit=true`,
    );
    await page.locator('[data-state="spawned"]').waitFor();
    // With morph targets (head, eyes, teeth), without (hands, shirt, hair), and the one-sided
    // glasses. Without sharing, the maps each material has or lacks made five.
    const programs = await page.evaluate(() =>
      (window as unknown as { standardShaders: () => number }).standardShaders(),
    );
    await page.context().close();
    expect(programs).toBe(3);
  }, 120_000);
});
