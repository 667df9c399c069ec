import { Color, Fog, FogExp2 } from 'three';
import { describe, expect, it } from 'vitest';
import { createFog, type FogOptions } from './fog';

describe('createFog', () => {
  it('makes three.js linear fog, near 1 and far 10 by default', () => {
    const result = createFog({ type: 'linear', color: '#ff0000', near: 2, far: 8 });
    expect(result).toEqual({ fog: new Fog(new Color('#ff0000'), 2, 8) });
    expect(createFog({ type: 'linear', color: '#fff' })).toEqual({
      fog: new Fog(new Color('#ffffff'), 1, 10),
    });
  });

  it('makes three.js exponential fog, density 0.1 by default', () => {
    expect(createFog({ type: 'exponential', color: '#00ff00', density: 0.3 })).toEqual({
      fog: new FogExp2(new Color('#00ff00'), 0.3),
    });
    expect(createFog({ type: 'exponential', color: '#00ff00' })).toEqual({
      fog: new FogExp2(new Color('#00ff00'), 0.1),
    });
  });

  it('names an unsupported type and the supported ones', () => {
    const volumetric = { type: 'volumetric', color: '#fff' } as unknown as FogOptions;
    expect(createFog(volumetric)).toEqual({
      problem:
        'unsupported fog type "volumetric": the supported types are "linear" and "exponential"',
    });
    expect(createFog({ color: '#fff' } as FogOptions)).toEqual({
      problem: expect.stringContaining('unsupported fog type undefined') as string,
    });
  });

  it.each([
    [{ type: 'linear', color: 'red' }, 'fog color must be a hex colour'],
    [{ type: 'linear' }, 'fog color must be a hex colour'],
    [{ type: 'linear', color: '#fff', near: 5, far: 5 }, 'far a number greater than near'],
    [{ type: 'linear', color: '#fff', near: -1 }, 'near must be a number of at least 0'],
    [{ type: 'linear', color: '#fff', far: '10' }, 'far a number greater than near'],
    [{ type: 'exponential', color: '#fff', density: 0 }, 'density must be a positive number'],
    [{ type: 'exponential', color: '#fff', density: null }, 'density must be a positive number'],
    ['linear', 'fog must be an object'],
    [null, 'fog must be an object'],
  ])('refuses %j', (options, problem) => {
    const result = createFog(options as FogOptions);
    expect(result).toEqual({ problem: expect.stringContaining(problem) as string });
  });
});
