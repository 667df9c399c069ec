/**
 * The asset feature's public surface: what routes and other features import (ESLint keeps
 * everything else of src/features/assets inside it). Its layout: api/ (requests, cached reads,
 * changes with their cache updates; the api layer's rules), page/ (the asset page and its
 * panels, the new asset page), list/ (the assets list, its bulk and row changes).
 */
export {
  assetApplicationsQuery,
  assetChangelogQuery,
  assetCountsQuery,
  assetQuery,
  assetTemplateQuery,
} from './api/cache';
export { assignAssets, queueMorphs, unassignAssets } from './api/mutations';
export { exportApplicationAssets } from './api/placements';
export {
  AddToApplication,
  ApplicationAssetsBulkActions,
  removeFromApplicationAction,
} from './list/application-asset-actions';
export { AssetLink } from './asset-link';
export { AssetsList } from './list/assets-list';
export { assetsListDefinition } from './list/list-definition';
export { eventTitle } from './page/asset-changelog';
export { AssetPage } from './page/asset-page';
export { NewAssetPage } from './page/new-asset-page';
export { Panel } from './page/panel';
