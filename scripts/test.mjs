#!/usr/bin/env node
// Runs every test: Vitest (unit and API, against PGlite or DATABASE_URL's PostgreSQL), then the
// build and Playwright in Chromium. Ends with the line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

let passed = 0;
let failed = 0;
let broken = 0;

const unitStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/vitest.json`]);
const unit = readJson(`${reports}/vitest.json`);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
}
if (!unit || (unitStatus !== 0 && unit.numFailedTests === 0)) broken++;

const buildStatus = run('npm', ['run', 'build']);
if (buildStatus !== 0) {
  broken++;
} else {
  const e2eStatus = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], { PW_JSON: resolve(reports, 'playwright.json') });
  const e2e = readJson(`${reports}/playwright.json`);
  if (e2e) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
  }
  if (!e2e || (e2eStatus !== 0 && e2e.stats.unexpected === 0)) broken++;
}

if (broken) console.log(`\n${broken} test step(s) could not run; see above.`);
console.log(`\n${passed} passed, ${failed + broken} failed`);
process.exit(failed + broken > 0 ? 1 : 0);
