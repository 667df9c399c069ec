/**
 * The heading each screen of the signed-in area draws first, by its address, as a key of the
 * English texts. The build writes these texts into `.vite/first-paint.json` (vite.config.ts,
 * `firstPaintTexts`), and the server draws the page's frame and this heading into the page it
 * answers (server/first-paint.ts), so a phone paints the heading with the stylesheet instead of
 * after all the scripts. A screen whose heading names a record (an asset, a user) is not here:
 * its frame is drawn without one. tests/e2e/first-paint.test.ts checks each against the screen.
 */
export const FIRST_PAINT_HEADINGS: Record<string, string> = {
  '/': 'dashboard.title',
  '/assets': 'assets.title',
  '/assets/editable': 'assets.views.editableTitle',
  '/assets/defaults': 'assets.views.defaultsTitle',
  '/applications': 'applications.title',
  '/morph-queue': 'morphs.queueTitle',
  '/morphed-assets': 'morphs.title',
  '/cage-meshes': 'cageMeshes.title',
  '/tags': 'tags.title',
  '/users': 'users.title',
  '/trash': 'trash.title',
  '/activity': 'activity.title',
};
