// What the viewer bench measures and where it keeps its files: the viewers, the avatars, the
// network cases, the shared camera and window, and the folders under bench/.out/viewer.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const APP_ROOT = here('../..');
export const OUT = here('../.out/viewer');
/** The one folder the server serves: app build, peer pages, fixtures. */
export const SITE = join(OUT, 'site');
export const SCREENSHOTS = join(OUT, 'screenshots');
/** With `--before <ref>`: the same site with /embed as that commit builds it, served apart. */
export const BEFORE_SITE = join(OUT, 'site-before');
/** That commit's working tree while its /embed is built (a git worktree, removed after). */
export const BEFORE_TREE = join(OUT, 'tree-before');
export const FIXTURES = here('../../../shared/fixtures');

/**
 * `ours-delivery` is ours on the delivery version of the same avatar (what the
 * studio serves for its own models, derived here as the server derives it), reported as such:
 * it breaks the same-file rule on purpose, to show what the smaller file gives.
 * `ours-before` is /embed as another commit built it (`--before <ref>`), given the same file:
 * an A/B of a change measured run by run beside the code as it is.
 */
export const VIEWERS = ['ours', 'ours-delivery', 'ours-before', 'visage', 'model-viewer'] as const;
export type Viewer = (typeof VIEWERS)[number];
export const isOurs = (viewer: Viewer) => viewer.startsWith('ours');

/** The model file a viewer is given: the fixture, or its delivery version beside it. */
export const modelPath = (viewer: Viewer, avatar: string) =>
  `/fixtures/avatars/${viewer === 'ours-delivery' ? deliveryName(avatar) : avatar}`;
export const deliveryName = (avatar: string) => avatar.replace(/\.glb$/, '.delivery.glb');

/**
 * The avatars, from ../shared/fixtures/avatars: a textured one (3.1 MiB, 19 images of at most
 * 1024 px), an untextured one (0.8 MiB), one the viewer was never tuned on before it joined
 * (`halfBodyAPIv2.glb`, 2.7 MiB: a 2048 px base colour and 9 smaller images, 18 animations),
 * and one that joined after the last change tuned on that one (`neutral-animated-mask.glb`,
 * 1.6 MiB: 23 WebP images, 10 materials, a mask). maleIdle.glb and female-idle.glb hold
 * animations only, no mesh.
 */
export const AVATARS = [
  'male-emissive.glb',
  'female-animation-catwalk.glb',
  'halfBodyAPIv2.glb',
  'neutral-animated-mask.glb',
] as const;
export type Avatar = (typeof AVATARS)[number];
/** The memory measurement switches between the first two. */
export const SWITCHED: readonly Avatar[] = AVATARS.slice(0, 2);
export const ENVIRONMENT = '/fixtures/environments/soft.hdr';
/** Our viewer's vertical field of view (src/ui/canvas/avatar-view.tsx); the peers get it too. */
export const FOV_DEG = 50;
export const VIEWPORT = { width: 1280, height: 720 };

/** Chromium's network emulation for the throttled case (CDP Network.emulateNetworkConditions). */
export const THROTTLED = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
export const CASES = ['unthrottled', 'throttled'] as const;
export type Case = (typeof CASES)[number];
