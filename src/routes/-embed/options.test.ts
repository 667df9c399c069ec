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
