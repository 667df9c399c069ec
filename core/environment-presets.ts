/**
 * Environment preset names and their @pmndrs/assets HDRI file names. Plain data, read by the
 * viewer (src/ui/canvas/environments.ts), by the server (/embed's preload, server/embed-preload.ts) and by the Vite plugin that writes the files (vite.config.ts).
 */
export const ENVIRONMENT_PRESET_FILES = {
  hub: 'hall',
  sunset: 'sunset',
  dawn: 'dawn',
  night: 'night',
  warehouse: 'warehouse',
  forest: 'forest',
  apartment: 'apartment',
  studio: 'studio',
  city: 'city',
  park: 'park',
  lobby: 'lobby',
} as const;

/** URL folder (under the base) where the presets are served. */
export const ENVIRONMENT_URL_DIR = 'environments';

/**
 * Extension of the preset files the viewer loads: each preset prefiltered at build time
 * (scripts/prefilter-environment.ts), beside its `.exr`.
 */
export const ENVIRONMENT_PRESET_EXTENSION = '.pmrem';
