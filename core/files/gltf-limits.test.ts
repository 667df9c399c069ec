import { describe, expect, it } from 'vitest';
import { checkModelLimits, GLTF_LIMITS } from './gltf-limits';
import { UPLOAD_RULES } from './rules';
import { AVATARS, fixtureBlob, fixtureBytes, fixtureNames, NodeBlob } from './test-fixtures';
import { glbFile, OVERSIZED_MODELS, pngHeaderOnly, sparseVerticesJson } from './test-models';
import { validateFileContent } from './validate';

const avatars = fixtureNames(AVATARS, '.glb');
const blobOf = (bytes: Uint8Array<ArrayBuffer>) => new NodeBlob([bytes]);

describe('checkModelLimits', () => {
  it.each(avatars)('passes the fixture avatar %s', async (name) => {
    expect(await checkModelLimits(fixtureBlob(AVATARS, name))).toBeNull();
  });

  it.each(Object.entries(OVERSIZED_MODELS))(
    'refuses the tiny model %s from its JSON',
    async (_, { glb, reason }) => {
      const file = glb();
      expect(file.length).toBeLessThan(2 * 1024 * 1024);
      const error = await checkModelLimits(blobOf(file));
      expect(error?.reason).toMatch(reason);
      expect(error?.message).toBe(`The model ${error?.reason}`);
    },
  );

  it('names the limit passed', async () => {
    const error = await checkModelLimits(blobOf(OVERSIZED_MODELS.sparseVertices.glb()));
    expect(error).toMatchObject({ name: 'GltfLimitError', limit: 'vertices' });
  });

  it('counts a sparse accessor without a buffer view by its count, used by a mesh or not', async () => {
    const json = sparseVerticesJson(2_000_000);
    const unused = { ...json, meshes: [], nodes: [] };
    expect((await checkModelLimits(blobOf(glbFile(unused))))?.reason).toBe(
      'declares 2,000,000 elements in accessor 0; at most 1,000,000 are allowed',
    );
  });

  it('counts a mesh once per node that shows it', async () => {
    const json = {
      ...sparseVerticesJson(600_000),
      nodes: [{ mesh: 0 }, { mesh: 0 }],
    };
    expect((await checkModelLimits(blobOf(glbFile(json))))?.reason).toBe(
      'declares 1,200,000 vertices; at most 1,000,000 are allowed',
    );
  });

  it('reads counts as loaders coerce them and refuses collections that are not lists', async () => {
    const asString = { ...sparseVerticesJson(1), accessors: [{ count: '5e7', type: 'VEC3' }] };
    expect((await checkModelLimits(blobOf(glbFile(asString))))?.reason).toBe(
      OVERSIZED_MODELS.sparseVertices.reason,
    );
    const fakeList = { asset: { version: '2.0' }, nodes: { length: 1e9 } };
    expect((await checkModelLimits(blobOf(glbFile(fakeList))))?.reason).toBe(
      'declares "nodes" that is not a list',
    );
  });

  it('checks a glTF JSON file as it checks a GLB', async () => {
    const text = JSON.stringify(sparseVerticesJson(50_000_000));
    expect((await checkModelLimits(blobOf(new TextEncoder().encode(text))))?.reason).toBe(
      OVERSIZED_MODELS.sparseVertices.reason,
    );
  });

  it('reads the size of an image in a data URI, and refuses an image outside the file', async () => {
    const base64 = btoa(String.fromCharCode(...pngHeaderOnly(20_000, 20_000)));
    const model = (uri: string) => glbFile({ asset: { version: '2.0' }, images: [{ uri }] });
    expect((await checkModelLimits(blobOf(model(`data:image/png;base64,${base64}`))))?.limit).toBe(
      'imagePixels',
    );
    expect((await checkModelLimits(blobOf(model('textures/skin.png'))))?.reason).toBe(
      'has image 0 whose size cannot be read before loading (it is outside the file); ' +
        'only PNG, JPEG and WebP images inside the file can be checked',
    );
  });

  it('reads the WebP textures of a fixture avatar', async () => {
    // neutral-animated-mask's textures are WebP (EXT_texture_webp); a 30000-pixel-wide one
    // would be refused, so its real sizes must have been read.
    const bytes = fixtureBytes(AVATARS, 'neutral-animated-mask.glb');
    const jsonLength = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as {
      images: { mimeType: string }[];
    };
    expect(json.images.every((image) => image.mimeType === 'image/webp')).toBe(true);
    const webp = Uint8Array.from(
      [...'RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0'].map((c) => c.charCodeAt(0)),
    );
    const huge = new Uint8Array(30);
    huge.set(webp);
    huge.set([0x2f, 0x75, 0x00, 0x2f, 0x75, 0x00], 24); // 30000 × 30000
    const base64 = btoa(String.fromCharCode(...huge));
    const model = glbFile({
      asset: { version: '2.0' },
      images: [{ uri: `data:image/webp;base64,${base64}` }],
    });
    expect((await checkModelLimits(blobOf(model)))?.reason).toMatch(/\(30,000 × 30,000\)/);
    expect(await checkModelLimits(blobOf(bytes))).toBeNull();
  });

  it('refuses a JSON chunk over the limit before parsing it', async () => {
    const padding = ' '.repeat(GLTF_LIMITS.jsonBytes);
    const file = glbFile({ asset: { version: '2.0' }, extras: padding });
    expect((await checkModelLimits(blobOf(file)))?.limit).toBe('jsonBytes');
  });

  it('lets files that are not glTF through (FBX, broken JSON)', async () => {
    expect(
      await checkModelLimits(blobOf(new TextEncoder().encode('Kaydara FBX Binary  '))),
    ).toBeNull();
    expect(await checkModelLimits(blobOf(glbFile({}).fill(0x7b, 20)))).toBeNull();
  });
});

describe('validateFileContent of a model', () => {
  it('refuses a model over a limit with the reason', async () => {
    const file = Object.assign(blobOf(OVERSIZED_MODELS.manyNodes.glb()), { name: 'a.glb' });
    expect(await validateFileContent(file, UPLOAD_RULES.model)).toEqual({
      key: 'fileInput.modelOverLimit',
      values: { model: OVERSIZED_MODELS.manyNodes.reason },
    });
  });
});
