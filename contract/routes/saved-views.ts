/** Saved views of the lists. */
import { z } from 'zod/mini';
import {
  savedViewCreateBodySchema,
  savedViewListQuerySchema,
  savedViewPatchBodySchema,
  savedViewSchema,
} from '../saved-views';
import { bearer, ok, type Route } from './route';

/**
 * Saved views: any signed-in user, for the lists their role reads (each route checks the
 * view's list); someone else's view is a 404 to a write, and to a read without that list.
 */
export const savedViewRoutes = (): Route[] => {
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
