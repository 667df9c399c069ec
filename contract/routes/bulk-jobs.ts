/** Bulk jobs: a change to every asset a filter matches, as a background job. */
import { z } from 'zod/mini';
import { bulkJobCreateBodySchema, bulkJobOfAnyoneSchema, bulkJobSchema } from '../bulk-jobs';
import { bearer, ok, PRIVATE, type Route, type Need } from './route';

/**
 * Bulk jobs: whoever may update or delete assets; each action checks its own ability. Admins
 * also see and cancel everyone's under /private/v1.
 */
export const bulkJobRoutes = (): Route[] => {
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
    bearer(
      'get',
      '/private/v1/bulk-jobs',
      T,
      "Every user's queued and running bulk jobs, then the newest ended ones",
      [PRIVATE, ADMIN],
      { answer: ok(z.array(bulkJobOfAnyoneSchema)) },
    ),
    bearer(
      'post',
      '/private/v1/bulk-jobs/{id}/cancel',
      T,
      "Cancel any user's bulk job (after its current batch)",
      [PRIVATE, ADMIN],
      { answer: ok(bulkJobOfAnyoneSchema) },
    ),
  ];
};

/** Admins only: every ability. */
const ADMIN: Need = ['manage', 'all'];
