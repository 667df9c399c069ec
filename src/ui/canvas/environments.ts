/**
 * Environment presets (spec §2), served by the app itself: each is a base64 EXR module of
 * @pmndrs/assets, split into its own chunk and loaded only when used (never a public CDN).
 * @pmndrs/assets has no "hub" HDRI; hub maps to its "hall" interior, the others to the file of
 * the same name.
 */
const PRESETS = {
  hub: () => import('@pmndrs/assets/hdri/hall.exr.js'),
  sunset: () => import('@pmndrs/assets/hdri/sunset.exr.js'),
  dawn: () => import('@pmndrs/assets/hdri/dawn.exr.js'),
  night: () => import('@pmndrs/assets/hdri/night.exr.js'),
  warehouse: () => import('@pmndrs/assets/hdri/warehouse.exr.js'),
  forest: () => import('@pmndrs/assets/hdri/forest.exr.js'),
  apartment: () => import('@pmndrs/assets/hdri/apartment.exr.js'),
  studio: () => import('@pmndrs/assets/hdri/studio.exr.js'),
  city: () => import('@pmndrs/assets/hdri/city.exr.js'),
  park: () => import('@pmndrs/assets/hdri/park.exr.js'),
  lobby: () => import('@pmndrs/assets/hdri/lobby.exr.js'),
} satisfies Record<string, () => Promise<{ default: string }>>;

export type EnvironmentPreset = keyof typeof PRESETS;
export const ENVIRONMENT_PRESETS = Object.keys(PRESETS) as EnvironmentPreset[];
export const DEFAULT_ENVIRONMENT: EnvironmentPreset = 'city';

export function isEnvironmentPreset(value: string): value is EnvironmentPreset {
  return Object.hasOwn(PRESETS, value);
}

const resolved = new Map<string, Promise<string>>();

/** The file (a data URL for presets) of an environment; any non-preset value is a location. */
export function environmentFile(environment: string): Promise<string> {
  let file = resolved.get(environment);
  if (!file) {
    file = isEnvironmentPreset(environment)
      ? PRESETS[environment]().then((m) => m.default)
      : Promise.resolve(environment);
    resolved.set(environment, file);
  }
  return file;
}
