/**
 * The OpenAPI 3.1 document of the API, built from the route table (routes.ts): every schema
 * is zod's own JSON Schema (`z.toJSONSchema`, draft 2020-12, the dialect of OpenAPI 3.1), and
 * the roles of each operation come from the CASL rules of each role (ability.ts `roleRules`).
 * The server serves it at GET /v1/openapi.json and renders it at /v1/docs.
 */
import { createMongoAbility } from '@casl/ability';
import { z } from 'zod/mini';
import { roleRules, type AppAbility } from './ability';
import { ROUTES } from './routes';
import type { Route } from './routes/route';
import { apiErrorSchema, editConflictErrorSchema, roleSchema, type Role } from './schemas';

type Json = Record<string, unknown>;

/** The roles the platform knows, in the order the documentation lists them. */
export const ROLES: readonly Role[] = roleSchema.options;

const abilities = new Map(
  ROLES.map((role) => [role, createMongoAbility<AppAbility>(roleRules(role, 'caller'))]),
);

/**
 * The roles whose tokens pass the route's checks (a token of a registered account whose address
 * is unproven carries `anonymous`'s rules, docs/roles.md). Every role for a route without one.
 */
export function rolesOf(route: Route): Role[] {
  if (route.auth === 'none') return [...ROLES];
  return ROLES.filter((role) => {
    const ability = abilities.get(role)!;
    const all = (route.abilities ?? []).every(([action, subject]) => ability.can(action, subject));
    const any =
      !route.anyOf?.length || route.anyOf.some(([action, subject]) => ability.can(action, subject));
    return all && any;
  });
}

/** JSON Schema of `schema` as a request reads it (`input`) or an answer sends it (`output`). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

/** `/v1/assets/{id}` -> `getV1AssetsIdPosition`-style ids, unique per method and path. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return (
    route.method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')
  ).replace(/[^A-Za-z0-9]/g, '');
}

const pathParams = (path: string): string[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  206: 'Partial Content: the byte range asked for',
  304: 'Not Modified: the version If-None-Match names is current',
  400: 'VALIDATION_ERROR: the body, query or a parameter is not valid',
  401: 'UNAUTHORIZED: no valid bearer token, or its session has ended',
  403: 'FORBIDDEN: the token does not allow this',
  404: 'NOT_FOUND',
  409: 'Conflict (EDIT_CONFLICT, ASSET_LOCKED, a name taken, ...)',
  411: 'Length Required',
  412: 'Precondition Failed: If-Match names an older version',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE: a JSON body sent as another type, or a file of a type its kind does not accept',
  416: 'Range Not Satisfiable',
  422: 'IDEMPOTENCY_KEY_REUSED (the key of another request), or a file that is damaged or breaks its kind’s rules',
  429: 'Too many requests (Retry-After)',
  500: 'INTERNAL_ERROR: an unexpected failure, logged with the request id (never details)',
  501: 'Not configured on this server',
  503: 'SERVER_BUSY or unavailable: the database or the file store; try again (Retry-After)',
};

const errorRef = { $ref: '#/components/schemas/ApiError' };
const conflictRef = { $ref: '#/components/schemas/EditConflictError' };

/** Whether a JSON body names records by id (`assetId`, `ids`, ...): an unknown one is a 404. */
function namesIds(body: z.core.$ZodType | undefined): boolean {
  if (!body) return false;
  return /"(?:ids?|\w*Ids?)":/.test(JSON.stringify(jsonSchema(body, 'input')));
}

/**
 * The error statuses of `route`, derived from its shape besides those it lists: any address can
 * be refused (400, a %00 in it), any request can fail unexpectedly (500) and find the database
 * or the file store busy or out of reach (503); a token is needed (401) and abilities (403); ids in the path or body
 * (404); a change by a token can meet a locked or changed record (409) and names the version it
 * is based on in If-Match (412); a POST with a token can carry another request's Idempotency-Key
 * (422); a request with a body over the server's limit (413, every method
 * but GET); a JSON body sent as another type (415). Any request can also come from a network
 * that has sent too many (429: CLIENT_REQUEST_RATE, on in production).
 */
function errorStatuses(route: Route): number[] {
  const statuses = new Set<number>([...(route.errors ?? []), 400, 429, 500, 503]);
  if (route.auth === 'bearer') statuses.add(401);
  if (route.abilities?.length || route.anyOf?.length) statuses.add(403);
  if (pathParams(route.path).length > 0 || namesIds(route.body)) statuses.add(404);
  if (route.auth === 'bearer' && route.method !== 'get') {
    statuses.add(409);
    statuses.add(412);
  }
  // The Idempotency-Key of another request (server/http/idempotency.ts).
  if (route.auth === 'bearer' && route.method === 'post') statuses.add(422);
  if (route.method !== 'get') statuses.add(413);
  if (route.body) statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * The words a path parameter never is: the literal segments at its place in the other paths of
 * the same method that an address could match along with it (`/v1/assets/{id}` is never
 * `countByType`; `/v1/assets/{id}/application`'s id never `export`, which
 * `/v1/assets/export/{applicationId}` reads). So no address matches two operations.
 */
function reservedWords(route: Route, index: number, routes: readonly Route[]): string[] {
  const segments = route.path.split('/');
  const isParam = (segment: string) => segment.startsWith('{');
  const words = new Set<string>();
  for (const other of routes) {
    const theirs = other.path.split('/');
    if (other === route || other.method !== route.method) continue;
    if (theirs.length !== segments.length || isParam(theirs[index]!)) continue;
    const overlaps = segments.every(
      (segment, i) =>
        i === index || segment === theirs[i] || isParam(segment) || isParam(theirs[i]!),
    );
    if (overlaps) words.add(theirs[index]!);
  }
  return [...words].sort();
}

function operation(route: Route, routes: readonly Route[]): Json {
  const roles = rolesOf(route);
  const needs = [
    ...(route.abilities ?? []).map((need) => need.join(' ')),
    ...(route.anyOf?.length ? [route.anyOf.map((need) => need.join(' ')).join(' or ')] : []),
  ];
  const who =
    route.auth === 'none'
      ? 'No token needed.'
      : `Roles: ${roles.join(', ') || 'none'}${needs.length ? ` (${needs.join('; ')})` : ''}.`;
  const segments = route.path.split('/');
  const parameters: Json[] = pathParams(route.path).map((name) => {
    const reserved = reservedWords(route, segments.indexOf(`{${name}}`), routes);
    return {
      name,
      in: 'path',
      required: true,
      schema: {
        ...(route.params?.[name] ? jsonSchema(route.params[name], 'input') : { type: 'string' }),
        ...(reserved.length ? { not: { enum: reserved } } : {}),
      },
    };
  });
  if (route.query) {
    const query = jsonSchema(route.query, 'input') as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: !!query.required?.includes(name), schema });
    }
  }
  const status = route.status ?? 200;
  const success: Json = { description: STATUS_TEXT[status] ?? 'OK' };
  if (route.answerType) {
    success.content = { [route.answerType]: {} };
  } else if (route.answer) {
    success.content = { 'application/json': { schema: jsonSchema(route.answer, 'output') } };
  }
  if (
    route.auth === 'bearer' &&
    route.method === 'get' &&
    route.answerType !== 'text/event-stream'
  ) {
    success.headers = {
      'Event-Position': {
        description:
          'The live event position this read was taken at: every event up to it is in the answer (resume `GET /v1/events` after it to miss nothing).',
        schema: { type: 'integer', minimum: 0 },
      },
    };
  }
  const responses: Json = { [status]: success };
  for (const error of errorStatuses(route)) {
    if (error < 400) {
      responses[error] = { description: STATUS_TEXT[error] ?? 'OK' };
      continue;
    }
    const own = route.answers?.[error];
    const schema = own
      ? { anyOf: [jsonSchema(own, 'output'), errorRef] }
      : error === 409
        ? { anyOf: [conflictRef, errorRef] }
        : errorRef;
    responses[error] = {
      description: STATUS_TEXT[error] ?? 'Error',
      content: { 'application/json': { schema } },
    };
  }
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: who,
    tags: [route.tag],
    security: route.auth === 'none' ? [] : [{ bearer: [] }],
    'x-roles': roles,
    ...(needs.length ? { 'x-abilities': needs } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body || route.bodyType
      ? {
          requestBody: {
            required: true,
            content: route.bodyType
              ? { [route.bodyType]: { schema: { type: 'string', format: 'binary' } } }
              : { 'application/json': { schema: jsonSchema(route.body!, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of `routes` (every route of the API by default). */
export function openApiDocument(
  version: string,
  routes: readonly Route[] = ROUTES,
): Json & { paths: Record<string, Record<string, Json>> } {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`Route listed twice: ${route.method} ${route.path}`);
    item[route.method] = operation(route, routes);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Avatar Studio API',
      version,
      description:
        'The reference platform API of Avatar Studio. Answers are JSON in a `{ data }` ' +
        'envelope (lists: `{ data, pagination }`); errors are `{ status, code, message }`. ' +
        'Each operation names the roles whose tokens it accepts (`x-roles`, docs/roles.md).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        ApiError: jsonSchema(apiErrorSchema, 'output'),
        EditConflictError: jsonSchema(editConflictErrorSchema, 'output'),
      },
    },
  };
}
