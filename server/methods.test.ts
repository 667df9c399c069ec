import { describe, expect, it } from 'vitest';
import { ROUTES } from '../contract/routes';
import { expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const patternOf = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
/** A concrete address of `template`, each parameter a word no literal segment uses. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'x1');

describe('a method an address does not have', () => {
  it('is 405 with Allow, before any token is asked for', async () => {
    const tags = await t.request('DELETE', '/v1/tags');
    expectError(tags, 405, 'METHOD_NOT_ALLOWED');
    expect(tags.headers.get('allow')).toBe('GET, HEAD, POST');
    const user = await t.request('PUT', '/private/v1/users/someone');
    expectError(user, 405, 'METHOD_NOT_ALLOWED');
    expect(user.headers.get('allow')).toBe('GET, HEAD, PATCH');
    // A token changes nothing: what an address allows is the same for every caller.
    const asUser = await t.request('PUT', '/private/v1/users/someone', { token: tokens.user });
    expect(asUser.status).toBe(405);
    expect(asUser.headers.get('allow')).toBe('GET, HEAD, PATCH');
  });

  it('is 405 at every address of the route table, naming the methods of every route there', async () => {
    const wrong: string[] = [];
    for (const template of new Set(ROUTES.map((route) => route.path))) {
      const path = concrete(template);
      const all = ROUTES.filter((route) => patternOf(route.path).test(path));
      // A literal path is its own route's, not a parameter's value (method-not-allowed.ts).
      const literal = all.filter((route) => !route.path.includes('{'));
      const here = literal.length > 0 ? literal : all;
      const allowed = new Set(here.map((route) => route.method.toUpperCase()));
      if (allowed.has('GET')) allowed.add('HEAD');
      const missing = METHODS.find((method) => !allowed.has(method));
      if (!missing) continue;
      const response = await t.request(missing, path);
      const allow = response.headers.get('allow');
      if (response.status !== 405 || allow !== [...allowed].sort().join(', ')) {
        wrong.push(`${missing} ${path}: ${response.status} Allow: ${allow}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("is 405 at a literal path that a parameter's template also matches", async () => {
    const validate = await t.request('PATCH', '/v1/assets/validate', { token: tokens.admin });
    expectError(validate, 405, 'METHOD_NOT_ALLOWED');
    expect(validate.headers.get('allow')).toBe('POST');
  });

  it('leaves an address no route names a 404', async () => {
    expectError(await t.request('DELETE', '/v1/no-such-thing'), 404, 'NOT_FOUND');
    expectError(await t.request('PUT', '/private/v1/assets/a/b/c'), 401);
  });
});
