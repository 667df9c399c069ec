/**
 * The tags feature's public surface: what routes and other features import (ESLint keeps
 * everything else of src/features/tags inside it). Its layout: list/ (the tags list, its new
 * tag form, rename and delete). The tag requests stay in src/api: the asset page uses them too.
 */
export { TagsList } from './list/tags-list';
