/**
 * The applications feature's public surface: what routes and other features import (ESLint
 * keeps everything else of src/features/applications inside it). Its layout: list/ (the
 * applications list, its new application form, rename, export), page/ (one application's
 * assets in their order). Adding and removing an application's assets belong to the asset
 * feature (its placements); the application requests stay in src/api, which the rename shares.
 */
export { ApplicationsList } from './list/applications-list';
export { ApplicationAssetsPage } from './page/application-assets-page';
