#!/usr/bin/env node
// `npm run bench`: every benchmark in turn, then the figures table of docs/performance.md.
//
//   npm run bench                          every benchmark (about 40 min on the 2-core machines)
//   npm run bench -- stock-lookup orders   only those (names as in bench/package.json, without bench:)
//   BENCH_SKIP=scan,bundle npm run bench   all but those
//
// Each bench runs with its own PostgreSQL database on BENCH_PG (postgres://postgres@127.0.0.1:5432):
// made when missing; the large data set (npm run seed:large, about a minute) is loaded into
// fh_perf_bench only when it does not hold it yet. The benches' own knobs (BENCH_ROUNDS, …) pass
// through. A bench prints its headline figures as its `@figures {json}` line (bench/server.mjs
// printFigures); for one that does not, its summary (the lines after its "median" line) is taken
// as it is. The table between the markers in docs/performance.md gets one row per bench run, with
// the date, the commit, the load average at its start and end, and whether its targets were met;
// the rows of benches not run this time stay as they were, and the rest of the file (the findings,
// written by hand) is left alone. Exits non-zero when a bench failed or missed a target.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { FIGURES_MARK, loadAverage, root } from './server.mjs';

const PG = (process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
const DOC = join(root, 'docs/performance.md');
export const START = '<!-- bench:figures:start (written by npm run bench; edits here are overwritten) -->';
export const END = '<!-- bench:figures:end -->';
const LARGE_DB = 'fh_perf_bench';

/**
 * The benchmarks, in the order they run: the bench:<name> script, its database (none: PGlite or a
 * browser), whether it needs the large data set.
 */
const BENCHES = new Map([
  ['stock-lookup', { db: LARGE_DB, large: true }],
  ['stock-write', { db: LARGE_DB, large: true }],
  ['orders', { db: 'fh_orders_bench' }],
  ['counts', { db: 'fh_counts_bench' }],
  ['labels', { db: 'fh_labels_bench' }],
  ['timeclock', { db: 'fh_timeclock_bench' }],
  ['csv-import', { db: 'fh_csv_bench' }],
  ['offline', { db: 'fh_offline_bench' }],
  ['scan', {}],
  ['bundle', {}],
]);

/** The figures of a bench's output as table cells: headline, and targets met (yes / NO / —). */
function cellsOf(name, out, status) {
  const line = out
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(FIGURES_MARK));
  if (status !== 0) return { headline: `failed (exit ${status}): ${lastLines(out, 2)}`, met: 'NO' };
  if (line) {
    const f = JSON.parse(line.slice(FIGURES_MARK.length));
    return HEADLINES.get(name)?.(f) ?? { headline: JSON.stringify(f), met: '—' };
  }
  const lines = out.split('\n');
  const at = lines.findIndex((l) => /^median/i.test(l.trim()));
  const summary = (at >= 0 ? lines.slice(at + 1) : lines.slice(-4)).map((l) => l.trim()).filter(Boolean);
  const text = summary.join('; ');
  return { headline: text.replaceAll('|', '/'), met: /NOT MET/.test(text) ? 'NO' : /\bmet\b/.test(text) ? 'yes' : '—' };
}

const ms = (v) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);
const yes = (ok) => (ok ? 'yes' : 'NO');

/** How the benches that print @figures read in the table. */
const HEADLINES = new Map([
  [
    'stock-lookup',
    (f) => ({
      headline:
        `${f.records.toLocaleString('en')} records, median of ${f.rounds}: p99 at ${f.rate}/s ${ms(f.p99)} quiet, ${ms(f.busyP99)} with one core busy ` +
        `(plain pg at the same rate ${ms(f.plainP99)}, ${ms(f.busyPlainP99)}); API ${Math.round(f.apiRps)}/s = ${f.ratio.toFixed(2)} × plain pg ${Math.round(f.plainRps)}/s` +
        (f.loadGenerator === 'wrk' ? ` driven by wrk (by autocannon ${f.ratioAutocannon.toFixed(2)})` : '') +
        '; ' +
        `server CPU ${f.cpuMsPerRequest.toFixed(2)} ms/lookup`,
      met: yes(f.p99 < f.target.p99Ms && f.ratio >= f.target.ratio),
    }),
  ],
  [
    'orders',
    (f) => ({
      headline:
        `median of ${f.rounds}: pick/confirm p99 ${ms(f.pickP99)} quiet, ${ms(f.busyPickP99)} with one core busy (${f.pickers} pickers, 1 per ${f.paceMs} ms each); ` +
        `flat out ${Math.round(f.flatRps)}/s p99 ${ms(f.flatP99)}; ${f.bigLines}-line pick list ${f.pickListMs.toFixed(0)} ms, ship ${f.shipMs.toFixed(0)} ms; faults ${f.faults}`,
      met: yes(
        f.pickP99 < f.target.pickP99Ms &&
          (f.busyPickP99 === null || f.busyPickP99 < f.target.pickP99Ms) &&
          f.pickListMs < f.target.pickListMs &&
          f.shipMs < f.target.shipMs &&
          f.faults === 0,
      ),
    }),
  ],
]);

const lastLines = (text, n) => text.trim().split('\n').slice(-n).join(' ').replaceAll('|', '/').slice(0, 300);

async function ensureDatabase(name) {
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`);
      console.log(`database ${name} made`);
    }
  } finally {
    await admin.end();
  }
}

/** Loads the large data set unless the database holds it already (a million stock records). */
async function ensureLargeSeed(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let records = 0;
  try {
    // Two statements: PostgreSQL resolves a table named in a statement before running it, so a CASE
    // around the count still fails on a new database that has no stock_records yet.
    const { rows: exists } = await client.query(`SELECT to_regclass('stock_records') IS NOT NULL AS present`);
    if (exists[0].present) {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM stock_records WHERE org_id = 'demo'`);
      records = rows[0].n;
    }
  } finally {
    await client.end();
  }
  if (records >= 1_000_000) return;
  console.log(`loading the large data set into ${url} (npm run seed:large)`);
  const seeded = spawnSync('npm', ['run', 'seed:large'], { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
  if (seeded.status !== 0) throw new Error('seed:large failed');
}

/** Runs one bench, echoing its output; answers the output and the exit status. */
function runBench(name, env) {
  return new Promise((ok) => {
    const child = spawn('npm', ['run', `bench:${name}`, '-w', 'bench'], { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    const keep = (chunk, to) => {
      out += chunk;
      to.write(chunk);
    };
    child.stdout.on('data', (c) => keep(c, process.stdout));
    child.stderr.on('data', (c) => keep(c, process.stderr));
    child.on('close', (status) => ok({ out, status: status ?? 1 }));
  });
}

const commit = () => {
  const sha = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  // docs/performance.md itself is not counted: this script writes it between benches.
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs/performance.md'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  return dirty ? `${sha} (with uncommitted changes)` : sha;
};

const HEADER = [
  '| bench | date (UTC) | commit | load average at start → end | figures | targets met | command |',
  '|---|---|---|---|---|---|---|',
];

/** docs/performance.md with `rows` (by bench) put between the markers, other benches' rows kept. */
export function withRows(doc, rows) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  const before = start >= 0 && end > start ? doc.slice(0, start) : `${doc.trimEnd()}\n\n`;
  const after = start >= 0 && end > start ? doc.slice(end + END.length) : '\n';
  const kept = new Map();
  if (start >= 0 && end > start)
    for (const line of doc.slice(start + START.length, end).split('\n')) {
      const name = /^\| ([\w-]+) \|/.exec(line)?.[1];
      if (name && name !== 'bench' && BENCHES.has(name)) kept.set(name, line);
    }
  for (const [name, row] of rows) kept.set(name, row);
  const ordered = [...BENCHES.keys()].filter((n) => kept.has(n)).map((n) => kept.get(n));
  return `${before}${START}\n${[...HEADER, ...ordered].join('\n')}\n${END}${after}`;
}

async function main() {
  const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
  const asked = process.argv.slice(2);
  for (const name of asked) if (!BENCHES.has(name)) throw new Error(`no bench '${name}' (one of ${[...BENCHES.keys()].join(', ')})`);
  const names = (asked.length ? asked : [...BENCHES.keys()]).filter((n) => !skip.has(n));
  const rows = new Map();
  let failed = false;
  for (const name of names) {
    const { db, large } = BENCHES.get(name);
    const env = {};
    if (db) {
      await ensureDatabase(db);
      env.DATABASE_URL = `${PG}/${db}`;
      if (large) await ensureLargeSeed(env.DATABASE_URL);
    }
    const loadBefore = loadAverage();
    const started = new Date();
    console.log(`\n=== ${name} (${started.toISOString()}, load average ${loadBefore})`);
    const { out, status } = await runBench(name, env);
    const { headline, met } = cellsOf(name, out, status);
    if (met === 'NO') failed = true;
    const command = `${db ? `DATABASE_URL=${PG}/${db} ` : ''}npm run bench:${name} -w bench`;
    rows.set(
      name,
      `| ${name} | ${started.toISOString().slice(0, 16).replace('T', ' ')} | ${commit()} | ${loadBefore} → ${loadAverage()} | ${headline} | ${met} | \`${command}\` |`,
    );
    // Written after every bench, so an interrupted run keeps what it measured.
    writeFileSync(DOC, withRows(readFileSync(DOC, 'utf8'), rows));
  }
  console.log(`\ndocs/performance.md: ${rows.size} row(s) written`);
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
