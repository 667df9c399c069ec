/**
 * What a route of the table is (contract/routes.ts) and the helpers the area files declare
 * routes with: `bearer` (a token with abilities), `open` (no token), `both` (on /v1 and
 * /private/v1), and the Trash's `restores` and `deletes` of a kind.
 */
import { z } from 'zod/mini';
import type { Action, Subject } from '../ability';
import {
  assetBulkDeleteBodySchema,
  envelope,
  listResponseSchema,
  trashResultSchema,
} from '../schemas';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** One ability a route requires of the caller's token, e.g. `['update', 'Asset']`. */
export type Need = readonly [Action, Subject];
export type Schema = z.core.$ZodType;

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
  /**
   * The answer carries a secret (an authenticator's secret, recovery codes, tokens): no
   * Idempotency-Key is honoured, so the answer is never kept to be replayed
   * (server/http/idempotency.ts).
   */
  secret?: true;
}

export const ok = envelope;
export const list = listResponseSchema;
export const PRIVATE: Need = ['access', 'PrivateApi'];

/** A route reached by a bearer token that allows `abilities`. */
export const bearer = (
  method: Method,
  path: string,
  tag: string,
  summary: string,
  abilities: readonly Need[],
  rest: Partial<Route> = {},
): Route => ({ method, path, tag, summary, auth: 'bearer', abilities, ...rest });

/** A route anyone may call (its own credentials, if any, are in the body). */
export const open = (
  method: Method,
  path: string,
  tag: string,
  summary: string,
  rest: Partial<Route> = {},
): Route => ({ method, path, tag, summary, auth: 'none', ...rest });

/** The routes mounted on both /v1 and /private/v1 (the latter also needs `access PrivateApi`). */
export function both(make: (prefix: string, extra: readonly Need[]) => Route[]): Route[] {
  return [...make('/v1', []), ...make('/private/v1', [PRIVATE])];
}

/** `{id}/restore` and `bulk-restore` of a kind in the Trash: the kind's `delete` ability. */
export const restores = (
  base: string,
  tag: string,
  need: Need,
  extra: readonly Need[],
): Route[] => [
  bearer('post', `${base}/bulk-restore`, tag, 'Restore records from the Trash', [...extra, need], {
    body: assetBulkDeleteBodySchema,
    answer: ok(trashResultSchema),
  }),
  bearer('post', `${base}/{id}/restore`, tag, 'Restore a record from the Trash', [...extra, need], {
    answer: ok(trashResultSchema),
  }),
];

/** `DELETE {id}` and `bulk-delete` of a kind the Trash deletes: the kind's `delete` ability. */
export const deletes = (base: string, tag: string, need: Need, extra: readonly Need[]): Route[] => [
  bearer('post', `${base}/bulk-delete`, tag, 'Move records to the Trash', [...extra, need], {
    body: assetBulkDeleteBodySchema,
    answer: ok(trashResultSchema),
  }),
  bearer('delete', `${base}/{id}`, tag, 'Move a record to the Trash', [...extra, need], {
    answer: ok(trashResultSchema),
  }),
];
