/**
 * The paths the client calls, as the route table (routes.ts) writes them: a request function
 * or a screen names its endpoint `endpoint(ENDPOINTS.asset, { id })`, never a string of its
 * own. Plain strings, so code that imports them loads no schema; paths.test.ts checks each is
 * in the route table. `{mount}` marks a path the API mounts on `/v1` and `/private/v1` alike
 * (routes.ts `both`): the caller's scope picks one.
 */
export const ENDPOINTS = {
  // Sign-in and the signed-in user's own account.
  signup: '/v1/auth/signup',
  signupPasswordless: '/v1/auth/signup/passwordless',
  loginCode: '/v1/auth/request-login-code',
  login: '/v1/auth/login',
  refresh: '/v1/auth/refresh',
  logout: '/v1/auth/logout',
  passwordCheck: '/v1/auth/password-id-verification',
  resetPassword: '/v1/users/reset-password',
  passwordByCode: '/v1/users/password-by-code',
  verify: '/v1/users/verify',
  emailExists: '/v1/users/email/{email}',
  me: '/v1/users/me',
  mySessions: '/v1/users/me/sessions',
  mySession: '/v1/users/me/sessions/{id}',
  myEmail: '/v1/users/me/email',
  myEmailConfirm: '/v1/users/me/email/confirm',
  myPassword: '/v1/users/me/password',
  myProof: '/v1/users/me/proof',
  myProofCode: '/v1/users/me/proof-code',
  secondFactor: '/v1/auth/second-factor',
  passkeySignInOptions: '/v1/auth/passkey/options',
  passkeySignIn: '/v1/auth/passkey',
  mySecondFactor: '/v1/users/me/second-factor',
  myTotp: '/v1/users/me/second-factor/totp',
  myTotpConfirm: '/v1/users/me/second-factor/totp/confirm',
  myRecoveryCodes: '/v1/users/me/second-factor/recovery-codes',
  myPasskeys: '/v1/users/me/passkeys',
  myPasskeyOptions: '/v1/users/me/passkeys/options',
  myPasskey: '/v1/users/me/passkeys/{id}',
  userSecondFactor: '/private/v1/users/{id}/second-factor',
  invitationLookup: '/v1/invitations/lookup',
  invitationAccept: '/v1/invitations/accept',

  // Assets.
  assets: '/{mount}/assets',
  assetCounts: '/{mount}/assets/countByType',
  // The assets the caller may change, may use, and by default gets (one per type).
  assetsEditable: '/{mount}/assets/editable',
  assetsAuthorized: '/{mount}/assets/authorized',
  assetsByDefault: '/{mount}/assets/authorize-default',
  asset: '/{mount}/assets/{id}',
  assetFromTemplate: '/private/v1/assets/using-template',
  assetValidate: '/{mount}/assets/validate',
  assetTexture: '/{mount}/assets/predict-texture',
  assetLock: '/{mount}/assets/{id}/lock',
  assetUnlock: '/{mount}/assets/{id}/unlock',
  assetIcon: '/{mount}/assets/{id}/generate-icon-from-model',
  assetChangelog: '/{mount}/assets/{id}/backoffice-changelog',
  assetApplications: '/{mount}/assets/{id}/application',
  assetPosition: '/v1/assets/{id}/position',
  assetExport: '/{mount}/assets/export/{applicationId}',
  assetsBulkDelete: '/v1/assets/bulk-delete',
  assetsBulk: {
    lock: '/v1/assets/bulk-lock',
    unlock: '/v1/assets/bulk-unlock',
    setTag: '/v1/assets/bulk-set-tag',
    removeTag: '/v1/assets/bulk-remove-tag',
  },

  // Applications, cage meshes, morphs, tags.
  applications: '/{mount}/applications',
  application: '/{mount}/applications/{id}',
  applicationsBulkDelete: '/v1/applications/bulk-delete',
  applicationAssets: '/v1/application-assets',
  applicationAssetPosition: '/v1/application-assets/{id}/position',
  applicationAssetSync: '/{mount}/application-assets/{id}/sync-with-parent',
  applicationMorphedAssets: '/{mount}/application-morphed-assets',
  cageMeshes: '/{mount}/cage-meshes',
  cageMesh: '/v1/cage-meshes/{id}',
  cageMeshesBulkDelete: '/v1/cage-meshes/bulk-delete',
  morphGenerate: '/{mount}/morphed-assets/generate',
  morphQueue: '/{mount}/morphed-asset-queue',
  morphQueueStatus: '/{mount}/morphed-asset-queue/status',
  morphedAssets: '/private/v1/morphed-assets',
  morphedAssetsStatus: '/private/v1/morphed-assets/status',
  morphedAssetsBulkDelete: '/v1/morphed-assets/bulk-delete',
  tags: '/v1/tags',
  tag: '/v1/tags/{tagId}',
  tagSet: '/v1/tags/set-tag',
  tagRemove: '/v1/tags/remove-tag',
  trash: '/v1/trash',
  trashRestore: '/v1/trash/bulk-restore',
  trashDelete: '/v1/trash/bulk-delete',
  bulkJobs: '/v1/bulk-jobs',
  bulkJob: '/v1/bulk-jobs/{id}',
  bulkJobCancel: '/v1/bulk-jobs/{id}/cancel',
  // Everyone's jobs, for admins.
  bulkJobsOfAnyone: '/private/v1/bulk-jobs',
  bulkJobOfAnyoneCancel: '/private/v1/bulk-jobs/{id}/cancel',

  // Users and invitations (administration).
  users: '/private/v1/users',
  user: '/private/v1/users/{id}',
  userSessions: '/private/v1/users/{id}/sessions',
  userSession: '/private/v1/users/{id}/sessions/{sid}',
  userAction: {
    disable: '/private/v1/users/{id}/disable',
    enable: '/private/v1/users/{id}/enable',
    'reset-password': '/private/v1/users/{id}/reset-password',
    'resend-verification': '/private/v1/users/{id}/resend-verification',
  },
  usersBulk: {
    disable: '/private/v1/users/bulk-disable',
    enable: '/private/v1/users/bulk-enable',
    role: '/private/v1/users/bulk-role',
  },
  userAssets: '/{mount}/user-assets/{userId}',
  assetUsers: '/private/v1/asset-users/{assetId}',
  invitations: '/private/v1/invitations',
  invitation: '/private/v1/invitations/{id}',
  invitationResend: '/private/v1/invitations/{id}/resend',

  // Files, services, events.
  file: '/v1/files/{key}',
  upload: '/v1/uploads/{kind}',
  services: '/v1/services',
  events: '/v1/events',
  activity: '/v1/activity',
  dashboard: '/v1/dashboard',
  savedViews: '/v1/saved-views',
  savedView: '/v1/saved-views/{id}',
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type Endpoint = Leaves<typeof ENDPOINTS>;

/** Which mount a `{mount}` path goes to: `/v1` (public) or `/private/v1` (admins, developers). */
export type ApiScope = 'public' | 'private';

/** The `{param}` names of a path, `{mount}` aside. */
type Param<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Exclude<Name, 'mount'> | Param<Rest>
  : never;

/**
 * `path` as the client's HTTP layer takes it (relative to the site, no leading slash), with
 * the `{param}`s `params` gives filled in (encoded); the others stay for the caller to fill
 * (a list's reorder endpoint gets each row's `{id}`). A `{mount}` path goes to the public
 * mount unless `scope` is private.
 */
export function endpoint<P extends Endpoint>(
  path: P,
  params: Partial<Record<Param<P>, string>> = {},
  ...[scope = 'public']: P extends `/{mount}/${string}` ? [scope?: ApiScope] : []
): string {
  const values: Partial<Record<string, string>> = params;
  return path
    .replace('/{mount}', scope === 'private' ? '/private/v1' : '/v1')
    .slice(1)
    .replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const value = values[name];
      return value === undefined ? whole : encodeURIComponent(value);
    });
}

/**
 * The answer header of an authenticated read naming the live event stream's position it was
 * taken at (server/http/event-position.ts, src/api/read-positions.ts).
 */
export const EVENT_POSITION_HEADER = 'event-position';
