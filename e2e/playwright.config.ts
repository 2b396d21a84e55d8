import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// The built app on its own port (outside 8001-8999, which the client maps to a dev server) with a
// fresh embedded database, or DATABASE_URL's PostgreSQL when set.
const port = Number(process.env.E2E_PORT ?? 4180);
const dataDir = mkdtempSync(join(tmpdir(), 'floorhand-e2e-'));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // One retry: these machines are shared and noisy; a test that passes only on retry is reported as flaky in the list.
  retries: 1,
  outputDir: '../test-results/e2e',
  reporter: [['list'], ['json', { outputFile: process.env.PW_JSON ?? '../reports/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app's service worker would answer requests before page.route mocks see them; only the
    // offline spec (offline-app.spec.ts) lets it run.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // Each test runs at the size it is about (docs/decisions.md, "CI in half an hour"): a floor test
    // (`@mobile`) on a handheld, a desk test (untagged) at a desk; `@both` (axe on every page, the scan
    // matrix's tables and cards) at both sizes.
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } }, grepInvert: /@mobile|@alone/ },
    {
      name: 'mobile',
      use: { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true },
      grep: /@mobile|@both/,
      grepInvert: /@alone/,
    },
    // Load tests (a 1,000-scan wedge burst) run once the others are done, with the machine to
    // themselves: beside the other worker's screens they made the shared two cores so busy that
    // unrelated tests timed out, and their own figures measured the neighbours.
    // scripts/test.mjs runs them in a second invocation of their own (PW_ALONE_AFTER=1), so that CI
    // can run them with one viewport's project only.
    {
      name: 'alone',
      use: { viewport: { width: 1440, height: 900 } },
      grep: /@alone/,
      dependencies: process.env.PW_ALONE_AFTER ? [] : ['desktop', 'mobile'],
    },
  ],
  webServer: {
    command: 'node apps/server/dist/server.js',
    cwd: '..',
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_SEED: 'on',
      LOG_LEVEL: 'warn',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
