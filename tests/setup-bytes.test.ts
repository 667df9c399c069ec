import { describe, expect, it } from 'vitest';
import { sameBytes } from './setup-bytes';

describe('toEqual on byte arrays', () => {
  const model = new Uint8Array(2_000_000).map((_, i) => i % 251);

  it('passes for the same bytes, and fails on one byte, a missing byte or another type', () => {
    expect(model.slice()).toEqual(model);
    const changed = model.slice();
    changed[1_234_567] = 255 - model[1_234_567]!;
    expect(changed).not.toEqual(model);
    expect(sameBytes(changed, model)).toBe(false);
    expect(sameBytes(model.slice(), model)).toBe(true);
    expect(model.subarray(1)).not.toEqual(model);
    // A Buffer and a Uint8Array, or other element types, are left to Vitest's own rules.
    expect(sameBytes(Buffer.from(model), model)).toBeUndefined();
    expect(sameBytes(new Uint16Array(4), new Uint16Array(4))).toBeUndefined();
  });

  it('compares views by their own bytes, not by the buffers behind them', () => {
    const buffer = Uint8Array.of(9, 1, 2, 3, 9);
    expect(buffer.subarray(1, 4)).toEqual(Uint8Array.of(1, 2, 3));
    expect(buffer.subarray(0, 3)).not.toEqual(Uint8Array.of(1, 2, 3));
  });
});
