/**
 * 405 with `Allow` for a method the API does not have at an address it knows (RFC 9110 15.5.6),
 * answered before authentication: what a path allows is in the public document, the same for
 * every caller, so a stranger learns nothing from it. Addresses no route names go on to 404.
 *
 * A literal path wins over a template with a parameter it also matches: `/v1/assets/validate`
 * is that route's address, not an asset's id, so `PATCH /v1/assets/validate` is a 405 naming
 * POST rather than "no asset with id validate".
 */
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './errors';

/** What is read of a Hono app: its routes (method, path with `:param`s). */
interface Routed {
  routes: readonly { method: string; path: string }[];
}

interface Template {
  pattern: RegExp;
  methods: Set<string>;
  /** No parameter: the path is this template's own. */
  literal: boolean;
}

/** The app's routes with a method (not middleware, not wildcards), grouped by path. */
function templatesOf(app: Routed): Template[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`),
    methods,
    literal: !path.includes(':'),
  }));
}

/** Reads the routes of `app` at its first request, once every route is mounted. */
export function methodNotAllowed(app: Routed): MiddlewareHandler {
  let templates: Template[] | undefined;
  return async (c, next) => {
    templates ??= templatesOf(app);
    const path = c.req.path;
    const all = templates.filter((template) => template.pattern.test(path));
    const literal = all.filter((template) => template.literal);
    const matching = literal.length > 0 ? literal : all;
    if (matching.length === 0 || matching.some((t) => t.methods.has(c.req.method))) {
      return next();
    }
    const allowed = new Set(matching.flatMap((template) => [...template.methods]));
    c.header('Allow', [...allowed].sort().join(', '));
    return errorResponse(
      c,
      405,
      'METHOD_NOT_ALLOWED',
      `${c.req.method} is not a method of ${path} (it allows ${[...allowed].sort().join(', ')})`,
    );
  };
}
