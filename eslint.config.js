import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import floorhand from './scripts/eslint-boundaries.mjs';

/** Where the layer and file-name rules apply (docs/architecture.md). */
const SOURCE_FILES = ['apps/*/src', 'packages/*/src', 'e2e', 'bench', 'scripts'].map(
  (dir) => `${dir}/**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}`,
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'test-results/**',
      'reports/**',
      'playwright-report/**',
      'data/**',
      'apps/server/drizzle/**',
    ],
  },
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
    // No source file over 500 lines (issue 28); tests and specs may run longer.
    files: SOURCE_FILES,
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
<<<<<<< HEAD
    // Known overruns, each to be split by topic within its module (picking: confirm and short).
    // Remove a line once it holds.
    files: ['apps/server/src/modules/picking/service.ts'],
=======
    // Known overruns, each to be split by topic within its module (labels:
    // agents and jobs; timeclock: corrections). Remove a line once it holds.
    files: [
      'apps/server/src/modules/labels/service.ts',
      'apps/server/src/modules/labels/repository.ts',
      'apps/server/src/modules/timeclock/service.ts',
    ],
>>>>>>> p2-picking
    rules: { 'max-lines': 'off' },
  },
  {
    files: SOURCE_FILES,
    plugins: { floorhand },
    rules: {
      'floorhand/layer-imports': 'error',
      'floorhand/kebab-case-file-names': 'error',
      'floorhand/sql-in-repositories': 'error',
    },
  },
  {
    // Services still writing SQL (issue 28), each to move it into its module's repository or queries.
    // Remove a line once the file holds.
<<<<<<< HEAD
    files: ['apps/server/src/modules/picking/service.ts'],
=======
    files: [
      'apps/server/src/modules/csv-transfer/csv-export.ts',
      'apps/server/src/modules/housekeeping/service.ts',
      'apps/server/src/modules/items/csv-plan.ts',
      'apps/server/src/modules/items/service.ts',
      'apps/server/src/modules/labels/service.ts',
      'apps/server/src/modules/labor/csv-plan.ts',
      'apps/server/src/modules/labor/service.ts',
      'apps/server/src/modules/locations/csv-plan.ts',
      'apps/server/src/modules/locations/service.ts',
      'apps/server/src/modules/media/service.ts',
      'apps/server/src/modules/orders/csv-plan.ts',
      'apps/server/src/modules/orders/service.ts',
      'apps/server/src/modules/session/service.ts',
      'apps/server/src/modules/shipping/packing-list.ts',
      'apps/server/src/modules/shipping/service.ts',
      'apps/server/src/modules/stock/lookup.ts',
      'apps/server/src/modules/stock/service.ts',
    ],
>>>>>>> p2-picking
    rules: { 'floorhand/sql-in-repositories': 'off' },
  },
);
