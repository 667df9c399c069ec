import { describe, expect, it } from 'vitest';
import { evictOverLimit, type StoredIndex } from './model-cache';

const index = (): StoredIndex => ({
  'https://a.example/old.glb': { size: 40, usedAt: 1 },
  'https://a.example/new.glb': { size: 40, usedAt: 3 },
  'https://a.example/mid.glb': { size: 40, usedAt: 2 },
});

describe('evictOverLimit (the offline model store)', () => {
  it.each([
    { limit: 120, evicted: [] },
    { limit: 100, evicted: ['https://a.example/old.glb'] },
    { limit: 40, evicted: ['https://a.example/old.glb', 'https://a.example/mid.glb'] },
    { limit: 0, evicted: ['old', 'mid', 'new'].map((n) => `https://a.example/${n}.glb`) },
  ])('keeps at most $limit bytes, least recently used out first', ({ limit, evicted }) => {
    const entries = index();
    expect(evictOverLimit(entries, limit)).toEqual(evicted);
    expect(Object.keys(entries).sort()).toEqual(
      Object.keys(index())
        .filter((url) => !evicted.includes(url))
        .sort(),
    );
  });
});
