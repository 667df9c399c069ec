import { describe, expect, it } from 'vitest';
import { concat } from './bytes';
import { crc32, crc32Update } from './crc32';
import { checkPngIntegrity, INTEGRITY_PIECE_BYTES } from './png-integrity';
import { ihdrChunk, pngChunk, pngFile } from './png-writer';
import {
  DAMAGED_SIGNATURE_PNGS,
  fixtureBlob,
  fixtureNames,
  NodeBlob,
  PNG_SUITE,
  randomBytes,
  zlibCrc32,
} from './test-fixtures';

const names = fixtureNames(PNG_SUITE, '.png');
const corruptError = (detail: RegExp) => ({
  key: 'fileInput.corrupt',
  detail: expect.stringMatching(detail) as string,
});

describe('crc32', () => {
  it('matches zlib for every length and alignment around the stride, whole or in pieces', () => {
    const data = randomBytes(4096);
    for (const offset of [0, 1, 2, 3, 5]) {
      for (const length of [0, 1, 3, 7, 8, 9, 15, 16, 17, 1000, 4000]) {
        const part = data.subarray(offset, offset + length);
        const split = Math.floor(length / 3);
        expect(crc32(part)).toBe(zlibCrc32(part));
        expect(crc32Update(crc32(part, 0, split), part, split)).toBe(zlibCrc32(part));
      }
    }
  });
});

describe('checkPngIntegrity', () => {
  it.each(names.filter((name) => !name.startsWith('x')))('%s is intact', async (name) => {
    expect(await checkPngIntegrity(fixtureBlob(PNG_SUITE, name))).toBeNull();
  });

  it('finds the damaged IDAT checksum and the missing IDAT that the header read passes', async () => {
    expect(await checkPngIntegrity(fixtureBlob(PNG_SUITE, 'xcsn0g01.png'))).toEqual(
      corruptError(/IDAT chunk at byte \d+ has a wrong checksum/),
    );
    expect(await checkPngIntegrity(fixtureBlob(PNG_SUITE, 'xdtn0g01.png'))).toEqual(
      corruptError(/no IDAT/),
    );
  });

  // The header's field values (colour type, bit depth) are readImageHeader's to check.
  it.each([
    ...DAMAGED_SIGNATURE_PNGS,
    ['xhdn0g08.png', /IHDR chunk at byte 8 has a wrong checksum/],
  ])('%s is rejected: %s', async (name, detail) => {
    expect(await checkPngIntegrity(fixtureBlob(PNG_SUITE, name))).toEqual(corruptError(detail));
  });

  describe('a 3 MiB PNG whose chunks straddle the 1 MiB read pieces', () => {
    const idat = randomBytes(INTEGRITY_PIECE_BYTES + 12_345);
    const header = ihdrChunk({ width: 1024, height: 768, bitDepth: 8, colorType: 6 });
    const build = (...chunks: Uint8Array[]) => pngFile([header, ...chunks, pngChunk('IEND')]);
    const png = build(pngChunk('IDAT', idat), pngChunk('IDAT', idat), pngChunk('IDAT', idat));

    it('passes intact', async () => {
      expect(await checkPngIntegrity(new NodeBlob([png]))).toBeNull();
    });

    it('fails on one flipped bit inside the second IDAT', async () => {
      const damaged = png.slice();
      damaged[2 * INTEGRITY_PIECE_BYTES + 100]! ^= 0x10;

      expect(await checkPngIntegrity(new NodeBlob([damaged]))).toEqual(
        corruptError(/IDAT chunk at byte \d+ has a wrong checksum/),
      );
    });

    it('fails when cut short or followed by extra data', async () => {
      expect(await checkPngIntegrity(new NodeBlob([png.subarray(0, png.length - 12)]))).toEqual(
        corruptError(/without an IEND/),
      );
      expect(await checkPngIntegrity(new NodeBlob([png.subarray(0, 2_000_000)]))).toEqual(
        corruptError(/ends inside the IDAT chunk/),
      );
      expect(await checkPngIntegrity(new NodeBlob([concat([png, Uint8Array.of(0)])]))).toEqual(
        corruptError(/data after the IEND/),
      );
    });

    it('fails when another chunk splits the image data', async () => {
      const split = build(pngChunk('IDAT', idat), pngChunk('tEXt', idat), pngChunk('IDAT', idat));

      expect(await checkPngIntegrity(new NodeBlob([split]))).toEqual(corruptError(/out of order/));
    });
  });
});
