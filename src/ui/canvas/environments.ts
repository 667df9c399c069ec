/**
 * Environment presets (spec §2), served by the app itself (never a public CDN): the build
 * prefilters each preset's EXR from @pmndrs/assets into a `.pmrem` file under `environments/`
 * (see the `viewerAssets` Vite plugin and scripts/prefilter-environment.ts), so a preset costs
 * no JavaScript and no prefiltering on the first frame, and is fetched only when used.
 * @pmndrs/assets has no "hub" HDRI; hub maps to its "hall" interior, the others to the file of
 * the same name.
 */
import {
  ENVIRONMENT_PRESET_EXTENSION,
  ENVIRONMENT_PRESET_FILES,
  ENVIRONMENT_URL_DIR,
} from '../../../core/environment-presets';

export type EnvironmentPreset = keyof typeof ENVIRONMENT_PRESET_FILES;
export const ENVIRONMENT_PRESETS = Object.keys(ENVIRONMENT_PRESET_FILES) as EnvironmentPreset[];
export const DEFAULT_ENVIRONMENT: EnvironmentPreset = 'city';

const DEFAULT_ENVIRONMENT_PATH = `${import.meta.env.BASE_URL}${ENVIRONMENT_URL_DIR}/`;

function isEnvironmentPreset(value: string): value is EnvironmentPreset {
  return Object.hasOwn(ENVIRONMENT_PRESET_FILES, value);
}

/**
 * The file location of an environment: a preset's prefiltered `.pmrem` under `presetPath`, or
 * the value itself (any non-preset value is a location).
 */
export function environmentFile(environment: string, presetPath = DEFAULT_ENVIRONMENT_PATH) {
  return isEnvironmentPreset(environment)
    ? `${presetPath}${ENVIRONMENT_PRESET_FILES[environment]}${ENVIRONMENT_PRESET_EXTENSION}`
    : environment;
}
