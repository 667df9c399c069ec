/**
 * The cage mesh feature's public surface: what routes and other features import (ESLint keeps
 * everything else of src/features/cage-meshes inside it). Its layout: api/ (requests, the cached
 * cage mesh, changes with their cache updates), page/ (the cage mesh page, the new cage mesh
 * page, their form), list/ (the cage meshes list).
 */
export { cageMeshQuery } from './api/requests';
export { CageMeshesList } from './list/cage-meshes-list';
export { CageMeshPage } from './page/cage-mesh-page';
export { NewCageMeshPage } from './page/new-cage-mesh-page';
