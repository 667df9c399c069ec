/**
 * The heading each screen of the signed-in area draws first, by its address, as a key of the
 * English texts. The build writes these texts into `.vite/first-paint.json` (vite.config.ts,
 * `firstPaintTexts`), and the server draws the page's frame and this heading into the page it
 * answers (server/first-paint.ts), so a phone paints the heading with the stylesheet instead of
 * after all the scripts. A screen whose heading names a record is in FIRST_PAINT_RECORDS below
 * or, not there (a user, a cage mesh), drawn without one. tests/e2e/first-paint.test.ts checks
 * each against the screen.
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

/**
 * The record screens whose heading src/boot.ts draws before the scripts run: the server puts
 * the screen's breadcrumbs and heading in a template with the record's address in the API
 * (server/first-paint.ts), and boot.ts reads the record with the session the page's storage
 * keeps and writes its name into them; the app's same read then takes that answer
 * (src/api/first-read.ts). By the screen's address under `section`, as keys of the English
 * texts: the section's title (the breadcrumb's link) and the heading, whose `{{name}}` is the
 * record's name.
 */
export const FIRST_PAINT_RECORDS = [
  {
    section: '/assets',
    sectionTitle: 'assets.title',
    heading: 'assetEditor.editTitle',
    /** The record in the API: its key in contract/paths.ts `ENDPOINTS`. */
    endpoint: 'asset',
    /** The class names of the screen's section and heading row, as the app draws them. */
    page: 'asset-page',
    header: 'asset-page-header',
  },
] as const;
