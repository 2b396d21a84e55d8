#!/usr/bin/env node
// Bundle benchmark in Chromium on the production build (npm run build first): the JavaScript and CSS
// the login page downloads, and what each work area and page downloads beyond the logged-in app,
// raw and gzip, against the targets of issue 11. Starts its own server on a free port with a
// temporary data folder (demo data, PGlite) and stops it at the end. See README.md.
import { startBuiltServer } from '../server.mjs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Targets in gzip bytes of JavaScript (kB = 1,000 bytes, as the issue counts). */
const TARGET = { loginJs: 140_000, areaJs: 150_000 };
/** Pages that are not in the work-area navigation, and the account that opens them. */
const OTHER_PAGES = [
  { path: '/tasks', user: 'admin' },
  { path: '/userAcct', user: 'admin' },
  { path: '/userRoles', user: 'admin' },
  { path: '/featureAccess', user: 'admin' },
  { path: '/appSettings', user: 'admin' },
  { path: '/kiosk', user: 'kiosk' },
  { path: '/timeclock', user: 'clock' },
];
/** How long the downloads must stay quiet before a page counts as loaded. */
const QUIET_MS = 1500;

if (!existsSync(join(root, 'apps/web/dist/index.html')) || !existsSync(join(root, 'apps/server/dist/server.js'))) {
  console.error('No production build found: run `npm run build` first.');
  process.exit(1);
}

const kindOf = (url) => {
  const path = new URL(url).pathname;
  return /\.m?js$/.test(path) ? 'js' : path.endsWith('.css') ? 'css' : null;
};

/**
 * Records every JavaScript and CSS response of a browser context by URL: its decoded size and the
 * size of the same bytes at gzip level 9 (what the server's precompressed `.gz` holds).
 */
function recorder(context) {
  const seen = new Map();
  const pending = new Set();
  let last = Date.now();
  context.on('response', (response) => {
    const kind = kindOf(response.url());
    if (!kind || seen.has(response.url())) return;
    last = Date.now();
    const body = response.body().then(
      (buf) => seen.set(response.url(), { kind, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length }),
      () => undefined,
    );
    pending.add(body);
    void body.finally(() => pending.delete(body));
  });
  return {
    urls: () => new Set(seen.keys()),
    /** Waits until no new JS or CSS arrived for QUIET_MS and every body is read. */
    async settle() {
      while (Date.now() - last < QUIET_MS || pending.size) await new Promise((r) => setTimeout(r, 100));
    },
    /** Sums of what was loaded, leaving out the URLs in `before`. */
    sum(before = new Set()) {
      const out = { js: { raw: 0, gzip: 0, files: 0 }, css: { raw: 0, gzip: 0, files: 0 } };
      for (const [url, r] of seen) {
        if (before.has(url)) continue;
        out[r.kind].raw += r.raw;
        out[r.kind].gzip += r.gzip;
        out[r.kind].files++;
      }
      return out;
    },
  };
}

const MACHINE = { workstation: { id: 'WS0001', timeclockOnly: false, kioskOnly: false, secret: 'demo-workstation-secret' } };

async function newPage(browser) {
  // The service worker's precache of the whole app (issue 27 item 1) downloads in the background after
  // the first load, through the context too: blocked here, so the figures are what a page loads.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  await context.addInitScript((s) => {
    if (!localStorage.getItem('machine_settings')) localStorage.setItem('machine_settings', JSON.stringify({ state: s, version: 0 }));
  }, MACHINE);
  const rec = recorder(context);
  const page = await context.newPage();
  return { context, page, rec };
}

async function openLogin(page, rec, base) {
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  await rec.settle();
}

async function logIn(page, rec, user) {
  await page.getByLabel('Account').fill(user);
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/');
  await page.getByTestId('page-title').waitFor();
  await rec.settle();
}

/**
 * One round: the login page from a cold cache; then, per page, a fresh browser context that logs in
 * (landing where the home redirect says), opens the page, and counts what it loaded beyond the
 * logged-in landing. Fresh contexts make each figure independent of the order of visits.
 */
async function round(browser, base) {
  const rows = [];
  const login = await newPage(browser);
  await openLogin(login.page, login.rec, base);
  rows.push({ name: 'login page /', ...login.rec.sum(), target: TARGET.loginJs });
  await logIn(login.page, login.rec, 'admin');
  // The work areas: every entry of the admin's navigation (all of them, in menu order).
  const areas = await login.page
    .locator('.mantine-AppShell-navbar a[href]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  await login.context.close();
  const pages = [...areas.map((path) => ({ path, user: 'admin' })), ...OTHER_PAGES.filter((p) => !areas.includes(p.path))];
  for (const { path, user } of pages) {
    const { context, page, rec } = await newPage(browser);
    await openLogin(page, rec, base);
    const beforeLogin = rec.urls();
    await logIn(page, rec, user);
    const landed = new URL(page.url()).pathname;
    if (landed === path) {
      // The first page after the login brings the app every page shares (Mantine, the router, the
      // query cache, the contract's schemas, the socket): no target of its own, printed for the record.
      rows.push({ name: `${path} (as ${user}: the app after the login, with this page)`, ...rec.sum(beforeLogin), target: null });
    } else {
      const before = rec.urls();
      await page.goto(`${base}${path}`);
      await page.getByTestId('page-title').waitFor();
      await rec.settle();
      if (new URL(page.url()).pathname !== path) throw new Error(`${path} redirected to ${page.url()}`);
      rows.push({ name: path, ...rec.sum(before), target: TARGET.areaJs });
    }
    await context.close();
  }
  return rows;
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

function print(rows) {
  const head = ['page', 'JS raw', 'JS gzip', 'CSS raw', 'CSS gzip', 'files', 'target (JS gzip)', ''];
  const lines = rows.map((r) => [
    r.name,
    kB(r.js.raw),
    kB(r.js.gzip),
    kB(r.css.raw),
    kB(r.css.gzip),
    `${r.js.files} js, ${r.css.files} css`,
    r.target === null ? 'none' : `≤ ${kB(r.target)}`,
    r.target === null ? 'info' : r.js.gzip <= r.target ? 'PASS' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  for (const l of [head, ...lines])
    console.log(l.map((c, i) => (i === 0 || i === l.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}

const dataDir = mkdtempSync(join(tmpdir(), 'floorhand-bench-'));
const server = await startBuiltServer({ DATA_DIR: dataDir, DEMO_SEED: 'on', LOG_LEVEL: 'warn', DATABASE_URL: '' });
let browser;
let failed = false;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const rounds = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const rows = await round(browser, server.base);
    rounds.push(rows);
    console.log(`\nround ${i} of ${ROUNDS}`);
    print(rows);
  }
  // The bytes are a function of the build alone, so every round should print the same figures.
  const same = rounds.every((rows) => JSON.stringify(rows) === JSON.stringify(rounds[0]));
  console.log(
    `\n${same ? `all ${ROUNDS} rounds downloaded the same bytes (the medians are these figures)` : 'the rounds differ: see each round above'}`,
  );
  failed = rounds.some((rows) => rows.some((r) => r.target !== null && r.js.gzip > r.target));
  console.log(failed ? 'FAIL: a target is missed' : 'PASS: every target is met');
} finally {
  await browser?.close();
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
