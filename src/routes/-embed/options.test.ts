import { defaultParseSearch } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { readSearch, searchSchema } from './options';
import { z } from 'zod/mini';

describe('readSearch', () => {
  it.each([
    '?modelSrc=/files/a.glb&fit=true&scale=1.5',
    '?modelSrc=%5B%22/a.glb%22%2C%22/b.glb%22%5D&environment=city',
    '?modelSrc=/a.glb&modelSrc=/b.glb',
    '?emotion=%7B%22smile%22%3A0.4%7D&ao=Split%20AO&quality=High&zoom=false',
    '?spawnEffectLoop=2&spawnAnimationLoop=0&aoHalfResolution=1',
    '?modelSrc=&environment=null&scale=-1&fit=yes',
    '?allowedOrigins=%5B%22https%3A%2F%2Fa.example%22%5D',
    '?fog=%7B%22type%22%3A%22linear%22%2C%22color%22%3A%22%23ffffff%22%7D&debug=true',
    '?fog=%7B%22type%22%3A%22fancy%22%7D&debug=1',
  ])('reads %s as the app router would', (search) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(readSearch(search)).toEqual(z.parse(searchSchema, defaultParseSearch(search)));
  });

  it('types the values an embedder writes', () => {
    expect(readSearch('?modelSrc=/a.glb&fit=true&scale=2&emotion={"smile":1}')).toMatchObject({
      modelSrc: '/a.glb',
      fit: true,
      scale: 2,
      emotion: { smile: 1 },
    });
  });
});

describe('the fog and debug parameters', () => {
  it('takes linear and exponential fog as JSON, and debug as a flag', () => {
    const linear = { type: 'linear', color: '#ff0000', near: 2, far: 7 };
    const exponential = { type: 'exponential', color: '#808080', density: 0.2 };
    expect(readSearch(`?fog=${JSON.stringify(linear)}&debug=true`)).toMatchObject({
      fog: linear,
      debug: true,
    });
    expect(readSearch(`?fog=${encodeURIComponent(JSON.stringify(exponential))}`)).toMatchObject({
      fog: exponential,
    });
    // Off by default.
    expect(readSearch('?modelSrc=/a.glb')).toEqual({ modelSrc: '/a.glb' });
  });

  it.each([
    [
      '{"type":"volumetric","color":"#fff"}',
      'unsupported fog type "volumetric": the supported types are "linear" and "exponential"',
    ],
    ['{"type":"linear","color":"#fff","near":9,"far":3}', 'far a number greater than near'],
    ['{"type":"exponential","color":"blue"}', 'fog color must be a hex colour'],
    ['{"type":"linear"', 'fog must be an object'],
    ['linear', 'fog must be an object'],
  ])('ignores fog=%s with a console warning that says why, and keeps the rest', (fog, why) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const search = readSearch(`?modelSrc=/a.glb&fog=${encodeURIComponent(fog)}&debug=yes`);
    expect(search).toMatchObject({ modelSrc: '/a.glb', fog: undefined, debug: undefined });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\/embed: ignoring invalid fog=/));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(why));
    expect(warn).toHaveBeenCalledWith('/embed: ignoring invalid debug="yes"');
  });
});
