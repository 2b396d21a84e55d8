#!/usr/bin/env node
// Stock lookup benchmark on PostgreSQL (docs/inventory.md). Needs the large data set:
//   DATABASE_URL=postgres://…/floorhand_bench npm run seed:large
//   DATABASE_URL=postgres://…/floorhand_bench npm run bench:stock-lookup -w bench
// Builds and starts the server on a free port against DATABASE_URL, then measures with the same
// concurrency: (1) stock/lookup paced at a fixed 1,000 requests/s (the target: p99 under 20 ms), (2)
// stock/lookup flat out, (3) the same indexed statement flat out through a plain pg pool of the
// server's size, once unnamed and once as a named prepared statement, and (3b) the server's own
// statement (lookup-repository.ts: the same rows in the lookup's order, each record's JSON written by
// PostgreSQL; the server groups them), prepared, as the server runs it. Prints requests/s, p50 and p99 of each, the server's CPU time per
// request, and the ratio of (2) to the fastest of (3) and (3b) (target: ≥ 0.7); (4) the prepared
// rows statement at the same fixed rate, the p99 the machine itself gives. BENCH_ROUNDS rounds (3)
// of all, then the medians of the rounds. (1b) the paced run again while BENCH_BUSY_CORES (1)
// busy-looping processes keep a core busy (bench/server.mjs busyCores: a fixed CPU load, so the
// figure is reproducible), with the plain client's paced run under the same load beside it;
// BENCH_BUSY=0 leaves it out. Each paced run prints what the server's /metrics saw (event-loop
// delay, GC pauses, waits for a pool connection). The last line is the figures as JSON for
// `npm run bench` (bench/run-all.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { fillPlaceholders } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { lookupSql } from '../../apps/server/src/modules/stock/lookup-repository.ts';
import {
  BASE_BODY,
  benchDatabaseUrl,
  buildAndStartServer,
  cpuMs,
  jsonPoster,
  loadAverage,
  login,
  median,
  printFigures,
  serverMetrics,
  serverPoolSize,
  withBusyCores,
} from '../server.mjs';
import { LOOKUP, sampleValues } from './workload.mjs';

const DATABASE_URL = benchDatabaseUrl();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The pause before each paced run (ms): what a flat-out run left behind (PostgreSQL's and the server's backlog, GC) settles first. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);
const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const BUSY = process.env.BENCH_BUSY !== '0';
const TARGET = { p99Ms: 20, ratio: 0.7 };
/**
 * The flat-out API run's load generator: wrk (Debian's `wrk` package) when it is installed and
 * BENCH_WRK is not 0, autocannon otherwise. The plain client has no load generator apart from itself;
 * the API's runs on the same two cores as the server and PostgreSQL it measures, and autocannon took
 * 0.08 to 0.10 ms of CPU per lookup there, wrk 0.03 (docs/performance.md, "The load generator's share
 * of the ratio"). With wrk, autocannon's run is made and reported too.
 */
const WRK = process.env.BENCH_WRK !== '0' && !spawnSync('wrk', ['--version']).error;

/**
 * stock/lookup through the API: flat out with autocannon (`rate` 0), or paced exactly like the plain
 * client's fixed-rate run (request k due at k / rate s, over the same number of connections), so the
 * two latency figures are comparable. `server` gives the base URL and the server's CPU time.
 */
async function apiRun(server, token, values, rate, flatOut = WRK ? wrk : cannon) {
  const cpuBefore = server.cpuMs();
  const seen = await serverMetrics(server.base);
  const ownBefore = process.cpuUsage();
  const result = rate
    ? await pacedRun(values, rate, (value) => post(server.base, token, 'stock/lookup', { value }))
    : await flatOut(server.base, token, values);
  const own = process.cpuUsage(ownBefore);
  const generatorMs = result.generatorMs ?? (own.user + own.system) / 1000;
  return {
    ...result,
    cpuMsPerRequest: (server.cpuMs() - cpuBefore) / result.total,
    generatorMsPerRequest: generatorMs / result.total,
    server: await seen.since(),
  };
}

const post = jsonPoster(CONNECTIONS);

/** stock/lookup flat out with autocannon (its own HTTP client, the lightest load generator here). */
function cannon(base, token, values) {
  let i = 0;
  return new Promise((ok, fail) => {
    autocannon(
      {
        url: `${base}/api/stock/lookup`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...BASE_BODY, value: values[i++ % values.length] }) }),
          },
        ],
      },
      (err, result) =>
        err
          ? fail(err)
          : ok({
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              errors: result.non2xx + result.errors + result.timeouts,
              total: result.requests.total,
            }),
    );
  });
}

/**
 * stock/lookup flat out with wrk: one thread, CONNECTIONS kept-alive connections, the values in turn
 * (a Lua script with every body written out). Its CPU is read from /proc while it runs.
 */
function wrk(base, token, values) {
  const dir = mkdtempSync(join(tmpdir(), 'fh-wrk-'));
  const script = join(dir, 'lookup.lua');
  const bodies = values.map((value) => `[==[${JSON.stringify({ ...BASE_BODY, value })}]==]`);
  writeFileSync(
    script,
    `local bodies = {${bodies.join(',\n')}}
local headers = { ["content-type"] = "application/json", ["authorization"] = "Bearer ${token}" }
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/api/stock/lookup", headers, bodies[(i % #bodies) + 1])
end
`,
  );
  return new Promise((ok, fail) => {
    const child = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, base], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let generatorMs = 0;
    const watch = setInterval(() => {
      const used = cpuMs(child.pid);
      if (used > 0) generatorMs = used;
    }, 50);
    child.stdout.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(watch);
      rmSync(dir, { recursive: true, force: true });
      const total = Number(out.match(/(\d+) requests in/)?.[1]);
      if (code !== 0 || !total) return fail(new Error(`wrk failed (exit ${code}):\n${out}`));
      const inMs = (p) => {
        const [, n, unit] = out.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm')) ?? [];
        return Number(n) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1);
      };
      const socketErrors =
        out
          .match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
          ?.slice(1)
          .map(Number) ?? [];
      ok({
        rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
        p50: inMs(50),
        p99: inMs(99),
        errors: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0) + socketErrors.reduce((a, b) => a + b, 0),
        total,
        generatorMs,
      });
    });
  });
}

// The server's statement for a lookup with the default options, exactly as it sends it.
const SERVER_STATEMENT = new PgDialect().sqlToQuery(
  lookupSql({
    sort: 'location',
    desc: false,
    showZeroQty: false,
    warehouse: false,
    conditionCode: false,
    department: false,
    orderType: false,
  }),
);
const serverValues = (value) => fillPlaceholders(SERVER_STATEMENT.params, { orgId: 'demo', value, maxRows: INVENTORY_MAX_ROWS });

/**
 * CONNECTIONS workers sending `send(value)` one at a time: flat out, or at `rate` requests/s for all
 * of them together (request k is due at k / rate s). Latency is measured from the send.
 */
async function pacedRun(values, rate, send) {
  let i = 0;
  let errors = 0;
  const latencies = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const k = i++;
      if (rate) {
        const wait = started + (1000 * k) / rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (performance.now() >= until) break;
      }
      const sent = performance.now();
      try {
        await send(values[k % values.length]);
        latencies.push(performance.now() - sent);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rps: latencies.length / ((performance.now() - started) / 1000), p50: at(50), p99: at(99), errors, total: latencies.length };
}

/** The statement through the plain pool; `name` runs it as a named prepared statement, as the server does (db/prepared.ts). */
const plainRun = (pool, values, name, rate = 0) =>
  pacedRun(values, rate, (value) => pool.query({ name, text: LOOKUP, values: ['demo', value] }));
/** The server's own statement through the plain pool, prepared. */
const plainServerStatement = (pool, values) =>
  pacedRun(values, 0, (value) => pool.query({ name: 'bench_lookup_json', text: SERVER_STATEMENT.sql, values: serverValues(value) }));

const fmt = (r) =>
  `${Math.round(r.rps).toString().padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  (r.cpuMsPerRequest === undefined ? '' : `   server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req`) +
  (r.generatorMsPerRequest === undefined ? '' : `, load generator ${r.generatorMsPerRequest.toFixed(2)}`) +
  `   (${r.total} done, ${r.errors} errors)` +
  (r.server ? `\n                      ${r.server.describe()}` : '');

const server = await buildAndStartServer(DATABASE_URL);
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: await serverPoolSize(server) });
try {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM stock_records WHERE org_id = 'demo'`);
  const token = await login(server.base);
  const values = await sampleValues(pool);
  console.log(
    `stock/lookup on ${rows[0].n.toLocaleString('en')} stock records; ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds, ${values.length} distinct values`,
  );
  await apiRun(server, token, values, 0); // warm-up: JIT, caches, pool
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}, load average ${loadAverage()}`);
    // A paced run starts from a machine at rest, not inside the tail of the flat-out runs before it.
    await settle();
    const fixed = await apiRun(server, token, values, RATE);
    console.log(`  API at ${RATE}/s      ${fmt(fixed)}`);
    let busy;
    let busyPlain;
    if (BUSY) {
      await settle();
      [busy, busyPlain] = await withBusyCores(async () => [
        await apiRun(server, token, values, RATE),
        await plainRun(pool, values, 'bench_lookup', RATE),
      ]);
      console.log(`  API at ${RATE}/s, one core busy ${fmt(busy)}`);
      console.log(`  plain pg, prep. at ${RATE}/s, one core busy ${fmt(busyPlain)}`);
    }
    const api = await apiRun(server, token, values, 0);
    console.log(`  API flat out${WRK ? ' (wrk)' : ''}  ${fmt(api)}`);
    const viaCannon = WRK ? await apiRun(server, token, values, 0, cannon) : api;
    if (WRK) console.log(`  API flat out (autocannon) ${fmt(viaCannon)}`);
    const unnamed = await plainRun(pool, values, undefined);
    console.log(`  plain pg            ${fmt(unnamed)}`);
    const prepared = await plainRun(pool, values, 'bench_lookup');
    console.log(`  plain pg, prepared  ${fmt(prepared)}`);
    const json = await plainServerStatement(pool, values);
    console.log(`  plain pg, server's statement, prepared ${fmt(json)}`);
    // The machine's floor for the latency target: the prepared statement at the same rate, no server.
    await settle();
    const preparedFixed = await plainRun(pool, values, 'bench_lookup', RATE);
    console.log(`  plain pg, prep. at ${RATE}/s ${fmt(preparedFixed)}`);
    // The stricter comparison: against the fastest of the plain runs.
    const plain = [unnamed, prepared, json].reduce((a, b) => (b.rps > a.rps ? b : a));
    rounds.push({
      ratio: api.rps / plain.rps,
      ratioAutocannon: viaCannon.rps / plain.rps,
      p99: fixed.p99,
      fixedRps: fixed.rps,
      apiRps: api.rps,
      plainRps: plain.rps,
      cpu: api.cpuMsPerRequest,
      plainP99: preparedFixed.p99,
      busyP99: busy?.p99 ?? NaN,
      busyRps: busy?.rps ?? NaN,
      busyPlainP99: busyPlain?.p99 ?? NaN,
    });
    console.log(
      `  ratio ${(api.rps / plain.rps).toFixed(2)}${WRK ? ` (with autocannon ${(viaCannon.rps / plain.rps).toFixed(2)})` : ''}, p99 at ${RATE}/s ${fixed.p99.toFixed(1)} ms`,
    );
  }
  const m = (key) => median(rounds.map((r) => r[key]));
  console.log(`median of ${ROUNDS} rounds (load average now ${loadAverage()}):`);
  console.log(
    `  API / plain pg throughput ${m('ratio').toFixed(2)} (target ≥ ${TARGET.ratio}): API ${Math.round(m('apiRps'))} req/s driven by ${WRK ? 'wrk' : 'autocannon'}, plain pg ${Math.round(m('plainRps'))} req/s` +
      (WRK ? `; driven by autocannon ${m('ratioAutocannon').toFixed(2)}` : ''),
  );
  console.log(
    `  p99 at ${RATE}/s ${m('p99').toFixed(1)} ms (target < ${TARGET.p99Ms} ms), sustained ${Math.round(m('fixedRps'))} req/s; server CPU ${m('cpu').toFixed(2)} ms per request flat out`,
  );
  console.log(
    `  plain pg, prepared, at ${RATE}/s: p99 ${m('plainP99').toFixed(1)} ms (what this machine gives the same statement without the server)`,
  );
  if (BUSY)
    console.log(
      `  one core busy: API p99 at ${RATE}/s ${m('busyP99').toFixed(1)} ms (sustained ${Math.round(m('busyRps'))} req/s), plain pg prepared at ${RATE}/s p99 ${m('busyPlainP99').toFixed(1)} ms`,
    );
  printFigures('stock-lookup', {
    records: rows[0].n,
    rounds: ROUNDS,
    rate: RATE,
    p99: m('p99'),
    busyP99: BUSY ? m('busyP99') : null,
    plainP99: m('plainP99'),
    busyPlainP99: BUSY ? m('busyPlainP99') : null,
    ratio: m('ratio'),
    loadGenerator: WRK ? 'wrk' : 'autocannon',
    ratioAutocannon: m('ratioAutocannon'),
    apiRps: m('apiRps'),
    plainRps: m('plainRps'),
    cpuMsPerRequest: m('cpu'),
    target: TARGET,
  });
} finally {
  server.stop();
  post.close();
  await pool.end();
}
