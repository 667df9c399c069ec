import { describe, expect, it } from 'vitest';
import { aoConfig, QUALITIES } from './quality';

// The §9 values of each preset and of the defaults are asserted where they reach n8ao
// (src/viewer.mocked.test.tsx, "ambient occlusion (n8ao)").
describe('ambient-occlusion quality presets', () => {
  it('asks for the half-resolution mode only when told to', () => {
    expect(aoConfig('High').halfRes).toBe(false);
    expect(aoConfig('High', true)).toMatchObject({ halfRes: true, aoSamples: 64 });
    expect(aoConfig(undefined, true).halfRes).toBe(true);
  });

  it('offers exactly the five presets of the spec', () => {
    expect(QUALITIES).toEqual(['Performance', 'Low', 'Medium', 'High', 'Ultra']);
  });
});
