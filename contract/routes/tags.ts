/** Tags and the Trash. */
import {
  assetSchema,
  assetTagBodySchema,
  tagBodySchema,
  tagRowSchema,
  trashItemsBodySchema,
  trashKindSchema,
  trashResultSchema,
  trashRowSchema,
} from '../schemas';
import { listQuery, tagList, trashList } from '../list-params';
import { bearer, ok, list, restores, type Route } from './route';

/** Tags, and tagging assets. */
export const tagRoutes: Route[] = [
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
];

/** The Trash: what the caller may delete, restored or deleted for ever. */
export const trashRoutes: Route[] = [
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
];
