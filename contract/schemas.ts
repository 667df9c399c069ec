/**
 * The one module of zod schemas shared by the client (src/) and the reference API (server/).
 * It holds wire shapes only: no runtime state, no I/O. It uses zod/mini, whose functions
 * tree-shake, so the sign-in page ships a few KB of validation instead of all of zod. Each
 * area's shapes live in their own file; this module gathers them for importers.
 */
export * from './user-schemas';
export * from './common-schemas';
export * from './asset-schemas';
export * from './catalogue-schemas';
export * from './trash-schemas';
