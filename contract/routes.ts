/**
 * The route table: every route the API mounts, with who may call it (a bearer token and the
 * CASL abilities it must allow, docs/roles.md), what it reads (body, query) and what it
 * answers. openapi.ts turns it into the OpenAPI 3.1 document the server serves at
 * GET /v1/openapi.json; server/openapi.test.ts checks it against the routes the server mounts.
 * Paths are written OpenAPI's way (`{id}`). Plain data: importing it costs no CASL.
 */
import { z } from 'zod/mini';
import type { Action, Subject } from './ability';
import {
  accountDeleteBodySchema,
  emailChangeBodySchema,
  emailChangeConfirmBodySchema,
  invitationAcceptBodySchema,
  invitationBodySchema,
  invitationLookupBodySchema,
  invitationLookupResultSchema,
  invitationSchema,
  passwordChangeBodySchema,
  recoveryCodesSchema,
  recoveryCodesRenewBodySchema,
  secondFactorBodySchema,
  secondFactorDisableBodySchema,
  secondFactorRemovedSchema,
  secondFactorStatusSchema,
  signInResultSchema,
  totpConfirmBodySchema,
  totpEnrolmentBodySchema,
  totpEnrolmentSchema,
} from './account-schemas';
import {
  activityRowSchema,
  applicationAssetSchema,
  applicationBodySchema,
  applicationMorphedAssetBodySchema,
  applicationMorphedAssetSchema,
  applicationRowSchema,
  assetApplicationAddBodySchema,
  assetApplicationMoveBodySchema,
  assetApplicationRemoveBodySchema,
  assetApplicationSchema,
  assetBulkChangeResultSchema,
  assetBulkDeleteBodySchema,
  assetBulkDeleteResultSchema,
  assetBulkLockBodySchema,
  assetBulkTagBodySchema,
  assetCreateBodySchema,
  assetEventSchema,
  assetExportSchema,
  assetFromTemplateBodySchema,
  assetLockBodySchema,
  assetPatchBodySchema,
  assetPredictTextureBodySchema,
  assetSchema,
  assetTagBodySchema,
  assetValidateBodySchema,
  authResultSchema,
  cageMeshCreateBodySchema,
  cageMeshPatchBodySchema,
  cageMeshSchema,
  countByTypeSchema,
  devMailSchema,
  emailSchema,
  emailExistsResultSchema,
  emailOnlyBodySchema,
  envelope,
  listResponseSchema,
  loginBodySchema,
  logoutBodySchema,
  logoutResultSchema,
  morphedAssetSchema,
  morphGenerateBodySchema,
  morphGenerateResultSchema,
  morphQueueEntrySchema,
  morphStatusListSchema,
  passwordByCodeBodySchema,
  passwordIdVerificationBodySchema,
  passwordIdVerificationResultSchema,
  positionBodySchema,
  refreshBodySchema,
  refreshResultSchema,
  sentResultSchema,
  servicesSchema,
  sessionInfoSchema,
  sessionsEndedSchema,
  signupBodySchema,
  signupResultSchema,
  tagBodySchema,
  tagRowSchema,
  trashItemsBodySchema,
  trashKindSchema,
  trashResultSchema,
  trashRowSchema,
  uploadKindSchema,
  uploadResultSchema,
  userAssetsBodySchema,
  userAssetsResultSchema,
  userBulkBodySchema,
  userBulkResultSchema,
  userBulkRoleBodySchema,
  userRoleBodySchema,
  userRowSchema,
  userSchema,
  validationReportSchema,
  verifyBodySchema,
  verifyRequestResultSchema,
} from './schemas';
import { bulkJobCreateBodySchema, bulkJobSchema } from './bulk-jobs';
import {
  activityList,
  applicationAssetList,
  applicationList,
  assetApplicationList,
  assetHolderList,
  assetList,
  cageMeshList,
  changelogList,
  invitationList,
  listQuery,
  morphedAssetList,
  morphQueueList,
  tagList,
  trashList,
  userAssetList,
  userList,
} from './list-params';
import { dashboardSchema } from './dashboard';
import {
  savedViewCreateBodySchema,
  savedViewListQuerySchema,
  savedViewPatchBodySchema,
  savedViewSchema,
} from './saved-views';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** One ability a route requires of the caller's token, e.g. `['update', 'Asset']`. */
export type Need = readonly [Action, Subject];
type Schema = z.core.$ZodType;

export interface Route {
  method: Method;
  /** The path with OpenAPI's `{param}`s, e.g. `/v1/assets/{id}`. */
  path: string;
  summary: string;
  /** The group the documentation shows it in. */
  tag: string;
  /** `none`: no token needed; `bearer`: a valid access token (401 without one). */
  auth: 'none' | 'bearer';
  /** Abilities the token must all allow (403 otherwise). */
  abilities?: readonly Need[];
  /** Abilities of which the token must allow at least one (403 otherwise). */
  anyOf?: readonly Need[];
  /** The JSON body. */
  body?: Schema;
  /** The query parameters, one per property. */
  query?: Schema;
  /** Schemas of path parameters narrower than any text (an enum, an e-mail address, a key). */
  params?: Readonly<Record<string, Schema>>;
  /** The success answer's body (enveloped where the API envelopes it). */
  answer?: Schema;
  /** The success answer's media type when it is not JSON. */
  answerType?: string;
  /** The request body's media type when it is not JSON (uploads send the file's bytes). */
  bodyType?: string;
  /** The success status (200 unless given). */
  status?: number;
  /** Bodies of other statuses that are not the API's error (a probe's 503 says why). */
  answers?: Readonly<Record<number, Schema>>;
  /** Statuses besides the success and those its shape implies (contract/openapi.ts `errorStatuses`). */
  errors?: readonly number[];
}

/** A stored file's key: 24 hex digits and its type's extension (server/storage.ts KEY_PATTERN). */
export const fileKeySchema = z.string().check(z.regex(/^[0-9a-f]{24}\.([a-z]{3})$/));

/** GET /healthz: `ok`, or `unavailable` (503) when the database does not answer. */
const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
/** GET /readyz: `ready`, or (503) `unready` naming each check's state, or `stopping`. */
const readinessSchema = z.object({
  status: z.enum(['ready', 'unready', 'stopping']),
  checks: z.optional(
    z.object({ database: z.string(), fileStore: z.string(), migrations: z.string() }),
  ),
});

const ok = envelope;
const list = listResponseSchema;
const PRIVATE: Need = ['access', 'PrivateApi'];

/** A route reached by a bearer token that allows `abilities`. */
const bearer = (
  method: Method,
  path: string,
  tag: string,
  summary: string,
  abilities: readonly Need[],
  rest: Partial<Route> = {},
): Route => ({ method, path, tag, summary, auth: 'bearer', abilities, ...rest });

/** A route anyone may call (its own credentials, if any, are in the body). */
const open = (
  method: Method,
  path: string,
  tag: string,
  summary: string,
  rest: Partial<Route> = {},
): Route => ({ method, path, tag, summary, auth: 'none', ...rest });

/** The routes mounted on both /v1 and /private/v1 (the latter also needs `access PrivateApi`). */
function both(make: (prefix: string, extra: readonly Need[]) => Route[]): Route[] {
  return [...make('/v1', []), ...make('/private/v1', [PRIVATE])];
}

/** `{id}/restore` and `bulk-restore` of a kind in the Trash: the kind's `delete` ability. */
const restores = (base: string, tag: string, need: Need, extra: readonly Need[]): Route[] => [
  bearer('post', `${base}/bulk-restore`, tag, 'Restore records from the Trash', [...extra, need], {
    body: assetBulkDeleteBodySchema,
    answer: ok(trashResultSchema),
  }),
  bearer('post', `${base}/{id}/restore`, tag, 'Restore a record from the Trash', [...extra, need], {
    answer: ok(trashResultSchema),
  }),
];

/** `DELETE {id}` and `bulk-delete` of a kind the Trash deletes: the kind's `delete` ability. */
const deletes = (base: string, tag: string, need: Need, extra: readonly Need[]): Route[] => [
  bearer('post', `${base}/bulk-delete`, tag, 'Move records to the Trash', [...extra, need], {
    body: assetBulkDeleteBodySchema,
    answer: ok(trashResultSchema),
  }),
  bearer('delete', `${base}/{id}`, tag, 'Move a record to the Trash', [...extra, need], {
    answer: ok(trashResultSchema),
  }),
];

/** Bulk jobs: whoever may update or delete assets; each action checks its own ability. */
const bulkJobRoutes = (): Route[] => {
  const T = 'Bulk jobs';
  const anyOf: readonly Need[] = [
    ['update', 'Asset'],
    ['delete', 'Asset'],
  ];
  return [
    bearer(
      'post',
      '/v1/bulk-jobs',
      T,
      'Change every asset a filter matches, in the background',
      [],
      {
        anyOf,
        body: bulkJobCreateBodySchema,
        answer: ok(bulkJobSchema),
        errors: [429],
      },
    ),
    bearer('get', '/v1/bulk-jobs', T, "The caller's recent bulk jobs", [], {
      anyOf,
      answer: ok(z.array(bulkJobSchema)),
    }),
    bearer('get', '/v1/bulk-jobs/{id}', T, 'A bulk job of the caller and its progress', [], {
      anyOf,
      answer: ok(bulkJobSchema),
    }),
    bearer(
      'post',
      '/v1/bulk-jobs/{id}/cancel',
      T,
      'Cancel a bulk job (after its current batch)',
      [],
      {
        anyOf,
        answer: ok(bulkJobSchema),
      },
    ),
  ];
};

/**
 * Saved views: any signed-in user, for the lists their role reads (each route checks the
 * view's list); someone else's view is a 404 to a write, and to a read without that list.
 */
const savedViewRoutes = (): Route[] => {
  const T = 'Saved views';
  const base = '/v1/saved-views';
  return [
    bearer('get', base, T, "The caller's views of a list", [], {
      query: savedViewListQuerySchema,
      answer: ok(z.array(savedViewSchema)),
      errors: [403],
    }),
    bearer('post', base, T, 'Save a view', [], {
      body: savedViewCreateBodySchema,
      answer: ok(savedViewSchema),
      errors: [403],
    }),
    bearer('get', `${base}/{id}`, T, 'Open a view (a shared link)', [], {
      answer: ok(savedViewSchema),
    }),
    bearer('patch', `${base}/{id}`, T, 'Rename or change a view of the caller', [], {
      body: savedViewPatchBodySchema,
      answer: ok(savedViewSchema),
    }),
    bearer('delete', `${base}/{id}`, T, 'Delete a view of the caller', [], {
      answer: ok(savedViewSchema),
    }),
  ];
};

const assetRoutes = (prefix: string, extra: readonly Need[]): Route[] => {
  const base = `${prefix}/assets`;
  const need = (...needs: Need[]) => [...extra, ...needs];
  const T = 'Assets';
  const bulk = (action: string, body: Schema) =>
    bearer('post', `${base}/bulk-${action}`, T, `Bulk ${action}`, need(['update', 'Asset']), {
      body,
      answer: ok(assetBulkChangeResultSchema),
    });
  return [
    bearer('get', base, T, 'List assets', need(['read', 'Asset']), {
      query: listQuery(assetList),
      answer: list(assetSchema),
    }),
    ...['authorized', 'authorize-default', 'editable'].map((kind) =>
      bearer('get', `${base}/${kind}`, T, `List ${kind} assets`, extra, {
        query: listQuery(assetList),
        answer: list(assetSchema),
      }),
    ),
    bearer('get', `${base}/countByType`, T, 'Count assets by type', need(['read', 'Asset']), {
      answer: ok(countByTypeSchema),
    }),
    bearer('post', base, T, 'Create an asset', need(['create', 'Asset']), {
      body: assetCreateBodySchema,
      answer: ok(assetSchema),
    }),
    ...(prefix === '/private/v1'
      ? [
          bearer(
            'post',
            `${base}/using-template`,
            T,
            'Copy a template',
            need(['create', 'Asset']),
            {
              body: assetFromTemplateBodySchema,
              answer: ok(assetSchema),
            },
          ),
        ]
      : []),
    bearer('post', `${base}/validate`, T, 'Validate a stored model', need(['update', 'Asset']), {
      body: assetValidateBodySchema,
      answer: ok(validationReportSchema),
    }),
    bearer('post', `${base}/predict-texture`, T, 'Predict a texture', need(['update', 'Asset']), {
      body: assetPredictTextureBodySchema,
      answer: ok(uploadResultSchema),
      errors: [501, 502],
    }),
    bearer('get', `${base}/{id}`, T, 'Read an asset', need(['read', 'Asset']), {
      answer: ok(assetSchema),
    }),
    bearer('patch', `${base}/{id}`, T, 'Change an asset', need(['update', 'Asset']), {
      body: assetPatchBodySchema,
      answer: ok(assetSchema),
      errors: [409, 412],
    }),
    bearer('post', `${base}/bulk-delete`, T, 'Delete assets', need(['delete', 'Asset']), {
      body: assetBulkDeleteBodySchema,
      answer: ok(assetBulkDeleteResultSchema),
    }),
    bearer('delete', `${base}/{id}`, T, 'Delete an asset', need(['delete', 'Asset']), {
      errors: [409],
    }),
    ...['lock', 'unlock'].map((action) =>
      bearer('put', `${base}/{id}/${action}`, T, `${action} an asset`, need(['update', 'Asset']), {
        body: assetLockBodySchema,
        answer: ok(assetSchema),
      }),
    ),
    bearer('patch', `${base}/{id}/position`, T, 'Move an asset', need(['update', 'Asset']), {
      body: positionBodySchema,
      answer: ok(assetSchema),
    }),
    bearer('get', `${base}/{id}/backoffice-changelog`, T, 'Changelog', need(['update', 'Asset']), {
      query: listQuery(changelogList),
      answer: list(assetEventSchema),
    }),
    bearer(
      'post',
      `${base}/{id}/generate-icon-from-model`,
      T,
      'Render an icon',
      need(['update', 'Asset']),
      { answer: ok(assetSchema), errors: [501, 502] },
    ),
    bearer('get', `${base}/export/{applicationId}`, T, 'Export', need(['read', 'Application']), {
      answer: assetExportSchema,
    }),
    bearer(
      'get',
      `${base}/{id}/application`,
      T,
      'Its applications',
      need(['read', 'Application']),
      {
        query: listQuery(assetApplicationList),
        answer: list(assetApplicationSchema),
      },
    ),
    bearer(
      'post',
      `${base}/{id}/application`,
      T,
      'Add to an application',
      need(['update', 'Application']),
      {
        body: assetApplicationAddBodySchema,
        answer: ok(assetApplicationSchema),
      },
    ),
    bearer(
      'patch',
      `${base}/{id}/application`,
      T,
      'Move in an application',
      need(['update', 'Application']),
      {
        body: assetApplicationMoveBodySchema,
        answer: ok(assetApplicationSchema),
        errors: [409],
      },
    ),
    bearer(
      'delete',
      `${base}/{id}/application`,
      T,
      'Remove from an application',
      need(['update', 'Application']),
      {
        body: assetApplicationRemoveBodySchema,
      },
    ),
    bulk('lock', assetBulkLockBodySchema),
    bulk('unlock', assetBulkLockBodySchema),
    bulk('set-tag', assetBulkTagBodySchema),
    bulk('remove-tag', assetBulkTagBodySchema),
    ...restores(base, T, ['delete', 'Asset'], extra),
  ];
};

const catalogueRoutes = (prefix: string, extra: readonly Need[]): Route[] => {
  const need = (...needs: Need[]) => [...extra, ...needs];
  const apps = `${prefix}/applications`;
  const A = 'Applications';
  const M = 'Morphs';
  return [
    bearer('get', apps, A, 'List applications', need(['read', 'Application']), {
      query: listQuery(applicationList),
      answer: list(applicationRowSchema),
    }),
    bearer('get', `${apps}/{id}`, A, 'Read an application', need(['read', 'Application']), {
      answer: ok(applicationRowSchema),
    }),
    bearer(
      'post',
      apps,
      A,
      'Create an application',
      need(['read', 'Application'], ['manage', 'Application']),
      {
        body: applicationBodySchema,
        answer: ok(applicationRowSchema),
        errors: [409],
      },
    ),
    bearer(
      'patch',
      `${apps}/{id}`,
      A,
      'Rename an application',
      need(['read', 'Application'], ['manage', 'Application']),
      {
        body: applicationBodySchema,
        answer: ok(applicationRowSchema),
        errors: [409],
      },
    ),
    bearer(
      'get',
      `${prefix}/application-assets`,
      A,
      'List application assets',
      need(['read', 'Application']),
      {
        query: listQuery(applicationAssetList),
        answer: list(applicationAssetSchema),
      },
    ),
    bearer(
      'patch',
      `${prefix}/application-assets/{id}/position`,
      A,
      'Move an application asset',
      need(['update', 'Application']),
      {
        body: positionBodySchema,
        answer: ok(applicationAssetSchema),
      },
    ),
    bearer(
      'post',
      `${prefix}/application-assets/{id}/sync-with-parent`,
      A,
      'Sync with its asset',
      need(['update', 'Application']),
      {
        answer: ok(applicationAssetSchema),
      },
    ),
    bearer(
      'post',
      `${prefix}/application-morphed-assets`,
      A,
      'Place morphed assets',
      need(['update', 'Application']),
      {
        body: applicationMorphedAssetBodySchema,
        answer: ok(z.array(applicationMorphedAssetSchema)),
      },
    ),
    bearer(
      'get',
      `${prefix}/morphed-asset-queue`,
      M,
      'The morph queue',
      need(['read', 'MorphedAsset']),
      {
        query: listQuery(morphQueueList),
        answer: list(morphQueueEntrySchema),
      },
    ),
    bearer(
      'get',
      `${prefix}/morphed-asset-queue/status`,
      M,
      'Queue entries by id',
      need(['read', 'MorphedAsset']),
      {
        query: z.object({ ids: z.string() }),
        answer: ok(morphStatusListSchema),
      },
    ),
    ...(
      [
        ['cage-meshes', 'Cage meshes', 'CageMesh'],
        ['applications', A, 'Application'],
        ['morphed-assets', M, 'MorphedAsset'],
      ] as const
    ).flatMap(([path, tag, subject]) => [
      ...deletes(`${prefix}/${path}`, tag, ['delete', subject], extra),
      ...restores(`${prefix}/${path}`, tag, ['delete', subject], extra),
    ]),
  ];
};

const U = 'Users';
const S = 'Sign-in';

export const ROUTES: readonly Route[] = [
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

  open('post', '/v1/auth/signup', S, 'Sign up', {
    body: signupBodySchema,
    answer: ok(signupResultSchema),
    errors: [401, 409, 429],
  }),
  open('post', '/v1/auth/signup/passwordless', S, 'Sign up by e-mail code', {
    body: emailOnlyBodySchema,
    answer: ok(sentResultSchema),
    errors: [429],
  }),
  open('post', '/v1/auth/request-login-code', S, 'Mail a sign-in code', {
    body: emailOnlyBodySchema,
    answer: ok(sentResultSchema),
    errors: [429],
  }),
  open('post', '/v1/auth/login', S, 'Sign in', {
    body: loginBodySchema,
    answer: ok(signInResultSchema),
    errors: [401, 403, 429],
  }),
  open('post', '/v1/auth/second-factor', S, 'Second step of a sign-in', {
    body: secondFactorBodySchema,
    answer: ok(authResultSchema),
    errors: [401, 403, 429],
  }),
  open('post', '/v1/auth/refresh', S, 'Refresh the token pair', {
    body: refreshBodySchema,
    answer: ok(refreshResultSchema),
    errors: [401, 403],
  }),
  open('post', '/v1/auth/logout', S, 'Sign out', {
    body: logoutBodySchema,
    answer: ok(logoutResultSchema),
    errors: [401],
  }),
  bearer('post', '/v1/auth/password-id-verification', S, 'Check the password', [], {
    body: passwordIdVerificationBodySchema,
    answer: ok(passwordIdVerificationResultSchema),
    errors: [403, 429],
  }),

  bearer('get', '/v1/users/me/sessions', 'Account', 'My sessions', [], {
    answer: ok(z.array(sessionInfoSchema)),
  }),
  bearer('delete', '/v1/users/me/sessions', 'Account', 'End my other sessions', [], {
    answer: ok(sessionsEndedSchema),
  }),
  bearer('delete', '/v1/users/me/sessions/{id}', 'Account', 'End a session', [], {
    answer: ok(sessionsEndedSchema),
  }),
  bearer('post', '/v1/users/me/email', 'Account', 'Change my e-mail address', [], {
    body: emailChangeBodySchema,
    answer: ok(verifyRequestResultSchema),
    errors: [403, 409, 429],
  }),
  bearer('post', '/v1/users/me/email/confirm', 'Account', 'Confirm the new address', [], {
    body: emailChangeConfirmBodySchema,
    answer: ok(userSchema),
  }),
  bearer('put', '/v1/users/me/password', 'Account', 'Change my password', [], {
    body: passwordChangeBodySchema,
    answer: ok(userSchema),
    errors: [403, 429],
  }),
  bearer('delete', '/v1/users/me', 'Account', 'Delete my account', [], {
    body: accountDeleteBodySchema,
    errors: [403, 429],
  }),
  bearer('get', '/v1/users/me/second-factor', 'Account', 'My two-step sign-in', [], {
    answer: ok(secondFactorStatusSchema),
  }),
  bearer('post', '/v1/users/me/second-factor/totp', 'Account', 'Set up an authenticator', [], {
    body: totpEnrolmentBodySchema,
    answer: ok(totpEnrolmentSchema),
    errors: [403, 409, 429],
  }),
  bearer(
    'post',
    '/v1/users/me/second-factor/totp/confirm',
    'Account',
    'Turn two-step sign-in on',
    [],
    { body: totpConfirmBodySchema, answer: ok(recoveryCodesSchema), errors: [403, 409, 429] },
  ),
  bearer('delete', '/v1/users/me/second-factor', 'Account', 'Turn two-step sign-in off', [], {
    body: secondFactorDisableBodySchema,
    answer: ok(secondFactorRemovedSchema),
    errors: [403, 429],
  }),
  bearer('post', '/v1/users/me/second-factor/recovery-codes', 'Account', 'New recovery codes', [], {
    body: recoveryCodesRenewBodySchema,
    answer: ok(recoveryCodesSchema),
    errors: [403, 409, 429],
  }),

  open('post', '/v1/invitations/lookup', 'Invitations', 'What an invitation offers', {
    body: invitationLookupBodySchema,
    answer: ok(invitationLookupResultSchema),
    errors: [404, 429],
  }),
  open('post', '/v1/invitations/accept', 'Invitations', 'Accept an invitation', {
    body: invitationAcceptBodySchema,
    answer: ok(signInResultSchema),
    errors: [403, 404, 409, 429],
  }),

  open('post', '/v1/users/reset-password', S, 'Mail a password reset code', {
    body: emailOnlyBodySchema,
    answer: ok(sentResultSchema),
    errors: [429],
  }),
  open('patch', '/v1/users/password-by-code', S, 'Set a password by code', {
    body: passwordByCodeBodySchema,
    answer: ok(userSchema),
    errors: [429],
  }),
  open('post', '/v1/users/verify', S, 'Verify an e-mail address', {
    body: verifyBodySchema,
    answer: ok(z.union([userSchema, verifyRequestResultSchema])),
    errors: [401, 429],
  }),
  open('get', '/v1/users/email/{email}', S, 'Whether an address has an account', {
    params: { email: emailSchema },
    answer: ok(emailExistsResultSchema),
    errors: [429],
  }),
  bearer('get', '/v1/users/me', 'Account', 'Who I am', [], { answer: ok(userSchema) }),

  bearer('get', '/v1/tags', 'Tags', 'List tags', [['read', 'Tag']], {
    query: listQuery(tagList),
    answer: list(tagRowSchema),
  }),
  bearer('post', '/v1/tags', 'Tags', 'Create a tag', [['create', 'Tag']], {
    body: tagBodySchema,
    answer: ok(tagRowSchema),
    errors: [409],
  }),
  bearer('post', '/v1/tags/set-tag', 'Tags', 'Tag an asset', [['update', 'Asset']], {
    body: assetTagBodySchema,
    answer: ok(assetSchema),
    errors: [409],
  }),
  bearer('post', '/v1/tags/remove-tag', 'Tags', 'Untag an asset', [['update', 'Asset']], {
    body: assetTagBodySchema,
    answer: ok(assetSchema),
    errors: [409],
  }),
  bearer('get', '/v1/tags/{tagId}', 'Tags', 'Read a tag', [['read', 'Tag']], {
    answer: ok(tagRowSchema),
  }),
  bearer('put', '/v1/tags/{tagId}', 'Tags', 'Rename a tag', [['update', 'Tag']], {
    body: tagBodySchema,
    answer: ok(tagRowSchema),
    errors: [409],
  }),
  bearer('delete', '/v1/tags/{tagId}', 'Tags', 'Move a tag to the Trash', [['delete', 'Tag']]),
  ...restores('/v1/tags', 'Tags', ['delete', 'Tag'], []),

  bearer('get', '/v1/trash', 'Trash', 'List the Trash (the kinds the caller may delete)', [], {
    query: listQuery(trashList),
    answer: list(trashRowSchema),
    errors: [403],
  }),
  bearer('post', '/v1/trash/bulk-restore', 'Trash', 'Restore records', [], {
    body: trashItemsBodySchema,
    answer: ok(trashResultSchema),
    errors: [403],
  }),
  bearer('post', '/v1/trash/bulk-delete', 'Trash', 'Delete records for ever', [], {
    body: trashItemsBodySchema,
    answer: ok(trashResultSchema),
    errors: [403],
  }),
  bearer('delete', '/v1/trash/{kind}/{id}', 'Trash', 'Delete a record for ever', [], {
    params: { kind: trashKindSchema },
    answer: ok(trashResultSchema),
    errors: [403],
  }),

  ...bulkJobRoutes(),

  bearer('post', '/v1/cage-meshes', 'Cage meshes', 'Create a cage mesh', [['create', 'CageMesh']], {
    body: cageMeshCreateBodySchema,
    answer: ok(cageMeshSchema),
  }),
  bearer('get', '/v1/cage-meshes', 'Cage meshes', 'List cage meshes', [['read', 'CageMesh']], {
    query: listQuery(cageMeshList),
    answer: list(cageMeshSchema),
  }),
  bearer('get', '/v1/cage-meshes/{id}', 'Cage meshes', 'Read a cage mesh', [['read', 'CageMesh']], {
    answer: ok(cageMeshSchema),
  }),
  bearer(
    'patch',
    '/v1/cage-meshes/{id}',
    'Cage meshes',
    'Change a cage mesh',
    [['update', 'CageMesh']],
    { body: cageMeshPatchBodySchema, answer: ok(cageMeshSchema), errors: [409, 412] },
  ),
  bearer(
    'post',
    '/private/v1/cage-meshes',
    'Cage meshes',
    'Create a cage mesh',
    [PRIVATE, ['create', 'CageMesh']],
    { body: cageMeshCreateBodySchema, answer: ok(cageMeshSchema) },
  ),

  bearer(
    'get',
    '/v1/user-assets/{userId}',
    'User assets',
    "A user's assets (own, or anyone's with read UserAsset)",
    [],
    { query: listQuery(userAssetList), answer: list(assetSchema), errors: [403] },
  ),
  bearer('get', '/private/v1/user-assets/{userId}', 'User assets', "A user's assets", [PRIVATE], {
    query: listQuery(userAssetList),
    answer: list(assetSchema),
  }),
  bearer(
    'get',
    '/private/v1/asset-users/{assetId}',
    'User assets',
    "An asset's holders (newest assignment first)",
    [PRIVATE, ['read', 'UserAsset'], ['read', 'User']],
    { query: listQuery(assetHolderList), answer: list(userRowSchema) },
  ),
  bearer(
    'post',
    '/private/v1/user-assets/{userId}',
    'User assets',
    'Assign assets',
    [PRIVATE, ['update', 'UserAsset']],
    { body: userAssetsBodySchema, answer: ok(userAssetsResultSchema) },
  ),
  bearer(
    'delete',
    '/private/v1/user-assets/{userId}',
    'User assets',
    'Unassign assets',
    [PRIVATE, ['update', 'UserAsset']],
    { body: userAssetsBodySchema, answer: ok(userAssetsResultSchema) },
  ),

  bearer('post', '/v1/morphed-assets/generate', 'Morphs', 'Queue morphs', [['update', 'Asset']], {
    body: morphGenerateBodySchema,
    answer: ok(morphGenerateResultSchema),
    errors: [429],
  }),
  bearer(
    'post',
    '/private/v1/morphed-assets/generate',
    'Morphs',
    'Queue morphs',
    [PRIVATE, ['read', 'MorphedAsset'], ['update', 'Asset']],
    { body: morphGenerateBodySchema, answer: ok(morphGenerateResultSchema), errors: [429] },
  ),
  bearer(
    'get',
    '/private/v1/morphed-assets',
    'Morphs',
    'List morphed assets',
    [PRIVATE, ['read', 'MorphedAsset']],
    { query: listQuery(morphedAssetList), answer: list(morphedAssetSchema) },
  ),
  bearer(
    'get',
    '/private/v1/morphed-assets/status',
    'Morphs',
    'Queue entries by id',
    [PRIVATE, ['read', 'MorphedAsset']],
    { query: z.object({ ids: z.string() }), answer: ok(morphStatusListSchema) },
  ),

  bearer('post', '/v1/uploads/{kind}', 'Files', 'Upload a file (its bytes as the body)', [], {
    params: { kind: uploadKindSchema },
    anyOf: [
      ['create', 'Asset'],
      ['update', 'Asset'],
    ],
    bodyType: 'application/octet-stream',
    answer: ok(uploadResultSchema),
    errors: [411, 413, 415, 422],
  }),
  bearer('get', '/v1/files/{key}', 'Files', 'What a stored file is', [], {
    params: { key: fileKeySchema },
    answer: ok(uploadResultSchema),
  }),
  open('get', '/files/{key}', 'Files', 'A stored file (unguessable keys; ranges; `?delivery`)', {
    params: { key: fileKeySchema },
    answerType: 'application/octet-stream',
    errors: [206, 304, 416],
  }),
  bearer('get', '/v1/services', 'Operations', 'Optional model services', [], {
    answer: ok(servicesSchema),
  }),
  // LIVE_EVENTS_NEED (./ability.ts), written out: this table imports no CASL.
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
  ...savedViewRoutes(),

  bearer('get', '/private/v1/users', U, 'List users', [PRIVATE, ['read', 'User']], {
    query: listQuery(userList),
    answer: list(userRowSchema),
  }),
  bearer('get', '/private/v1/users/{id}', U, 'Read a user', [PRIVATE, ['read', 'User']], {
    answer: ok(userRowSchema),
  }),
  bearer('patch', '/private/v1/users/{id}', U, 'Give a role', [PRIVATE, ['manage', 'User']], {
    body: userRoleBodySchema,
    answer: ok(userRowSchema),
    errors: [409, 412],
  }),
  bearer(
    'get',
    '/private/v1/users/{id}/sessions',
    U,
    "A user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(z.array(sessionInfoSchema)) },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/sessions',
    U,
    "End a user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(sessionsEndedSchema) },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/sessions/{sid}',
    U,
    "End one of a user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(sessionsEndedSchema) },
  ),
  ...['disable', 'enable'].flatMap((kind) => [
    bearer(
      'post',
      `/private/v1/users/{id}/${kind}`,
      U,
      `${kind} a user`,
      [PRIVATE, ['manage', 'User']],
      { answer: ok(userRowSchema), errors: [409] },
    ),
    bearer(
      'post',
      `/private/v1/users/bulk-${kind}`,
      U,
      `${kind} users`,
      [PRIVATE, ['manage', 'User']],
      { body: userBulkBodySchema, answer: ok(userBulkResultSchema), errors: [409] },
    ),
  ]),
  bearer(
    'post',
    '/private/v1/users/bulk-role',
    U,
    'Give users a role',
    [PRIVATE, ['manage', 'User']],
    { body: userBulkRoleBodySchema, answer: ok(userBulkResultSchema), errors: [409] },
  ),
  bearer('post', '/private/v1/users/{id}/reset-password', U, 'Mail a reset code', [
    PRIVATE,
    ['manage', 'User'],
  ]),
  bearer(
    'post',
    '/private/v1/users/{id}/resend-verification',
    U,
    'Mail a verification code',
    [PRIVATE, ['manage', 'User']],
    { errors: [409] },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/second-factor',
    U,
    "Reset a user's two-step sign-in",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(secondFactorRemovedSchema), errors: [409] },
  ),

  bearer(
    'get',
    '/private/v1/invitations',
    'Invitations',
    'Pending invitations',
    [PRIVATE, ['manage', 'User']],
    { query: listQuery(invitationList), answer: list(invitationSchema) },
  ),
  bearer(
    'post',
    '/private/v1/invitations',
    'Invitations',
    'Invite',
    [PRIVATE, ['manage', 'User']],
    { body: invitationBodySchema, answer: ok(invitationSchema), status: 201, errors: [409] },
  ),
  bearer(
    'post',
    '/private/v1/invitations/{id}/resend',
    'Invitations',
    'Send an invitation again',
    [PRIVATE, ['manage', 'User']],
    { answer: ok(invitationSchema) },
  ),
  bearer('delete', '/private/v1/invitations/{id}', 'Invitations', 'Revoke an invitation', [
    PRIVATE,
    ['manage', 'User'],
  ]),

  ...both(assetRoutes),
  ...both(catalogueRoutes),

  open('get', '/dev/mailbox', 'Development', 'The development mailbox (absent in production)', {
    query: z.object({ to: z.string() }),
    // Production mounts no dev route.
    errors: [404],
    answer: ok(z.array(devMailSchema)),
  }),
];
