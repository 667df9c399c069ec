/** Probes, the API's own documents, live events and counts, and the dev mailbox. */
import { z } from 'zod/mini';
import { activityRowSchema, devMailSchema, emailSchema, servicesSchema } from '../schemas';
import { activityList, listQuery } from '../list-params';
import { dashboardSchema } from '../dashboard';
import { bearer, open, ok, list, type Route } from './route';

/** GET /healthz: `ok`, or `unavailable` (503) when the database does not answer. */
const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
/** GET /readyz: `ready`, or (503) `unready` naming each check's state, or `stopping`. */
const readinessSchema = z.object({
  status: z.enum(['ready', 'unready', 'stopping']),
  checks: z.optional(
    z.object({ database: z.string(), fileStore: z.string(), migrations: z.string() }),
  ),
});

/** Health, readiness and the API documents. */
export const probeRoutes: Route[] = [
  open('get', '/healthz', 'Operations', 'Health check', {
    answer: healthSchema,
    answers: { 503: healthSchema },
  }),
  open('get', '/readyz', 'Operations', 'Readiness: database, file store and migrations', {
    answer: readinessSchema,
    answers: { 503: readinessSchema },
  }),
  // 404 where the server serves no API documents (API_DOCS=off, production's default).
  open('get', '/v1/openapi.json', 'Documentation', 'This document (OpenAPI 3.1)', {
    answerType: 'application/json',
    errors: [404],
  }),
  open('get', '/v1/docs', 'Documentation', 'This document rendered (Swagger UI)', {
    answerType: 'text/html',
    errors: [404],
  }),
  open('get', '/v1/docs/{file}', 'Documentation', 'A file of the rendered page', {
    answerType: 'text/javascript',
  }),
];

/** Optional services, the live stream, the activity log and the dashboard. */
export const liveRoutes: Route[] = [
  bearer('get', '/v1/services', 'Operations', 'Optional model services', [], {
    answer: ok(servicesSchema),
  }),
  // Every role but a guest's reads tags: a guest (or an account with a guest's rules, its
  // address unproven) would get bare notices of catalogue changes that its read-only screens
  // show at their next read, not worth a held connection and replays to accounts anyone can
  // make by the dozen.
  bearer('get', '/v1/events', 'Events', 'Live events (Server-Sent Events)', [['read', 'Tag']], {
    answerType: 'text/event-stream',
    errors: [429],
  }),
  bearer('get', '/v1/activity', 'Events', 'The activity log', [['update', 'Asset']], {
    query: listQuery(activityList),
    answer: list(activityRowSchema),
  }),
  // Each part of the answer needs the ability that reads what it counts (contract/dashboard.ts).
  bearer(
    'get',
    '/v1/dashboard',
    'Dashboard',
    'Series and what needs attention',
    [['read', 'Asset']],
    { answer: ok(dashboardSchema) },
  ),
];

/** GET /metrics: Prometheus text for the operator (not in the document: contract/routes.ts). */
export const metricsRoute: Route = open('get', '/metrics', 'Operations', 'Metrics (Prometheus)', {
  answerType: 'text/plain',
  // 401 without the operator's token; 404 where METRICS_TOKEN is unset (no route).
  errors: [401, 404],
});

/** Development only. */
export const devRoutes: Route[] = [
  open('get', '/dev/mailbox', 'Development', 'The development mailbox (absent in production)', {
    // Without `to`, every address's mail; a `to` that is not an address is a 400.
    query: z.object({ to: z.optional(emailSchema) }),
    // Production mounts no dev route.
    errors: [400, 404],
    answer: ok(z.array(devMailSchema)),
  }),
];
