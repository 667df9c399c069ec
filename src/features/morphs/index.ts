/**
 * The morphs feature's public surface: what routes and other features import (ESLint keeps
 * everything else of src/features/morphs inside it). Its layout: list/ (the morph queue with
 * its retry, the morphed assets). Generating morphs for an asset is the asset page's panel;
 * the request that queues them is the asset feature's.
 */
export { MorphedAssetsList } from './list/morphed-assets-list';
export { MorphQueueList } from './list/morph-queue-list';
