import { describe, expect, it } from 'vitest';
import { currentLink } from './current-link';

const NAV = ['/', '/assets', '/users', '/users/invitations', '/users/u1/assets', '/activity'];

describe('the current navigation link', () => {
  it('is the longest matching path, so a page under another link lights one link', () => {
    expect(currentLink('/users/invitations', NAV)).toBe('/users/invitations');
    expect(currentLink('/users', NAV)).toBe('/users');
    expect(currentLink('/users/u2', NAV)).toBe('/users');
    expect(currentLink('/users/u2/assets', NAV)).toBe('/users');
    // One's own assets are My assets, not also Users.
    expect(currentLink('/users/u1/assets', NAV)).toBe('/users/u1/assets');
    expect(currentLink('/assets/a1', NAV)).toBe('/assets');
    expect(currentLink('/assets/', NAV)).toBe('/assets');
  });

  it('matches whole segments, and the dashboard only at the root', () => {
    expect(currentLink('/', NAV)).toBe('/');
    expect(currentLink('/assetsx', NAV)).toBeUndefined();
    expect(currentLink('/account', NAV)).toBeUndefined();
  });
});
