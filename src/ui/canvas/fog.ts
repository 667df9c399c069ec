// The viewer's optional fog (spec §8): three.js's linear Fog or exponential FogExp2.
import { Color, Fog, FogExp2 } from 'three';

/** Linear fog: none nearer than `near`, full `color` from `far` on (distances from the camera). */
export interface LinearFogOptions {
  type: 'linear';
  /** A CSS colour such as '#ffffff'. */
  color: string;
  /** Default 1. */
  near?: number;
  /** Default 10. */
  far?: number;
}

/** Exponential fog: it thickens with the square of the distance, by `density`. */
export interface ExponentialFogOptions {
  type: 'exponential';
  color: string;
  /** Default 0.1. */
  density?: number;
}

export type FogOptions = LinearFogOptions | ExponentialFogOptions;

export const FOG_TYPES = ['linear', 'exponential'] as const satisfies FogOptions['type'][];
export const FOG_DEFAULTS = { near: 1, far: 10, density: 0.1 } as const;

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const COLOR = /^#(?:[\da-f]{3}){1,2}$/i;

const describe = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Why `value` is not valid fog options (they may come from plain JavaScript or an address), or null. */
export function fogProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'fog must be an object such as {"type":"linear","color":"#ffffff"}';
  }
  const given = value as Record<string, unknown>;
  if (!(FOG_TYPES as readonly unknown[]).includes(given.type)) {
    const supported = FOG_TYPES.map((type) => `"${type}"`).join(' and ');
    return `unsupported fog type ${describe(given.type)}: the supported types are ${supported}`;
  }
  if (typeof given.color !== 'string' || !COLOR.test(given.color)) {
    return `fog color must be a hex colour such as "#ffffff", not ${describe(given.color)}`;
  }
  const {
    near = FOG_DEFAULTS.near,
    far = FOG_DEFAULTS.far,
    density = FOG_DEFAULTS.density,
  } = given;
  if (given.type === 'exponential') {
    return isNumber(density) && density > 0 ? null : 'fog density must be a positive number';
  }
  return isNumber(near) && isNumber(far) && near >= 0 && far > near
    ? null
    : 'fog near must be a number of at least 0 and far a number greater than near';
}

/**
 * The three.js fog for these options, or why there is none: an unsupported type or invalid
 * values (the viewer then draws without fog and logs the reason).
 */
export function createFog(options: FogOptions): { fog: Fog | FogExp2 } | { problem: string } {
  const problem = fogProblem(options);
  if (problem) return { problem };
  const color = new Color(options.color);
  return options.type === 'exponential'
    ? { fog: new FogExp2(color, options.density ?? FOG_DEFAULTS.density) }
    : { fog: new Fog(color, options.near ?? FOG_DEFAULTS.near, options.far ?? FOG_DEFAULTS.far) };
}
