/**
 * The Trash feature's public surface: what routes and other features import (ESLint keeps
 * everything else of src/features/trash inside it). Its layout: list/ (the Trash list, its
 * restore and delete-for-ever actions, one by one or together). Moving a record to the Trash
 * and its Undo belong to each list (src/machines/trash-actions.view.tsx); the requests stay in
 * src/api/trash.ts, which those share.
 */
export { TrashList } from './list/trash-list';
