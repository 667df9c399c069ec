import { describe, expect, it } from 'vitest';
import { fuzzyMatch } from './fuzzy-match';

describe('fuzzyMatch', () => {
  it('finds a command by the letters of each typed word in order, gaps allowed', () => {
    expect(fuzzyMatch('New asset', 'new ass')).toBe(true);
    expect(fuzzyMatch('New asset', 'nwast')).toBe(true);
    expect(fuzzyMatch('Morph queue', 'mrph q')).toBe(true);
    expect(fuzzyMatch('Morph queue', 'queue morph')).toBe(true);
  });

  it('ignores case and accents, and an empty query finds everything', () => {
    expect(fuzzyMatch('Thème sombre', 'THEME')).toBe(true);
    expect(fuzzyMatch('Tags', '  ')).toBe(true);
  });

  it('does not find letters out of order or missing', () => {
    expect(fuzzyMatch('Tags', 'gat')).toBe(false);
    expect(fuzzyMatch('Sign out', 'sign up')).toBe(false);
  });
});
