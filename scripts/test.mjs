#!/usr/bin/env node
// Runs every test: Vitest (unit and API, against PGlite or DATABASE_URL's PostgreSQL), then the
// build and Playwright in Chromium. Ends with the line `N passed, N failed`.
//
// CI runs parts of it per database (.ci/run; docs/decisions.md, "CI in half an hour"):
//   TEST_VITEST_PROJECTS=server        only these Vitest projects (comma-separated; `none` for none)
//   TEST_E2E_PROJECTS=mobile           only these Playwright projects (comma-separated; `none` for none)
//   TEST_BUILD=skip                    the app is already built from this tree
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

/** The names an env variable lists (comma-separated), or undefined for all; `none` for none. */
const listed = (name) => {
  const value = process.env[name]?.trim();
  if (!value) return undefined;
  return value === 'none'
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
};
const vitestProjects = listed('TEST_VITEST_PROJECTS');
const e2eProjects = listed('TEST_E2E_PROJECTS');

if (vitestProjects?.length !== 0) {
  const only = (vitestProjects ?? []).flatMap((p) => ['--project', p]);
  const unitStatus = run('npx', [
    'vitest',
    'run',
    ...only,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reports}/vitest.json`,
  ]);
  const unit = readJson(`${reports}/vitest.json`);
  if (unit) {
    passed += unit.numPassedTests;
    failed += unit.numFailedTests;
  }
  if (!unit || (unitStatus !== 0 && unit.numFailedTests === 0)) broken++;
}

const buildStatus = e2eProjects?.length === 0 || process.env.TEST_BUILD === 'skip' ? 0 : run('npm', ['run', 'build']);
if (buildStatus !== 0) {
  broken++;
} else if (e2eProjects?.length !== 0) {
  // The load tests (project `alone`) in an invocation of their own, after the others: the machine to
  // themselves, whichever viewport's project ran before them.
  const wanted = e2eProjects ?? ['desktop', 'mobile', 'alone'];
  const steps = [wanted.filter((p) => p !== 'alone'), wanted.filter((p) => p === 'alone')].filter((s) => s.length > 0);
  steps.forEach((projects, i) => {
    const json = resolve(reports, `playwright-${i + 1}.json`);
    const e2eStatus = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...projects.flatMap((p) => ['--project', p])], {
      PW_JSON: json,
      PW_ALONE_AFTER: '1',
    });
    const e2e = readJson(json);
    if (e2e) {
      passed += e2e.stats.expected + e2e.stats.flaky;
      failed += e2e.stats.unexpected;
    }
    if (!e2e || (e2eStatus !== 0 && e2e.stats.unexpected === 0)) broken++;
  });
}

if (broken) console.log(`\n${broken} test step(s) could not run; see above.`);
console.log(`\n${passed} passed, ${failed + broken} failed`);
process.exit(failed + broken > 0 ? 1 : 0);
