// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Import direction (ARCHITECTURE.md): api <- machines <- routes; ui imports neither. */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message }] }],
  },
});

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
    ['src/api/**'],
    ['**/machines/**', '**/routes/**', '**/ui/**', 'react', 'react-dom', '**/server/**'],
    'src/api is the bottom layer: it imports no machines, routes, ui or React.',
  ),
  layer(
    ['src/files/**'],
    ['**/machines/**', '**/routes/**', '**/ui/**', 'react', 'react-dom', 'ky', '**/server/**'],
    'src/files reads file headers: plain TypeScript, no machines, ui, routes or React.',
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
  layer(
    ['server/**'],
    ['**/src/machines/**', '**/src/routes/**', '**/src/ui/**', 'react'],
    'server/ shares only src/api/schemas.ts, src/domain and src/files with the client.',
  ),
);
