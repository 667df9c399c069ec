/** Applications, morphed assets and the morph queue, and cage meshes. */
import { z } from 'zod/mini';
import {
  applicationAssetSchema,
  applicationBodySchema,
  applicationMorphedAssetBodySchema,
  applicationMorphedAssetSchema,
  applicationRowSchema,
  cageMeshCreateBodySchema,
  cageMeshPatchBodySchema,
  cageMeshSchema,
  morphedAssetSchema,
  morphGenerateBodySchema,
  morphGenerateResultSchema,
  morphQueueEntrySchema,
  morphStatusListSchema,
  positionBodySchema,
} from '../schemas';
import {
  applicationAssetList,
  applicationList,
  cageMeshList,
  listQuery,
  morphedAssetList,
  morphQueueList,
} from '../list-params';
import { bearer, ok, list, PRIVATE, restores, deletes, type Route, type Need } from './route';

export const catalogueRoutes = (prefix: string, extra: readonly Need[]): Route[] => {
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

/** Cage meshes. */
export const cageMeshRoutes: Route[] = [
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
];

/** Morphs: queueing them, and the private API of morphed assets. */
export const morphRoutes: Route[] = [
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
];
