/**
 * The Trash (server/trash.ts, trash-list.ts, trash-restore.ts, trash-purge.ts): GET /v1/trash lists it, POST /v1/trash/bulk-restore and
 * /bulk-delete restore or delete for ever several records of any kinds, DELETE
 * /v1/trash/{kind}/{id} deletes one for ever; each kind's own mount restores its records
 * (POST /{id}/restore, /bulk-restore { ids }) and, where deleting changes nothing else, moves
 * them to the Trash (DELETE /{id}, POST /bulk-delete { ids }). Whoever may `delete` a kind may list, restore
 * and purge it; every change is one transaction, all or none.
 */
import { Hono, type Context } from 'hono';
import {
  assetBulkDeleteBodySchema,
  trashItemsBodySchema,
  trashKindSchema,
  type TrashKind,
  type TrashRef,
  type TrashResult,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { parseListQuery } from '../list';
import { readIfMatch, refuseIfMatch } from '../versions';
import { checkTrashedVersion, trashRecords, trashSubject, uniqueRefs } from '../trash';
import { listTrash, trashListSpec } from '../trash-list';
import { purgeFromTrash } from '../trash-purge';
import { restoreFromTrash, restoring } from '../trash-restore';

type Change = typeof restoreFromTrash;

/**
 * `change` of one record of `kind` under the request's If-Match: the version the record was
 * trashed at (checked under the trash row's lock); a kind without versions refuses one (412).
 * Read when the change runs, after the caller's abilities are checked.
 */
const basedOn =
  (c: Context<AuthEnv>, kind: TrashKind, change: Change): Change =>
  async (tx, refs, actorId, at, mark) => {
    if (kind === 'morphed-asset') refuseIfMatch(c);
    const base = kind === 'morphed-asset' ? undefined : readIfMatch(c);
    if (base !== undefined) for (const ref of refs) await checkTrashedVersion(tx, ref, base);
    await change(tx, refs, actorId, at, mark);
  };

/** Runs `change` on `refs` after checking the caller may delete each of their kinds. */
async function changeTrash(deps: Deps, c: Context<AuthEnv>, refs: TrashRef[], change: Change) {
  const { ability, userId } = c.get('auth');
  for (const kind of new Set(refs.map((ref) => ref.kind))) {
    if (!ability.can('delete', trashSubject(kind))) {
      fail(403, 'FORBIDDEN', `Your role may not delete ${trashSubject(kind)}`);
    }
  }
  const items = uniqueRefs(refs);
  await restoring(() => deps.db.transaction((tx) => change(tx, items, userId, deps.now())));
  return c.json({ data: { items } satisfies TrashResult });
}

/** Routes mounted at /v1/trash, each from its declaration (contract/routes.ts). */
export function trashRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/trash');
  const spec = trashListSpec(deps.config.trashRetentionDays);

  // Only the kinds the caller may delete; a caller who may delete none is refused.
  on('get', '/v1/trash', undefined, async (c) => {
    const { ability } = c.get('auth');
    const kinds = trashKindSchema.options.filter((kind) =>
      ability.can('delete', trashSubject(kind)),
    );
    if (kinds.length === 0) fail(403, 'FORBIDDEN', 'Your role may not delete anything');
    const query = parseListQuery(spec, c.req.queries());
    return c.json(await listTrash(deps.db, spec, query, kinds));
  });

  on('post', '/v1/trash/bulk-restore', trashItemsBodySchema, async (c, { items }) => {
    refuseIfMatch(c);
    return changeTrash(deps, c, items, restoreFromTrash);
  });

  on('post', '/v1/trash/bulk-delete', trashItemsBodySchema, async (c, { items }) => {
    refuseIfMatch(c);
    return changeTrash(deps, c, items, purgeFromTrash);
  });

  on('delete', '/v1/trash/{kind}/{id}', undefined, async (c) => {
    const kind = trashKindSchema.safeParse(c.req.param('kind'));
    if (!kind.success) {
      fail(404, 'NOT_FOUND', `The Trash holds no ${c.req.param('kind')} records`);
    }
    const ref = { kind: kind.data, id: c.req.param('id')! };
    return changeTrash(deps, c, [ref], basedOn(c, kind.data, purgeFromTrash));
  });

  return app;
}

/**
 * POST /{id}/restore and /bulk-restore { ids } of one kind, mounted at `mount` next to its
 * routes (e.g. /v1/tags), from their declarations.
 */
export function restoreRoutes(deps: Deps, kind: TrashKind, mount: string) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);
  on('post', `${mount}/bulk-restore`, assetBulkDeleteBodySchema, async (c, { ids }) => {
    refuseIfMatch(c);
    const refs = ids.map((id) => ({ kind, id }));
    return changeTrash(deps, c, refs, restoreFromTrash);
  });
  on('post', `${mount}/{id}/restore`, undefined, (c) =>
    changeTrash(deps, c, [{ kind, id: c.req.param('id')! }], basedOn(c, kind, restoreFromTrash)),
  );
  return app;
}

/**
 * DELETE /{id} and POST /bulk-delete { ids } of a kind whose delete changes nothing else (cage
 * meshes, applications, morphed assets), mounted at `mount` from their declarations: the
 * records move to the Trash, all or none.
 */
export function deleteRoutes(deps: Deps, kind: TrashKind, mount: string) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);
  const trash = async (c: Context<AuthEnv>, ids: string[], base?: number) => {
    const { userId } = c.get('auth');
    const items = await deps.db.transaction((tx) =>
      trashRecords(tx, kind, ids, userId, deps.now(), base),
    );
    return c.json({ data: { items } satisfies TrashResult });
  };
  on('post', `${mount}/bulk-delete`, assetBulkDeleteBodySchema, async (c, { ids }) => {
    refuseIfMatch(c);
    return trash(c, ids);
  });
  // With If-Match (a versioned kind), a record changed since that version is not deleted.
  on('delete', `${mount}/{id}`, undefined, (c) => {
    if (kind === 'morphed-asset') refuseIfMatch(c);
    return trash(c, [c.req.param('id')!], readIfMatch(c));
  });
  return app;
}
