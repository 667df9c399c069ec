import { describe, expect, it } from 'vitest';
import { endpoint, ENDPOINTS } from './paths';
import { ROUTES } from './routes';

/** Every path ENDPOINTS names, a `{mount}` one once per mount. */
function named(node: object): string[] {
  return Object.values(node).flatMap((value: string | object) =>
    typeof value === 'string'
      ? ['/v1', '/private/v1'].map((mount) => value.replace('/{mount}', mount))
      : named(value),
  );
}

describe('the paths the client names', () => {
  it('are each a path of the route table (and so of the OpenAPI document), on both mounts where they say {mount}', () => {
    const documented = new Set(ROUTES.map((route) => route.path));
    expect(named(ENDPOINTS).filter((path) => !documented.has(path))).toEqual([]);
  });

  it('lose their leading slash and get the parameters given, encoded; the others stay', () => {
    expect(endpoint(ENDPOINTS.tags)).toBe('v1/tags');
    expect(endpoint(ENDPOINTS.file, { key: 'a/b c' })).toBe('v1/files/a%2Fb%20c');
    expect(endpoint(ENDPOINTS.assetPosition)).toBe('v1/assets/{id}/position');
  });

  it('go to the public mount unless the scope is private', () => {
    expect(endpoint(ENDPOINTS.asset, { id: 'x' })).toBe('v1/assets/x');
    expect(endpoint(ENDPOINTS.asset, { id: 'x' }, 'public')).toBe('v1/assets/x');
    expect(endpoint(ENDPOINTS.asset, { id: 'x' }, 'private')).toBe('private/v1/assets/x');
    expect(endpoint(ENDPOINTS.users)).toBe('private/v1/users');
  });
});
