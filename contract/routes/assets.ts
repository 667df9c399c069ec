/** Assets, on /v1 and /private/v1 (`both` in contract/routes.ts). */
import {
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
  assetValidateBodySchema,
  countByTypeSchema,
  positionBodySchema,
  uploadResultSchema,
  validationReportSchema,
} from '../schemas';
import { assetApplicationList, assetList, changelogList, listQuery } from '../list-params';
import { bearer, list, ok, restores, type Need, type Route, type Schema } from './route';

export const assetRoutes = (prefix: string, extra: readonly Need[]): Route[] => {
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
