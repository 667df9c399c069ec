/**
 * The route table: every route the API mounts, with who may call it (a bearer token and the
 * CASL abilities it must allow, docs/roles.md), what it reads (body, query) and what it
 * answers. openapi.ts turns it into the OpenAPI 3.1 document the server serves at
 * GET /v1/openapi.json; server/openapi.test.ts checks it against the routes the server mounts.
 * Paths are written OpenAPI's way (`{id}`). Plain data: importing it costs no CASL.
 * Each area declares its routes in contract/routes/<area>.ts (what a route is, and the helpers
 * to declare one, in contract/routes/route.ts); this file puts them in the table's order.
 */
import { accountRoutes } from './routes/account';
import { assetRoutes } from './routes/assets';
import { bulkJobRoutes } from './routes/bulk-jobs';
import { cageMeshRoutes, catalogueRoutes, morphRoutes } from './routes/catalogue';
import { fileRoutes } from './routes/files';
import { passkeyRoutes } from './routes/passkeys';
import { devRoutes, liveRoutes, metricsRoute, probeRoutes } from './routes/operations';
import { both, type Route } from './routes/route';
import { savedViewRoutes } from './routes/saved-views';
import { tagRoutes, trashRoutes } from './routes/tags';
import { userAssetRoutes } from './routes/user-assets';
import { userAdminRoutes } from './routes/users';

export const ROUTES: readonly Route[] = [
  ...probeRoutes,
  ...accountRoutes,
  ...passkeyRoutes,
  ...tagRoutes,
  ...trashRoutes,
  ...bulkJobRoutes(),
  ...cageMeshRoutes,
  ...userAssetRoutes,
  ...morphRoutes,
  ...fileRoutes,
  ...liveRoutes,
  ...savedViewRoutes(),
  ...userAdminRoutes,
  ...both(assetRoutes),
  ...both(catalogueRoutes),
  ...devRoutes,
];

/**
 * Routes the server mounts that the API document leaves out on purpose: the operator's metrics
 * are read by a scraper with the operator's own token (METRICS_TOKEN, not an account's), exist
 * only where it is set, and are no part of the API a client or an integrator calls.
 */
export const UNDOCUMENTED_ROUTES: readonly Route[] = [metricsRoute];
