/**
 * The users feature's public surface (user administration): what routes and other features
 * import (ESLint keeps everything else of src/features/users inside it). Its layout: api/ (the
 * admin requests and the role change), page/ (a user's page, a user's assets), list/ (the
 * users list and its bulk changes). The invitations screen and the requests shared with the
 * asset feature (src/api/user-assets.ts) are not in it yet.
 */
export { UsersList } from './list/users-list';
export { UserAssetsPage } from './page/user-assets-page';
export { UserPage } from './page/user-page';
