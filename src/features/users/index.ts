/**
 * The users feature's public surface (user administration): what routes and other features
 * import (ESLint keeps everything else of src/features/users inside it). Its layout: api/ (the
 * admin requests and the role change), page/ (a user's page, a user's assets), list/ (the
 * users list and its bulk changes), invitations/ (pending invitations, resend, revoke, invite).
 * The requests shared with the asset feature (src/api/user-assets.ts) and the invitation
 * requests, which the public acceptance page uses too (src/api/invitations.ts), stay in src/api.
 */
export { InvitationsScreen } from './invitations/invitations-screen';
export { invitationsList } from './invitations/invitations-list';
export { UsersList } from './list/users-list';
export { UserAssetsPage } from './page/user-assets-page';
export { UserPage } from './page/user-page';
