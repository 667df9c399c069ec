// @ts-check
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

/** The query cache's writes (TanStack Query). */
const CACHE_WRITES =
  'invalidateQueries|setQueryData|setQueriesData|removeQueries|refetchQueries|resetQueries';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-dev',
      'dist-viewer',
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
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
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
    files: ['src/machines/**/*.view.{ts,tsx}', 'src/machines/**/*.view.test.tsx'],
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
            'Change data through a mutation of src/api/mutations.ts, which updates the cache.',
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
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
