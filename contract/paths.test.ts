import { describe, expect, it } from 'vitest';
import { endpoint, ENDPOINTS } from './paths';
import { ROUTES } from './routes';

describe('the paths the client names', () => {
  it('are each a path of the route table (and so of the OpenAPI document)', () => {
    const documented = new Set(ROUTES.map((route) => route.path));
    expect(Object.values(ENDPOINTS).filter((path) => !documented.has(path))).toEqual([]);
  });

  it('lose their leading slash and get the parameters given, encoded; the others stay', () => {
    expect(endpoint(ENDPOINTS.assets)).toBe('v1/assets');
    expect(endpoint(ENDPOINTS.userAssets, { userId: 'a/b c' })).toBe('v1/user-assets/a%2Fb%20c');
    expect(endpoint(ENDPOINTS.assetPosition)).toBe('v1/assets/{id}/position');
  });
});
