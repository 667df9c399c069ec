/** Wire shapes of the Trash (docs/api.md "Trash"). */
import { z } from 'zod/mini';
import { idSchema } from './common-schemas';

// ---------------------------------------------------------------------------------------------
// The Trash. docs/api.md "Trash".

/** What can be in the Trash. */
export const TRASH_KINDS = ['asset', 'tag', 'cage-mesh', 'application', 'morphed-asset'] as const;
export const trashKindSchema = z.enum(TRASH_KINDS);
export type TrashKind = z.infer<typeof trashKindSchema>;

/** One record in the Trash; `purgeAt` is when the sweeper deletes it for ever. */
export const trashRowSchema = z.object({
  kind: trashKindSchema,
  id: z.string(),
  name: z.string(),
  deletedAt: z.string(),
  deletedBy: z.nullable(z.string()),
  deletedByEmail: z.nullable(z.string()),
  purgeAt: z.string(),
});
export type TrashRow = z.infer<typeof trashRowSchema>;

const trashRefSchema = z.object({ kind: trashKindSchema, id: idSchema });
export type TrashRef = z.infer<typeof trashRefSchema>;

/** POST /v1/trash/bulk-restore and /bulk-delete: 1-100 records, all or none. */
export const trashItemsBodySchema = z.object({
  items: z.array(trashRefSchema).check(z.minLength(1), z.maxLength(100)),
});

/** What a restore brought back, or a delete for ever removed. */
export const trashResultSchema = z.object({ items: z.array(trashRefSchema) });
export type TrashResult = z.infer<typeof trashResultSchema>;
