// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';

/**
 * Import direction (ARCHITECTURE.md): api <- machines <- routes; ui imports neither. Across the
 * app: src/ and server/ each import contract/ and core/, never each other.
 */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message }] }],
  },
});

/** `v1/` in a string: an endpoint named by hand instead of by the contract. */
const endpointLiterals = ['Literal[value=', 'TemplateElement[value.raw='].map((node) => ({
  selector: `${node}/(^|\\/)v1\\//]`,
  message: 'Name the endpoint by the contract: endpoint(ENDPOINTS.x) (contract/paths.ts).',
}));

/** The feature folders (src/features/<name>, each with its public surface index.ts). */
const FEATURES = readdirSync(`${import.meta.dirname}/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The boundaries of the feature folders (import-x/no-restricted-paths resolves every import, so
 * a relative path cannot slip by): routes import a feature only through its index.ts; a feature
 * imports another only through its index.ts, and no routes; a feature's api/ (its requests and
 * cache updates) imports nothing else of any feature; the shared layers import no feature.
 */
const featureZones = [
  {
    target: './src/routes',
    from: './src/features',
    except: FEATURES.map((name) => `./${name}/index.ts`),
    message: 'A route imports a feature through its index.ts (src/features/<name>/index.ts) only.',
  },
  ...FEATURES.flatMap((name) => [
    {
      target: `./src/features/${name}`,
      from: './src/features',
      except: [
        `./${name}`,
        ...FEATURES.filter((other) => other !== name).map((other) => `./${other}/index.ts`),
      ],
      message: `src/features/${name} imports another feature through its index.ts only.`,
    },
    {
      target: `./src/features/${name}/api`,
      from: './src/features',
      except: [`./${name}/api`],
      message: `src/features/${name}/api is the feature's bottom layer: it imports src/api, contract/ and core/, not the feature's screens or other features.`,
    },
  ]),
  {
    target: './src/features',
    from: './src/routes',
    message: 'Routes import features, never the other way round.',
  },
  {
    target: [
      './src/api',
      './src/machines',
      './src/ui',
      './src/domain',
      './src/devtools',
      './src/locales',
    ],
    from: './src/features',
    message:
      'The shared layers (src/api, machines, ui, domain) serve every feature: they import none.',
  },
];

/** The query cache's writes (TanStack Query). */
const CACHE_WRITES =
  'invalidateQueries|setQueryData|setQueriesData|removeQueries|refetchQueries|resetQueries';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-dev',
      'dist-viewer',
      'dist-server',
      'node_modules',
      '.data',
      '.tmp',
      'src/routeTree.gen.ts',
      'bench/.out',
      'bench/peers',
      'bench/viewer/node_modules',
      'coverage',
      'public',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One program for every file (tsconfig.eslint.json says why), not one per tsconfig.
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  layer(
    // A feature's requests and cache updates (src/features/<name>/api) keep the same rule.
    ['src/api/**', 'src/features/*/api/**'],
    ['**/machines/**', '**/routes/**', '**/ui/**', 'react', 'react-dom', '**/server/**'],
    'src/api is the bottom layer: it imports no machines, routes, ui or React.',
  ),
  layer(
    ['src/machines/**'],
    ['**/routes/**', '**/ui/**', 'react', 'react-dom', '@xstate/react', '**/server/**'],
    'Machines never import React, ui or routes (X.view.tsx beside X.machine.ts binds it to ui).',
  ),
  {
    // A machine's view binding: React, the machine and ui components, never routes.
    files: [
      'src/machines/**/*.view.{ts,tsx}',
      'src/machines/**/*.view.test.tsx',
      'src/machines/**/*.view.mocked.test.tsx',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/routes/**', '**/server/**'],
              message: 'A view binding serves every route: it imports no routes.',
            },
          ],
        },
      ],
    },
  },
  layer(
    ['src/domain/**'],
    [
      '**/api/**',
      '**/machines/**',
      '**/routes/**',
      '**/ui/**',
      'react',
      'ky',
      'zod',
      'zod/*',
      '**/server/**',
    ],
    'src/domain holds pure types and constants every layer may import: it imports nothing.',
  ),
  layer(
    ['src/ui/**'],
    ['**/machines/**', '**/routes/**', 'ky', '**/server/**'],
    'ui gets values and callbacks as props: it imports no machines, routes or ky.',
  ),
  layer(
    ['src/routes/**', 'src/devtools/**', 'src/*.{ts,tsx}'],
    ['ky', '**/server/**'],
    'ky stays inside src/api.',
  ),
  {
    // The client names endpoints by the contract's paths (contract/paths.ts), never by a string
    // (tests may: they check what goes over the wire).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...endpointLiterals] },
  },
  {
    // A change and its cache update go together in src/api (mutations.ts) or a feature's api/
    // (features/<name>/api/mutations.ts): a screen calls the mutation, never writes the cache.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/**', 'src/features/*/api/**', 'src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...endpointLiterals,
        {
          selector: `CallExpression[callee.property.name=/^(${CACHE_WRITES})$/]`,
          message:
            "Change data through a mutation (src/api/mutations.ts, or the feature's api/mutations.ts), which updates the cache.",
        },
      ],
    },
  },
  {
    // Unit and component files share their worker's modules (vitest.config.ts): one that
    // replaces a module is named *.mocked.test.* and gets modules of its own.
    files: ['src/**/*.test.{ts,tsx}'],
    ignores: ['src/**/*.mocked.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock)$/]",
          message:
            'A file that replaces modules is named *.mocked.test.ts(x): the others share their modules with the files before them.',
        },
      ],
    },
  },
  {
    // No import cycles: a piece two modules share moves down into a module both import.
    files: ['{src,core,contract,server}/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: featureZones },
      ],
    },
  },
  // The two sides meet only in contract/ (the wire contract) and core/ (shared rules):
  // server/ never imports src/, src/ never server/, and the contract neither nor core/.
  layer(
    ['server/**'],
    ['**/src/**', 'react', 'react-dom'],
    'server/ imports no client code: what both sides need lives in contract/ or core/.',
  ),
  layer(
    ['contract/**'],
    ['**/src/**', '**/server/**', '**/core/**', 'react', 'react-dom', 'ky', 'hono', 'hono/*'],
    'contract/ is the wire contract both sides import: it imports neither side, nor core/.',
  ),
  layer(
    ['core/**'],
    ['**/src/**', '**/server/**', 'react', 'react-dom', 'ky', 'hono', 'hono/*'],
    'core/ is plain TypeScript both sides share: it imports contract/ only, no side of the app.',
  ),
);
