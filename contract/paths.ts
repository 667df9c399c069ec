/**
 * The paths the client names, as the route table (routes.ts) writes them: a screen reads its
 * list from `endpoint(ENDPOINTS.assets)`, never from a string of its own. Plain strings, so a
 * screen that imports them loads no schema; paths.test.ts checks each is in the route table.
 */
export const ENDPOINTS = {
  activity: '/v1/activity',
  applications: '/v1/applications',
  applicationAssets: '/v1/application-assets',
  applicationAssetPosition: '/v1/application-assets/{id}/position',
  assets: '/v1/assets',
  assetPosition: '/v1/assets/{id}/position',
  cageMeshes: '/v1/cage-meshes',
  morphQueue: '/v1/morphed-asset-queue',
  morphedAssets: '/private/v1/morphed-assets',
  tags: '/v1/tags',
  trash: '/v1/trash',
  userAssets: '/v1/user-assets/{userId}',
  users: '/private/v1/users',
} as const;

export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];

/**
 * `path` as the client's HTTP layer takes it (relative to the site, no leading slash), with
 * the `{param}`s `params` gives filled in (encoded); the others stay for the caller to fill
 * (a list's reorder endpoint gets each row's `{id}`).
 */
export function endpoint(path: Endpoint, params: Record<string, string> = {}): string {
  return path
    .slice(1)
    .replace(/\{([^}]+)\}/g, (whole, name: string) =>
      name in params ? encodeURIComponent(params[name]!) : whole,
    );
}
