import { DataUtils } from 'three';
import { describe, expect, it } from 'vitest';
import {
  decodePmrem,
  encodePmrem,
  packRgb9e5,
  pmremLevels,
  rgb9e5ToHalfRgba,
  unpackRgb9e5,
} from './pmrem-file';

/** A cube of `size` whose every word is made by `word(lod, face, texel)`. */
function cube(size: number, word: (lod: number, face: number, texel: number) => number) {
  return {
    size,
    levels: Array.from({ length: pmremLevels(size) }, (_, lod) =>
      Array.from({ length: 6 }, (_, face) =>
        Uint32Array.from({ length: (size >> lod) ** 2 }, (_, texel) => word(lod, face, texel)),
      ),
    ),
  };
}

describe('RGB9E5', () => {
  it('keeps linear colours within half a step of its 9-bit mantissa', () => {
    const colours: [number, number, number][] = [
      [1, 1, 1],
      [0.5, 0.25, 0.125],
      [3730, 12.5, 0.001],
      [0.0003, 0.0002, 0.0001],
      [65000, 0, 1],
    ];
    for (const colour of colours) {
      const back = unpackRgb9e5(packRgb9e5(...colour));
      const step = Math.max(...colour) / 2 ** 9;
      colour.forEach((value, c) => expect(Math.abs(back[c]! - value)).toBeLessThanOrEqual(step));
    }
  });

  it('clamps what it cannot hold: negative and NaN to 0, huge to its maximum', () => {
    expect(unpackRgb9e5(packRgb9e5(-1, Number.NaN, 0))).toEqual([0, 0, 0]);
    expect(unpackRgb9e5(packRgb9e5(1e9, 0, 0))[0]).toBe(65408);
  });

  it('converts to half floats exactly (alpha 1)', () => {
    const words = Uint32Array.from(
      [
        [1, 1, 1],
        [0.5, 0.25, 0.125],
        [3730, 12.5, 0.001],
        [6e-8, 1e-6, 3e-5],
        [65408, 0, 0],
      ],
      ([r, g, b]) => packRgb9e5(r!, g!, b!),
    );
    const halves = rgb9e5ToHalfRgba(words);
    words.forEach((word, i) => {
      const expected = [...unpackRgb9e5(word), 1];
      expected.forEach((value, c) =>
        expect(DataUtils.fromHalfFloat(halves[i * 4 + c]!)).toBe(value),
      );
    });
  });
});

describe('the .pmrem file', () => {
  it('holds levels down to 8x8 faces', () => {
    expect(pmremLevels(8)).toBe(1);
    expect(pmremLevels(64)).toBe(4);
    expect(pmremLevels(256)).toBe(6);
  });

  it('reads back what was written', () => {
    const written = cube(
      16,
      (lod, face, texel) => (lod * 0x9e3779b9 + face * 0x85ebca6b + texel * 0xc2b2ae35) >>> 0,
    );
    const bytes = encodePmrem(written);
    expect(bytes.length).toBe(8 + 4 * 6 * (16 * 16 + 8 * 8));
    expect(decodePmrem(bytes.slice().buffer)).toEqual(written);
  });

  it('refuses what is not one, or is cut short', () => {
    const bytes = encodePmrem(cube(8, () => 0));
    expect(() => decodePmrem(new TextEncoder().encode('<!doctype html>').buffer)).toThrow(
      'Not a .pmrem file',
    );
    expect(() => decodePmrem(bytes.slice(0, bytes.length - 4).buffer)).toThrow('Damaged');
    const otherVersion = bytes.slice();
    otherVersion[4] = 9;
    expect(() => decodePmrem(otherVersion.buffer)).toThrow('version');
  });
});
