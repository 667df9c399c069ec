import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, minifySync, transformWithOxc, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import MagicString from 'magic-string';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import {
  ENVIRONMENT_PRESET_EXTENSION,
  ENVIRONMENT_PRESET_FILES,
  ENVIRONMENT_URL_DIR,
} from './core/environment-presets';
import { prefilteredEnvironment } from './scripts/prefilter-environment';
import { en } from './src/locales/en';
import { enBackOffice } from './src/locales/en-back-office';
import { FIRST_PAINT_HEADINGS, FIRST_PAINT_RECORDS } from './scripts/first-paint-headings';

/** URL folder (under the base) where the avatar viewer finds the Draco decoder. */
const DRACO_URL_DIR = 'decoders/draco';
/** Where the prefiltered presets are kept between builds (keyed by their source's hash). */
const ENVIRONMENT_CACHE_DIR = fileURLToPath(
  new URL('./node_modules/.cache/avatar-studio/environments', import.meta.url),
);

/** Files the viewer loads at run time, by URL path under the base: name -> bytes. */
function viewerFiles(): Map<string, { type: string; read: () => Buffer }> {
  const require = createRequire(import.meta.url);
  const files = new Map<string, { type: string; read: () => Buffer }>();
  const draco = dirname(require.resolve('three/examples/jsm/libs/draco/gltf/draco_decoder.js'));
  for (const name of readdirSync(draco).filter((f) => /\.(js|wasm)$/.test(f))) {
    files.set(`${DRACO_URL_DIR}/${name}`, {
      type: name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
      read: () => readFileSync(join(draco, name)),
    });
  }
  // @pmndrs/assets ships each HDRI as a module exporting a base64 data URL; the viewer gets
  // it prefiltered (.pmrem, what it loads) and, for addresses naming it, as the decoded .exr.
  for (const file of new Set(Object.values(ENVIRONMENT_PRESET_FILES))) {
    const module = require.resolve(`@pmndrs/assets/hdri/${file}.exr.js`);
    const exr = () => {
      const text = readFileSync(module, 'utf8');
      const base64 = /base64,([A-Za-z0-9+/=]+)/.exec(text)?.[1];
      if (!base64) throw new Error(`No base64 EXR in ${module}`);
      return Buffer.from(base64, 'base64');
    };
    files.set(`${ENVIRONMENT_URL_DIR}/${file}.exr`, { type: 'image/x-exr', read: exr });
    files.set(`${ENVIRONMENT_URL_DIR}/${file}${ENVIRONMENT_PRESET_EXTENSION}`, {
      type: 'application/octet-stream',
      read: () => prefilteredEnvironment(exr(), ENVIRONMENT_CACHE_DIR),
    });
  }
  return files;
}

/**
 * Serves the viewer's run-time files from the app itself — three's Draco decoder and the
 * environment presets — on the dev server and as files in the build, so the viewer never
 * needs a third-party host. See src/ui/canvas/decoders.ts and environments.ts.
 */
export function viewerAssets(): Plugin {
  const files = viewerFiles();
  return {
    name: 'viewer-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0]?.replace(/^\//, '');
        const file = path === undefined ? undefined : files.get(path);
        if (!file) return next();
        res.setHeader('Content-Type', file.type);
        res.end(file.read());
      });
    },
    generateBundle() {
      for (const [fileName, file] of files) {
        this.emitFile({ type: 'asset', fileName, source: file.read() });
      }
    },
  };
}

/**
 * Builds take three.js from its ES module sources (`three/src/Three.js`, one module per
 * class) instead of its two-file bundle. In the bundle one module holds every class, so each
 * class any chunk uses lands in the first chunk; per class, the bundler leaves unused classes
 * out and puts the rest in the chunks that use them. Each importer gets the sources of the three
 * it would have loaded. Like three's own build, the shader sources lose their comments and
 * blank lines. Builds only: tests and the dev server keep the bundle. `applies` limits it to
 * some importers (the viewer bench builds its peers as they come).
 */
export function threeFromSources(applies: (importer: string) => boolean = () => true): Plugin {
  return {
    name: 'three-from-sources',
    apply: 'build',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id !== 'three' || !importer || !applies(importer)) return null;
      return this.resolve('three/src/Three.js', importer, { skipSelf: true });
    },
    transform(code, id) {
      if (!/[\\/]three[\\/]src[\\/].*\.glsl\.js$/.test(id)) return null;
      // Each shader is replaced in place, with a source map of the edit: without one, the
      // build warned (SOURCEMAP_BROKEN) once per shader file, 127 times.
      const edited = new MagicString(code);
      for (const match of code.matchAll(/\/\* glsl \*\/`([\s\S]*?)`/g)) {
        const glsl = JSON.stringify(
          match[1]!
            .trim()
            .replace(/\r/g, '')
            .replace(/[ \t]*\/\/.*\n/g, '')
            .replace(/[ \t]*\/\*[\s\S]*?\*\//g, '')
            .replace(/\n{2,}/g, '\n'),
        );
        edited.overwrite(match.index, match.index + match[0].length, glsl);
      }
      return { code: edited.toString(), map: edited.generateMap({ hires: 'boundary' }) };
    },
  };
}

/**
 * The code-split route files get src/routes/-chunks/lazy-route-component.ts in place of the
 * router's `lazyRouteComponent`, which reloads the page when a screen's code cannot be fetched
 * (offline, that is the browser's offline page); ours lets the error component offer Retry.
 */
export function lazyRoutes(): Plugin {
  const routerImport =
    /import\s*\{\s*lazyRouteComponent\s*\}\s*from\s*["']@tanstack\/react-router["'];?/;
  const ours = fileURLToPath(
    new URL('./src/routes/-chunks/lazy-route-component.ts', import.meta.url),
  );
  return {
    name: 'lazy-routes',
    transform(code, id) {
      if (!/[\\/]src[\\/]routes[\\/]/.test(id) || !code.includes('lazyRouteComponent')) return null;
      if (!routerImport.test(code)) return null;
      return {
        code: code.replace(
          routerImport,
          `import { lazyRouteComponent } from ${JSON.stringify(ours)};`,
        ),
        map: null,
      };
    },
  };
}

/**
 * /embed is its own page (embed.html, src/embed-main.tsx): the server answers /embed with it,
 * and so does the dev server here.
 */
export function embedPage(): Plugin {
  return {
    name: 'embed-page',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/embed\/?(\?|$)/.test(req.url)) {
          req.url = req.url.replace(/^\/embed\/?/, '/embed.html');
        }
        next();
      });
    },
  };
}

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8081';

/**
 * Modules whose side effects are only declarations: a feature folder's (src/features/<name>,
 * docs/architecture.md "Feature folders"). A screen that imports one thing through the feature's index gets
 * that thing and what it uses, not the whole feature. SimpleWebAuthn's too (its package does not
 * say so): the sign-in page's support check would otherwise load the chunk of the whole library.
 */
const treeshake = {
  moduleSideEffects: [
    { test: /[\\/]src[\\/]features[\\/].*\.tsx?$/, sideEffects: false },
    { test: /[\\/]node_modules[\\/]@simplewebauthn[\\/]browser[\\/]/, sideEffects: false },
  ],
};

/** This folder with `/` separators, to name modules by their path in the project. */
const PROJECT = fileURLToPath(new URL('.', import.meta.url)).replaceAll('\\', '/');

/**
 * A group test over a module's path in the project (`src/api/http.ts`,
 * `node_modules/ky/distribution/index.js`, with `/` separators); modules outside it (Vite's and
 * rolldown's own) never match.
 */
function projectPath(pattern: RegExp): (id: string) => boolean {
  return (id) => {
    const path = id.replaceAll('\\', '/');
    return path.startsWith(PROJECT) && pattern.test(path.slice(PROJECT.length));
  };
}

/**
 * A feature's requests and cache (`api/`) and its top-level modules, not its styles, as
 * `feature-<name>`.
 */
const FEATURE_SHARED = /^src\/features\/([^/]+)\/(?:api\/)?[^/]+\.tsx?$/;

/**
 * The back office's code in a few chunks by area, so that a screen's first paint waits for
 * about a dozen requests rather than one per small shared module (over HTTP/1.1 a browser
 * fetches six at a time: docs/benchmarks.md "Lighthouse: mobile"). A screen loads every group
 * it uses any of, so a group holds what the screens that load it share.
 *
 * A group takes the modules its test matches and, unless `includeDependenciesRecursively` is
 * off, the modules they import that no group of a higher priority took, so it imports only
 * those groups. `main` is first: the modules the entry imports (tag `$initial`) stay in the
 * entry chunk (the group holding the entry module is the entry chunk), so no later group pulls
 * start-up code into a chunk of the signed-in area; `forms`, next, holds what the account
 * screens share with it. The sign-in page loads main, start, router, forms and its own chunk
 * (its budget: docs/architecture.md "Sign-in page budget"). With recursion off (lists, editor,
 * features) a group holds only its matches, and what they import goes to the groups after it
 * or is split automatically, like everything no group takes: a screen's own code, and the 3D
 * viewer and three.js, which load on demand.
 */
const screenGroups = [
  { name: 'main', priority: 7, tags: ['$initial' as const] },
  {
    // Besides their own code, every account screen (sign-in, sign-up, password reset, …) loads
    // these: one chunk instead of six. SimpleWebAuthn's support check too: the sign-in page asks
    // it whether to offer passkeys, and the rest of the library comes with the requests (data).
    name: 'forms',
    priority: 6,
    test: projectPath(
      /^src\/ui\/dom\/(action-button|spinner|schema-form|text-field)\.tsx$|^src\/features\/account\/(fields|forms|second-step)\.tsx?$|^node_modules\/@simplewebauthn\/browser\/esm\/helpers\/browserSupportsWebAuthn\.js$/,
    ),
  },
  {
    // Requests and the query cache, for every signed-in screen and the account screens that
    // call the API as they open (password reset, invitation, code sign-in, e-mail check).
    // contract/ability.ts (CASL) stays a chunk of its own that the signed-in area imports
    // when it starts.
    name: 'data',
    priority: 5,
    test: projectPath(
      /^node_modules\/(@tanstack\/(query-core|react-query)|ky|jwt-decode)\/|^src\/api\/(?!(uploads|files|analytics)\.)|^contract\/(?!ability\.)/,
    ),
  },
  {
    // The signed-in layout (its route chunk joins this group, with the React Aria code of its
    // menus and dialogs) and the little every screen under it shares, the dashboard included:
    // date cells, filter labels and icons, byte counts.
    name: 'shell',
    priority: 4,
    test: projectPath(
      /^src\/routes\/_app\.tsx\?tsr-split=component$|^src\/ui\/dom\/list\/(cells|filter-icons|asset-filters)\.tsx?$|^core\/files\/format-bytes\.ts$/,
    ),
  },
  {
    // The command palette (Ctrl+K, loaded on first use) with the React Aria search field and
    // list box that lists use too: without it they would sit in `aria` below, and the palette
    // would bring all of it to a screen without a list.
    name: 'palette',
    priority: 3,
    test: projectPath(/^src\/ui\/dom\/command-palette\.tsx$/),
  },
  {
    // The widgets record screens and lists share, with their React Aria code: notices,
    // breadcrumbs, selects and form fields, row menus and dialogs.
    name: 'widgets',
    priority: 3,
    test: projectPath(
      /^src\/ui\/dom\/(toasts|breadcrumbs|select-box|form-controls|icon-label|section-crumbs|held-while-pressed)\.tsx?$|^src\/ui\/dom\/list\/row-menu\.tsx$/,
    ),
  },
  {
    // The list screen: its machine, table, filters, pagers and autocomplete. Only these modules:
    // the React Aria code it shares with the editor is in `aria` below, so neither imports the
    // other.
    name: 'lists',
    priority: 2,
    includeDependenciesRecursively: false,
    test: projectPath(
      /^src\/ui\/dom\/list\/|^src\/machines\/(autocomplete|list|saved-views|ignored-filter|bulk-jobs|trash-actions)\./,
    ),
  },
  {
    // Editing a record: the entity editor, its file fields, uploads and file checks.
    name: 'editor',
    priority: 2,
    includeDependenciesRecursively: false,
    test: projectPath(
      /^core\/files\/|^src\/api\/(uploads|files|analytics)\.|^src\/machines\/(rename-dialog|entity-editor|entity-form|file-field|conflict-panel|shared-edit)\.|^src\/ui\/dom\/(form-status|file-drop)\./,
    ),
  },
  {
    // The rest of React Aria, what lists and editors use (tables, grids, drag and drop,
    // combo boxes).
    name: 'aria',
    priority: 1,
    test: projectPath(
      /^node_modules\/(react-aria|react-aria-components|react-stately|@react-aria|@react-stately|@internationalized|clsx)\//,
    ),
  },
  {
    // What a feature's screens share of its requests and top-level files, one chunk per
    // feature; a feature's screens themselves stay with their routes.
    name: (id: string) => {
      const path = id.replaceAll('\\', '/');
      if (!path.startsWith(PROJECT)) return null;
      const feature = FEATURE_SHARED.exec(path.slice(PROJECT.length))?.[1];
      return feature ? `feature-${feature}` : null;
    },
    priority: 0,
    minShareCount: 2,
    includeDependenciesRecursively: false,
    test: projectPath(FEATURE_SHARED),
  },
];

/**
 * The environment prefilter's worker (src/ui/canvas/prefilter.worker.ts): one file, its HDR and
 * EXR readers in it, so it can read its environment as soon as the file is in (as chunks, the
 * reader came by two more requests, one after the other, after the file). Three from its
 * sources, as on the page.
 */
export const prefilterWorker = {
  format: 'es',
  plugins: () => [threeFromSources()],
  rolldownOptions: { output: { codeSplitting: false } },
} as const;

/**
 * The built page paints before the app's scripts are fetched: Vite's entry script and its
 * module preloads move into an inert `<template class="app-modules">` (the server adds the
 * screen's own in another, server/spa-preload.ts), which the page's loader (src/boot.ts) turns
 * into live preloads and an import of the entry once the first frame is on screen. On a phone
 * the frame, and on a signed-in screen its heading (server/first-paint.ts), then paint with the
 * HTML and the stylesheet, not after the scripts have been fetched and compiled. The loader is
 * in the page itself, minified (1.5 KB): as a file of its own it cost a request on a connection
 * of its own before the scripts could be asked for. The server's Content-Security-Policy
 * allows it by its hash (server/http/security-headers.ts).
 */
const BOOT_SCRIPT = fileURLToPath(new URL('./src/boot.ts', import.meta.url));

export function paintFirst(): Plugin {
  // The API's address when it is not this origin's (src/api/http.ts), for boot.ts's first read.
  let apiBase = '';
  return {
    name: 'paint-first',
    apply: 'build',
    configResolved(config) {
      const configured: unknown = config.env.VITE_API_BASE;
      apiBase =
        typeof configured === 'string' ? configured.replace(/["&<>]/g, encodeURIComponent) : '';
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entry?.[1]) throw new Error('paint-first: index.html has no entry script');
        const preloads = [
          ...html.matchAll(/\s*(<link rel="modulepreload" crossorigin href="[^"]+">)/g),
        ];
        let page = html.replace(entry[0], '');
        for (const [tag] of preloads) page = page.replace(tag, '');
        const modules = [
          `<link rel="modulepreload" crossorigin href="${entry[1]}" data-entry>`,
          ...preloads.map((match) => match[1]),
        ].join('');
        const script = await transformWithOxc(readFileSync(BOOT_SCRIPT, 'utf8'), BOOT_SCRIPT);
        const boot = minifySync('boot.ts', script.code, { module: true });
        if (boot.errors.length > 0 || /<\/script/i.test(boot.code)) {
          throw new Error('paint-first: src/boot.ts cannot go into the page as it is');
        }
        return page.replace(
          '</head>',
          `  <script type="module"${apiBase ? ` data-api-base="${apiBase}"` : ''}>${boot.code.trim()}</script>\n    <template class="app-modules">${modules}</template>\n  </head>`,
        );
      },
    },
  };
}

/**
 * Writes `.vite/first-paint.json` into the build: the app's name and each screen's first
 * heading (scripts/first-paint-headings.ts) in the app's own English texts, from which the
 * server draws a page's frame before the scripts run (server/first-paint.ts). A key with no
 * text fails the build.
 */
export function firstPaintTexts(): Plugin {
  const text = (key: string): string => {
    // As i18next has them once the back office's texts are added (src/i18n.ts): the start-up
    // texts win.
    for (const texts of [en, enBackOffice]) {
      let value: unknown = texts;
      for (const part of key.split('.')) value = (value as Record<string, unknown>)?.[part];
      if (typeof value === 'string') return value;
    }
    throw new Error(`first-paint: no English text for ${key}`);
  };
  return {
    name: 'first-paint-texts',
    apply: 'build',
    generateBundle() {
      const headings = Object.fromEntries(
        Object.entries(FIRST_PAINT_HEADINGS).map(([path, key]) => [path, text(key)]),
      );
      const records = FIRST_PAINT_RECORDS.map((record) => ({
        ...record,
        sectionTitle: text(record.sectionTitle),
        heading: text(record.heading),
      }));
      this.emitFile({
        type: 'asset',
        fileName: '.vite/first-paint.json',
        source: JSON.stringify({
          appName: text('app.name'),
          breadcrumb: text('nav.breadcrumb'),
          headings,
          records,
        }),
      });
    },
  };
}

/**
 * The back office (index.html): `vite build`, and the dev server, which serves /embed too.
 * /embed is built on its own (vite.embed.config.ts, after this one, into the same folder).
 */
export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A screen's loader travels with its component: loaders read through the query cache,
      // which (with ky and the request code) stays out of the start-up bundle. The signed-in
      // layout's loader (its texts) stays in it, as i18next already is.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) =>
          routeId === '/_app'
            ? [['component'], ['errorComponent'], ['notFoundComponent']]
            : [['loader', 'component'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    lazyRoutes(),
    embedPage(),
    // React Aria's own texts (its controls' labels and screen reader announcements) in the
    // app's one language only: it ships them in 34, most of the `aria` chunk, and a browser in
    // another language would announce them in it beside the app's English. A language left
    // out falls back to en-US.
    optimizeLocales.vite({ locales: ['en-US'] }),
    react(),
    viewerAssets(),
    threeFromSources(),
    firstPaintTexts(),
    paintFirst(),
  ],
  worker: prefilterWorker,
  server: {
    proxy: {
      '/v1': apiTarget,
      '/private': apiTarget,
      '/dev': apiTarget,
      '/healthz': apiTarget,
      '/files': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    // One stylesheet for every screen (13 KB of gzip): a screen's own styles in files of their
    // own made its page wait for two or three stylesheets, each on a connection of its own,
    // before its first paint.
    cssCodeSplit: false,
    sourcemap: true,
    // bench/ reads the manifest to report the JS each route loads.
    manifest: true,
    rolldownOptions: {
      treeshake,
      input: { main: fileURLToPath(new URL('./index.html', import.meta.url)) },
      output: {
        codeSplitting: {
          groups: [
            {
              // Every screen starts with these libraries, and Vite's helper that preloads a lazy
              // chunk's imports: one chunk instead of the many small shared chunks automatic
              // splitting makes of them (each costs its own gzip).
              name: 'start',
              priority: 8,
              test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|xstate|@xstate[\\/]react|use-sync-external-store|zod)[\\/]|^\0vite[\\/]preload-helper/,
            },
            {
              // The router and its helpers: one chunk instead of the many small ones automatic
              // splitting makes of them.
              name: 'router',
              priority: 8,
              test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|store|react-store)[\\/]|node_modules[\\/](cookie-es|seroval|tiny-invariant|tiny-warning)[\\/]/,
            },
            ...screenGroups,
          ],
        },
      },
    },
  },
});

/**
 * /embed (embed.html, src/embed-main.tsx), built on its own into the same folder after the
 * back office (vite.embed.config.ts): sharing no chunk with the back office, the page starts
 * with two scripts (its own and three.js's classes) rather than the eleven of the back office's
 * chunks that hold the same code, and fewer bytes before its first frame (docs/benchmarks.md
 * "Viewer: first painted frame"). The viewer's files (decoders, environments) and public/ come
 * from the back office's build.
 */
export const embedConfig = defineConfig({
  plugins: [react(), threeFromSources()],
  worker: prefilterWorker,
  publicDir: false,
  build: {
    target: 'es2022',
    sourcemap: true,
    emptyOutDir: false,
    rolldownOptions: {
      treeshake,
      input: { embed: fileURLToPath(new URL('./embed.html', import.meta.url)) },
      output: {
        codeSplitting: {
          // three.js's classes, also used by the lazy chunks (loaders, effects): one chunk
          // instead of one per class group that each lazy chunk shares.
          groups: [{ name: 'three', test: /node_modules[\\/]three[\\/]src[\\/]/ }],
        },
      },
    },
  },
});
