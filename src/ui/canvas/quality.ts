/** Display modes of the ambient-occlusion pass (spec §2). */
export const AO_MODES = ['Combined', 'AO', 'No AO', 'Split', 'Split AO'] as const;
export type AoMode = (typeof AO_MODES)[number];

/** Quality presets: occlusion samples, denoise samples, denoise radius (spec §2). */
const QUALITY_PRESETS = {
  Performance: { aoSamples: 8, denoiseSamples: 4, denoiseRadius: 12 },
  Low: { aoSamples: 16, denoiseSamples: 4, denoiseRadius: 12 },
  Medium: { aoSamples: 16, denoiseSamples: 8, denoiseRadius: 12 },
  High: { aoSamples: 64, denoiseSamples: 8, denoiseRadius: 6 },
  Ultra: { aoSamples: 64, denoiseSamples: 16, denoiseRadius: 6 },
} as const;
export type Quality = keyof typeof QUALITY_PRESETS;
export const QUALITIES = Object.keys(QUALITY_PRESETS) as Quality[];

/** Occlusion defaults of spec §9, used when no quality preset is chosen. */
const AO_DEFAULTS = {
  aoSamples: 16,
  aoRadius: 5,
  denoiseSamples: 8,
  denoiseRadius: 12,
  denoiseIterations: 2,
  intensity: 5,
  distanceFalloff: 1,
} as const;

export type AoConfig = { -readonly [K in keyof typeof AO_DEFAULTS]: number } & {
  /**
   * n8ao's half-resolution mode: occlusion is computed at 0.5 scale (spec §9) and upsampled
   * with depth awareness. n8ao samples its own 128 × 128 blue-noise texture (spec §9) in both.
   */
  halfRes: boolean;
};

/** The occlusion pass settings for a quality preset (the defaults without one). */
export function aoConfig(quality?: Quality, halfResolution = false): AoConfig {
  return {
    ...AO_DEFAULTS,
    ...(quality ? QUALITY_PRESETS[quality] : {}),
    halfRes: halfResolution,
  };
}
