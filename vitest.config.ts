import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace: pure packages and the server in Node, the web app in jsdom.
export default defineConfig({
  test: {
    // Two cores here: more workers only add PGlite instances (each up to ~0.9 GB) competing for them.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          root: 'scripts',
          include: ['**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          // One migrated, seeded database per run, copied by each test app (src/test/global-setup.ts).
          globalSetup: ['./src/test/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Like Playwright's retries: one retry for a test run out of time on a loaded machine (docs/decisions.md).
          retry: 1,
        },
      },
      {
        test: {
          name: 'print-agent',
          root: 'apps/print-agent',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // Mantine under jsdom on a shared two-core machine: 5 s was seen running out under load.
          testTimeout: 20_000,
          retry: 1,
        },
      },
    ],
  },
});
