import { describe, expect, it } from 'vitest';
import { readImageHeader } from './image-header';
import { ihdrChunk, pngChunk, pngFile } from './png-writer';
import { MB, UPLOAD_RULES, type UploadRule } from './rules';
import {
  AVATARS,
  CountingBlob,
  fixtureBlob,
  fixtureBytes,
  fixtureNames,
  iccpChunk,
  jpegFile,
  NodeBlob,
  PNG_SUITE,
  withChunksAfterIhdr,
} from './test-fixtures';
import { formatBytes } from './format-bytes';
import { checkDropRules, checkImageRules, validateFileContent } from './validate';

const { icon, texture, model, source } = UPLOAD_RULES;
/** The avatar fixtures that hold only an animation, no mesh. */
const CLIPS = ['female-idle.glb', 'maleIdle.glb'];

/** Bytes that are not an ICC profile, so the iCCP chunk's own name is the colour space. */
const NOT_A_PROFILE = new TextEncoder().encode('profile data');

/** A structurally sound PNG with the given header, an optional named profile and `idat` bytes. */
function syntheticPng(options: {
  width: number;
  height: number;
  colorType: number;
  bitDepth: number;
  profile?: string;
  idat?: Uint8Array;
}) {
  const { profile, idat = new Uint8Array(16) } = options;
  return pngFile([
    ihdrChunk(options),
    ...(profile ? [iccpChunk(profile, NOT_A_PROFILE)] : []),
    pngChunk('IDAT', idat),
    pngChunk('IEND'),
  ]);
}

describe('formatBytes', () => {
  it('writes sizes with MB = 1024 × 1024 bytes', () => {
    expect(formatBytes(5 * MB)).toBe('5 MB');
    expect(formatBytes(20 * MB)).toBe('20 MB');
    expect(formatBytes(67)).toBe('67 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(7.25 * MB)).toBe('7.3 MB');
  });
});

describe('checkDropRules', () => {
  it('accepts by extension or MIME type, as the drop area does', () => {
    expect(checkDropRules({ name: 'icon.PNG', type: '', size: 1000 }, icon)).toBeNull();
    expect(checkDropRules({ name: 'blob', type: 'image/png', size: 1000 }, icon)).toBeNull();
    expect(checkDropRules({ name: 'avatar.glb', type: '', size: 1000 }, model)).toBeNull();
  });

  it('reports the wrong type, then too small, then too large', () => {
    expect(checkDropRules({ name: 'photo.jpg', type: 'image/jpeg', size: 1 }, icon)).toMatchObject({
      key: 'fileInput.wrongType',
      values: { accepted: '.png' },
    });
    expect(checkDropRules({ name: 'tiny.png', type: 'image/png', size: 10 }, icon)).toEqual({
      key: 'fileInput.tooSmall',
      values: { min: '67 B', size: '10 B' },
    });
    expect(checkDropRules({ name: 'big.png', type: 'image/png', size: 6 * MB }, icon)).toEqual({
      key: 'fileInput.tooLarge',
      values: { max: '5 MB', size: '6 MB' },
    });
    expect(checkDropRules({ name: 'big.psd', type: '', size: 21 * MB }, source)).toMatchObject({
      values: { max: '20 MB' },
    });
  });
});

describe('the size limits in bytes (spec §9, MB = 1024 × 1024)', () => {
  const drop = (name: string, size: number, rule: UploadRule) =>
    checkDropRules({ name, type: '', size }, rule)?.key ?? null;

  it.each([
    ['a texture', 5242880, 'texture.png', texture],
    ['an icon', 5242880, 'icon.png', icon],
    ['a PSD source file', 20971520, 'source.psd', source],
    ['a model', 52428800, 'avatar.glb', model],
  ] as const)('%s may be %i bytes at most', (_what, limit, name, rule) => {
    expect(drop(name, limit, rule)).toBeNull();
    expect(drop(name, limit + 1, rule)).toBe('fileInput.tooLarge');
  });
});

describe('validateFileContent: the spec §5 rule order, first failure wins', () => {
  const rule: UploadRule = {
    ...icon,
    validation: {
      maxImageDimensions: { width: 1024, height: 512 },
      colorType: 'rgba',
      bitDepth: 8,
      colorSpace: 'sRGB',
    },
  };
  const rows: [title: string, png: Parameters<typeof syntheticPng>[0], expected: unknown][] = [
    [
      'too wide (and every other rule broken): size',
      { width: 1025, height: 10, colorType: 2, bitDepth: 16, profile: 'Adobe RGB (1998)' },
      {
        key: 'fileInput.imageSizeTooLarge',
        values: { width: 1024, height: 512, actualWidth: 1025, actualHeight: 10 },
      },
    ],
    [
      'too tall only: size',
      { width: 10, height: 513, colorType: 6, bitDepth: 8 },
      { key: 'fileInput.imageSizeTooLarge' },
    ],
    [
      'right size, wrong colour type, bit depth and profile: colour type',
      { width: 1024, height: 512, colorType: 2, bitDepth: 16, profile: 'Adobe RGB (1998)' },
      { key: 'fileInput.wrongColorType', values: { expected: 'rgba', actual: 'rgb' } },
    ],
    [
      'wrong bit depth and profile: bit depth',
      { width: 16, height: 16, colorType: 6, bitDepth: 16, profile: 'Adobe RGB (1998)' },
      { key: 'fileInput.wrongBitDepth', values: { expected: 8, actual: 16 } },
    ],
    [
      'wrong profile only: colour space',
      { width: 16, height: 16, colorType: 6, bitDepth: 8, profile: 'Adobe RGB (1998)' },
      {
        key: 'fileInput.wrongColorSpace',
        values: { expected: 'sRGB', actual: 'Adobe RGB (1998)' },
      },
    ],
    [
      'an sRGB-named profile: passes',
      { width: 16, height: 16, colorType: 6, bitDepth: 8, profile: 'sRGB IEC61966-2.1' },
      null,
    ],
    ['no profile: passes', { width: 1024, height: 512, colorType: 6, bitDepth: 8 }, null],
  ];

  it.each(rows)('%s', async (_, png, expected) => {
    const result = await validateFileContent(new NodeBlob([syntheticPng(png)]), rule);

    expect(result).toEqual(expected === null ? null : expect.objectContaining(expected));
  });

  it('rules without options check nothing past the structure', () => {
    const header = { width: 9999, height: 9999, colorType: 'cmyk', bitDepth: 12 } as const;

    expect(checkImageRules({ ...header, format: 'jpeg', colorSpace: 'Lab' })).toBeNull();
  });
});

describe('validateFileContent: the icon rule on PngSuite', () => {
  const suite = (name: string) => fixtureBlob(PNG_SUITE, name);

  it('passes an 8-bit RGBA PNG, with no profile, an sRGB chunk or an iCCP named sRGB', async () => {
    expect(await validateFileContent(suite('basn6a08.png'), icon)).toBeNull();
    const srgbChunk = withChunksAfterIhdr('basn6a08.png', pngChunk('sRGB', Uint8Array.of(0)));
    expect(await validateFileContent(srgbChunk, icon)).toBeNull();
    const srgbProfile = withChunksAfterIhdr('basn6a08.png', iccpChunk('sRGB', NOT_A_PROFILE));
    expect(await validateFileContent(srgbProfile, icon)).toBeNull();
  });

  it('refuses RGB, 16 bits and an Adobe RGB profile', async () => {
    expect(await validateFileContent(suite('basn2c08.png'), icon)).toEqual({
      key: 'fileInput.wrongColorType',
      values: { expected: 'rgba', actual: 'rgb' },
    });
    expect(await validateFileContent(suite('basn6a16.png'), icon)).toEqual({
      key: 'fileInput.wrongBitDepth',
      values: { expected: 8, actual: 16 },
    });
    const adobe = withChunksAfterIhdr('basn6a08.png', iccpChunk('Adobe RGB (1998)', NOT_A_PROFILE));
    expect(await validateFileContent(adobe, icon)).toEqual({
      key: 'fileInput.wrongColorSpace',
      values: { expected: 'sRGB', actual: 'Adobe RGB (1998)' },
    });
  });

  it.each(fixtureNames(PNG_SUITE, '.png').filter((name) => name.startsWith('x')))(
    '%s is refused as damaged, with a reason',
    async (name) => {
      expect(await validateFileContent(suite(name), texture)).toEqual({
        key: 'fileInput.corrupt',
        detail: expect.stringMatching(/\w{4}/) as string,
      });
    },
  );
});

describe('validateFileContent: types by content', () => {
  it('refuses a JPEG named .png as the wrong type', async () => {
    const jpeg = jpegFile({ width: 64, height: 64 });

    expect(await validateFileContent(Object.assign(jpeg, { name: 'icon.png' }), icon)).toEqual({
      key: 'fileInput.wrongContent',
      values: { actual: 'a JPEG image', expected: 'a PNG image' },
      detail: 'This file is a JPEG image, not a PNG image',
    });
  });

  it('applies the texture rule to JPEGs', async () => {
    expect(await validateFileContent(jpegFile({ width: 2048, height: 2048 }), texture)).toBeNull();
    expect(await validateFileContent(jpegFile({ width: 2049, height: 8 }), texture)).toMatchObject({
      key: 'fileInput.imageSizeTooLarge',
    });
  });

  it('passes every avatar as a model and refuses a PNG renamed .glb or a cut model', async () => {
    for (const name of fixtureNames(AVATARS, '.glb').filter((name) => !CLIPS.includes(name))) {
      expect(await validateFileContent(fixtureBlob(AVATARS, name), model)).toBeNull();
    }
    const png = Object.assign(fixtureBlob(PNG_SUITE, 'basn6a08.png'), { name: 'avatar.glb' });
    expect(await validateFileContent(png, model)).toEqual({
      key: 'fileInput.wrongContent',
      values: { actual: 'a PNG image', expected: 'a glTF binary model (.glb)' },
      detail: 'This file is a PNG image, not a glTF binary model (.glb)',
    });
    const cut = fixtureBytes(AVATARS, 'maleIdle.glb').subarray(0, 100_000);
    expect(await validateFileContent(new NodeBlob([cut]), model)).toMatchObject({
      key: 'fileInput.corrupt',
    });
  });

  it('refuses an animation clip as a model: it has no mesh to show', async () => {
    for (const name of CLIPS) {
      expect(await validateFileContent(fixtureBlob(AVATARS, name), model)).toEqual({
        key: 'fileInput.noMesh',
        detail: 'The model has no mesh to show (an animation clip or a bare skeleton)',
      });
    }
    // A rule that needs no mesh takes it.
    const clip = fixtureBlob(AVATARS, 'maleIdle.glb');
    expect(await validateFileContent(clip, { ...model, needsMesh: false })).toBeNull();
  });

  it('calls a .glb whose start is overwritten damaged, not the wrong type', async () => {
    const bytes = new Uint8Array(fixtureBytes(AVATARS, 'maleIdle.glb'));
    bytes.fill(0, 0, 64);
    const damaged = Object.assign(new NodeBlob([bytes]), { name: 'avatar.glb' });
    expect(await validateFileContent(damaged, model)).toMatchObject({ key: 'fileInput.corrupt' });
    // Unnamed, it is not known to be a damaged model.
    expect(await validateFileContent(new NodeBlob([bytes]), model)).toMatchObject({
      key: 'fileInput.wrongContent',
      values: { actual: 'damaged or of a type not known here' },
    });
  });

  it('calls a text file named .glb text, not a damaged model', async () => {
    const texts = ['{"asset":{"version":"2.0"}}\n', 'Hello, wörld: ünïcode notes\r\n\tand more'];
    for (const text of texts) {
      const file = Object.assign(new NodeBlob([text]), { name: 'avatar.glb' });
      expect(await validateFileContent(file, model)).toEqual({
        key: 'fileInput.wrongContent',
        values: { actual: 'text', expected: 'a glTF binary model (.glb)' },
        detail: 'This file is text, not a glTF binary model (.glb)',
      });
    }
    // Text named after neither accepted type is held against both.
    const note = Object.assign(new NodeBlob(['just a note, nothing more']), { name: 'note.txt' });
    expect(await validateFileContent(note, texture)).toMatchObject({
      values: { actual: 'text', expected: 'a PNG image or a JPEG image' },
    });
  });
});

describe('a 50 MB PNG', () => {
  const png = syntheticPng({
    width: 8000,
    height: 6000,
    colorType: 6,
    bitDepth: 8,
    idat: new Uint8Array(50 * MB),
  });
  const file = () => new CountingBlob([png]);

  it('has its header rules checked from fewer than 64 KiB, well under 50 ms', async () => {
    const blob = file();
    const started = performance.now();

    const result = await readImageHeader(blob);
    const error = result.ok ? checkImageRules(result.header, texture.validation) : result.error;

    expect(performance.now() - started).toBeLessThan(50);
    expect(error).toMatchObject({ key: 'fileInput.imageSizeTooLarge' });
    expect(blob.bytesRead).toBeLessThan(64 * 1024);
  });

  it('is read once, in 1 MiB pieces, by the full content check', async () => {
    const blob = file();

    expect(await validateFileContent(blob, texture)).toMatchObject({
      key: 'fileInput.imageSizeTooLarge',
    });
    expect(blob.bytesRead).toBeLessThan(blob.size + 64 * 1024);
    expect(blob.slices).toBeLessThan(60);
  });
});
