import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import floorhand from './scripts/eslint-boundaries.mjs';

/** Where the layer and file-name rules apply (docs/architecture.md). */
const SOURCE_FILES = ['apps/*/src', 'packages/*/src', 'e2e', 'bench', 'scripts'].map((dir) => `${dir}/**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}`);

/**
 * Layer violations that issue 11's other branches remove, listed so this branch lints green before
 * they are merged: each { file, import }. TODO(lead): empty this list after merging issue 11.
 */
const PENDING_ISSUE_11 = [
  { file: 'apps/server/src/lib/auth-context.ts', import: '../modules/auth/repository.ts' }, // H2
  { file: 'apps/server/src/lib/auth-context.ts', import: '../modules/admin/api-key.ts' }, // H2
  { file: 'apps/server/src/lib/auth-context.ts', import: '../modules/admin/repository.ts' }, // H2
  { file: 'apps/server/src/lib/calls.ts', import: '../modules/realtime/socket.ts' }, // H2 (or H3: typed emit)
  { file: 'apps/server/src/lib/calls.ts', import: '../modules/session/service.ts' }, // H2: calls → session
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'reports/**', 'playwright-report/**', 'data/**', 'apps/server/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: SOURCE_FILES,
    plugins: { floorhand },
    rules: {
      'floorhand/layer-imports': ['error', { allow: PENDING_ISSUE_11 }],
      'floorhand/kebab-case-file-names': 'error',
    },
  },
);
