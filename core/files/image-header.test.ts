import { describe, expect, it } from 'vitest';
import { readImageHeader, type ImageHeaderResult } from './image-header';
import { pngChunk } from './png-writer';
import {
  DAMAGED_SIGNATURE_PNGS,
  fixtureBlob,
  fixtureBytes,
  fixtureNames,
  iccpChunk,
  iccProfileV2,
  iccProfileV4,
  jpegFile,
  NodeBlob,
  PNG_SUITE,
  withChunksAfterIhdr,
} from './test-fixtures';

const suiteFile = (name: string) => fixtureBlob(PNG_SUITE, name);
const suiteNames = fixtureNames(PNG_SUITE, '.png');

const COLOR_TYPES: Record<string, string> = {
  '0': 'grayscale',
  '2': 'rgb',
  '3': 'indexed',
  '4': 'grayscale-alpha',
  '6': 'rgba',
};

/** PngSuite dimension files that are not 32 × 32 (besides the NxN `s*` files). */
const ODD_SIZES: Record<string, [number, number]> = {
  'cdfn2c08.png': [8, 32],
  'cdhn2c08.png': [32, 8],
  'cdsn2c08.png': [8, 8],
};

const header = (result: ImageHeaderResult) => {
  if (!result.ok) throw new Error(`expected a header, got ${JSON.stringify(result.error)}`);
  return result.header;
};

describe('readImageHeader: PngSuite', () => {
  it.each(suiteNames.filter((name) => !name.startsWith('x')))(
    '%s: colour type, bit depth and size match the name',
    async (name) => {
      // e.g. basn6a08: prefix "bas", "n" non-interlaced, colour type 6, 8 bits.
      const colorType = COLOR_TYPES[name[4]!];
      const bitDepth = Number(name.slice(6, 8));
      const side = name.startsWith('s') ? Number(name.slice(1, 3)) : 32;
      const [width, height] = ODD_SIZES[name] ?? [side, side];

      const result = header(await readImageHeader(suiteFile(name)));

      expect(result).toMatchObject({ format: 'png', colorType, bitDepth, width, height });
    },
  );

  const rejected: [name: string, detail: RegExp][] = [
    ['xc1n0g08.png', /colour type 1/],
    ['xc9n2c08.png', /colour type 9/],
    ...DAMAGED_SIGNATURE_PNGS,
    ['xd0n2c08.png', /Bit depth 0 is not allowed/],
    ['xd3n2c08.png', /Bit depth 3 is not allowed/],
    ['xd9n2c08.png', /Bit depth 99 is not allowed/],
    ['xhdn0g08.png', /IHDR chunk checksum/],
    ['xdtn0g01.png', /no IDAT/],
  ];

  it.each(rejected)('%s is rejected as corrupt: %s', async (name, detail) => {
    const result = await readImageHeader(suiteFile(name));

    expect(result).toEqual({
      ok: false,
      error: { key: 'fileInput.corrupt', detail: expect.stringMatching(detail) as string },
    });
  });

  it('a truncated PNG is corrupt, not a throw', async () => {
    const png = fixtureBytes(PNG_SUITE, 'basn6a08.png');

    for (const end of [10, 20, 32, 40]) {
      const result = await readImageHeader(new NodeBlob([png.subarray(0, end)]));
      expect(result).toMatchObject({ ok: false, error: { key: 'fileInput.corrupt' } });
    }
  });

  it('reads the sRGB chunk as the sRGB colour space, and no chunk as none', async () => {
    const srgb = withChunksAfterIhdr('basn6a08.png', pngChunk('sRGB', Uint8Array.of(0)));

    expect(header(await readImageHeader(srgb)).colorSpace).toBe('sRGB');
    expect(header(await readImageHeader(suiteFile('basn6a08.png'))).colorSpace).toBeNull();
  });

  it('names an iCCP profile by its description, falling back to the chunk name', async () => {
    const described = withChunksAfterIhdr(
      'basn6a08.png',
      iccpChunk('ICC profile', iccProfileV2('Display P3')),
    );
    const undescribed = withChunksAfterIhdr(
      'basn6a08.png',
      iccpChunk('Adobe RGB (1998)', new TextEncoder().encode('not a profile')),
    );

    expect(header(await readImageHeader(described)).colorSpace).toBe('Display P3');
    expect(header(await readImageHeader(undescribed)).colorSpace).toBe('Adobe RGB (1998)');
  });

  it('a non-image is the wrong type', async () => {
    const result = await readImageHeader(new NodeBlob(['GIF89a and some more bytes to sniff']));

    expect(result).toMatchObject({ ok: false, error: { key: 'fileInput.wrongType' } });
  });
});

describe('readImageHeader: JPEG', () => {
  it('reads size, precision and components from the frame header', async () => {
    const cases = [
      { components: 3, colorType: 'rgb', marker: 0xc0 },
      { components: 1, colorType: 'grayscale', marker: 0xc2 },
      { components: 4, colorType: 'cmyk', marker: 0xc1 },
    ];
    for (const { components, colorType, marker } of cases) {
      const file = jpegFile({ width: 640, height: 480, components, sof: marker });

      expect(header(await readImageHeader(file))).toEqual({
        format: 'jpeg',
        width: 640,
        height: 480,
        colorType,
        bitDepth: 8,
        colorSpace: null,
      });
    }
  });

  it('skips fill bytes before a marker', async () => {
    const sof = [0xc0, 0, 17, 8, 0, 16, 0, 32, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
    const file = new NodeBlob([Uint8Array.of(0xff, 0xd8, 0xff, 0xff, 0xff, ...sof, 0xff, 0xd9)]);

    expect(header(await readImageHeader(file))).toMatchObject({ width: 32, height: 16 });
  });

  it('names the ICC profile from its v2 desc or v4 mluc tag, across APP2 segments', async () => {
    const v2 = jpegFile({ width: 8, height: 8, icc: [iccProfileV2('Adobe RGB (1998)')] });
    const profile = iccProfileV4('sRGB IEC61966-2.1');
    const split = jpegFile({
      width: 8,
      height: 8,
      icc: [profile.subarray(0, 100), profile.subarray(100)],
    });

    expect(header(await readImageHeader(v2)).colorSpace).toBe('Adobe RGB (1998)');
    expect(header(await readImageHeader(split)).colorSpace).toBe('sRGB IEC61966-2.1');
  });

  it('rejects a truncated JPEG, a missing frame header and a missing ICC piece', async () => {
    const whole = new Uint8Array(await jpegFile({ width: 8, height: 8 }).arrayBuffer());
    const profile = iccProfileV2('sRGB');
    const missingPiece = jpegFile({ width: 8, height: 8, icc: [profile], iccCount: 2 });
    const noFrame = new NodeBlob([Uint8Array.of(0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9)]);

    for (const file of [new NodeBlob([whole.subarray(0, 30)]), noFrame, missingPiece]) {
      expect(await readImageHeader(file)).toMatchObject({
        ok: false,
        error: { key: 'fileInput.corrupt', detail: expect.any(String) as string },
      });
    }
  });
});
