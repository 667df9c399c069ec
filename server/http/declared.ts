/**
 * Mounts a handler from its declaration in the route table (contract/routes.ts, or among the
 * routes the document leaves out there): the method, the path, the token and abilities it needs
 * and the body it reads come from there, so a handler cannot disagree with the document. A
 * handler names the body schema it expects; a schema other than the declaration's is an error
 * at start-up, not a request that slips past the document.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod/mini';
import { ROUTES, UNDOCUMENTED_ROUTES } from '../../contract/routes';
import type { Method, Need } from '../../contract/routes/route';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { fail } from './errors';
import { readBody } from './validate';

type Handler<T> = (c: Context<AuthEnv>, body: T) => Response | Promise<Response>;

/** `METHOD /path/{param}` of the declaration each function mounted from one serves. */
const declaredAs = new WeakMap<object, Set<string>>();

/**
 * Whether `handler`, found on the app at `METHOD /path/{param}` (`key`), was mounted there
 * from that route's declaration: a handler mounted by hand, or a declared one mounted at
 * another address, is not.
 * @internal
 */
export function mountedAsDeclared(handler: object, key: string): boolean {
  return declaredAs.get(handler)?.has(key) ?? false;
}

/** The caller's token must allow one of `needs` (403 otherwise). */
function requireAnyOf(needs: readonly Need[]): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const { ability } = c.get('auth');
    if (!needs.some(([action, subject]) => ability.can(action, subject))) {
      const named = needs.map(([action, subject]) => `${action} ${subject}`).join(' or ');
      fail(403, 'FORBIDDEN', `Your role may not ${named}`);
    }
    await next();
  };
}

/**
 * `on(method, path, bodySchema, handler)` for the routes of `app`, which is mounted at `mount`:
 * `path` is the route table's (e.g. `/v1/bulk-jobs/{id}`), `bodySchema` the declared body's, or
 * undefined for a route without one.
 */
export function declaredRoutes(app: Hono<AuthEnv>, deps: Deps, mount: string) {
  return function on<S extends z.core.$ZodType | undefined>(
    method: Method,
    path: string,
    bodySchema: S,
    handler: Handler<S extends z.core.$ZodType ? z.infer<S> : undefined>,
  ): void {
    const route = [...ROUTES, ...UNDOCUMENTED_ROUTES].find(
      (r) => r.method === method && r.path === path,
    );
    if (!route) throw new Error(`${method} ${path} is not in contract/routes.ts`);
    if (!path.startsWith(mount)) throw new Error(`${path} is not under ${mount}`);
    if (route.body !== bodySchema) {
      throw new Error(`${method} ${path} reads a body other than the one it declares`);
    }
    const middleware: MiddlewareHandler<AuthEnv>[] = [];
    // The private mount reads the token for all of its routes (server/app.ts).
    const isPrivate = path.startsWith('/private/v1/');
    if (route.auth === 'bearer' && !isPrivate) middleware.push(requireAuth(deps));
    for (const [action, subject] of route.abilities ?? []) {
      // The private mount checks `access PrivateApi` for all of its routes (server/app.ts).
      if (action === 'access' && subject === 'PrivateApi') continue;
      middleware.push(requireAbility(action, subject));
    }
    if (route.anyOf?.length) middleware.push(requireAnyOf(route.anyOf));
    const relative = path.slice(mount.length).replace(/\{([^}]+)\}/g, ':$1') || '/';
    const answer: MiddlewareHandler<AuthEnv> = async (c) => {
      const body = bodySchema ? await readBody(c, bodySchema) : undefined;
      return handler(c, body as S extends z.core.$ZodType ? z.infer<S> : undefined);
    };
    const key = `${method.toUpperCase()} ${path}`;
    for (const mounted of [...middleware, answer]) {
      declaredAs.set(mounted, (declaredAs.get(mounted) ?? new Set()).add(key));
    }
    app.on(method.toUpperCase(), [relative], ...middleware, answer);
  };
}
