import { describe, expect, it } from 'vitest';
import { aoConfig, QUALITIES } from './quality';

describe('ambient-occlusion quality presets', () => {
  it.each([
    ['Performance', 8, 4, 12],
    ['Low', 16, 4, 12],
    ['Medium', 16, 8, 12],
    ['High', 64, 8, 6],
    ['Ultra', 64, 16, 6],
  ] as const)(
    '%s: %i samples, %i denoise samples, radius %i',
    (quality, samples, denoise, radius) => {
      expect(aoConfig(quality)).toMatchObject({
        aoSamples: samples,
        denoiseSamples: denoise,
        denoiseRadius: radius,
        // The rest of the §9 defaults are kept.
        aoRadius: 5,
        denoiseIterations: 2,
        intensity: 5,
        distanceFalloff: 1,
      });
    },
  );

  it('uses the §9 defaults without a preset', () => {
    expect(aoConfig()).toEqual({
      aoSamples: 16,
      aoRadius: 5,
      denoiseSamples: 8,
      denoiseRadius: 12,
      denoiseIterations: 2,
      intensity: 5,
      distanceFalloff: 1,
      halfRes: false,
    });
  });

  it('asks for the half-resolution mode only when told to', () => {
    expect(aoConfig('High', true)).toMatchObject({ halfRes: true, aoSamples: 64 });
    expect(aoConfig(undefined, true).halfRes).toBe(true);
  });

  it('offers exactly the five presets of the spec', () => {
    expect(QUALITIES).toEqual(['Performance', 'Low', 'Medium', 'High', 'Ultra']);
  });
});
