#!/usr/bin/env node
// CSV import benchmark on PostgreSQL (docs/inventory.md, "Large CSV imports"): does one large import
// stall everyone else? On a database of its own (it seeds the demo data there and adds locations):
//   createdb -h 127.0.0.1 -U postgres fh_csv_bench
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/fh_csv_bench npm run bench:csv-import -w bench
//   dropdb -h 127.0.0.1 -U postgres fh_csv_bench
// Builds the server, starts it once with DEMO_SEED=on to load the demo organisation, then per round
// starts it afresh in production mode and (1) sends a light load at a fixed rate, BENCH_RATE requests/s
// (40: half GET /api/health, half item/get of a demo part), for BENCH_BASELINE_SECS (10) with
// nothing else: the baseline; (2) the same load while one import/csv of a generated BENCH_ROWS-row
// location file (1,000,000, about 27 MB) into a new warehouse runs, with an idempotency key as the
// web app sends. Latencies are counted from the moment each request was due (a stalled server is
// not hidden by the load generator waiting too). Prints the other requests' p50/p99/max during the
// import against the baseline (the ratio), the import's duration and the server's peak RSS (VmHWM
// of /proc/<pid>/status; sampled VmRSS too), BENCH_ROUNDS (3) rounds, then the medians. Each round's
// warehouse and locations stay in the database (deleting a million locations takes minutes of
// foreign-key checks): drop the database afterwards. Targets: p99 during the import < 100 ms, peak RSS < 600 MB.
// Loopback only; ends by itself (an import that takes over BENCH_IMPORT_TIMEOUT_SECS, 600, fails).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { BASE_BODY, benchDatabaseUrl, httpPost, loadAverage, login, median, root, startBuiltServer } from '../server.mjs';

const DATABASE_URL = benchDatabaseUrl();
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 40);
const BASELINE_SECS = Number(process.env.BENCH_BASELINE_SECS ?? 10);
const IMPORT_TIMEOUT_SECS = Number(process.env.BENCH_IMPORT_TIMEOUT_SECS ?? 600);
const TARGET = { p99Ms: 100, rssMb: 600 };
/** BENCH_TRACE_RSS=1 prints the server's RSS every half second of the import. */
const TRACE_RSS = process.env.BENCH_TRACE_RSS === '1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : String(n));

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM). */
function statusMb(pid, field) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function stopServer(server) {
  server.stop();
  for (let i = 0; i < 100 && existsSync(`/proc/${server.pid}`); i++) await sleep(100);
}

/** The location file: `warehouse,code,description,type`, one location a row, CRLF. */
function locationCsv(warehouse, rows) {
  const parts = ['warehouse,code,description,type\r\n'];
  for (let i = 1; i <= rows; i++) parts.push(`${warehouse},L${String(i).padStart(7, '0')},bay ${i % 100},bin\r\n`);
  return parts.join('');
}

/**
 * Light requests at a fixed rate until stop(): each one's latency from when it was due to when its
 * whole answer arrived, with the time it was due (ms, performance.now()).
 */
function loadGenerator(base, token, partNumber) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const samples = [];
  const failures = [];
  const pending = new Set();
  const health = (due) =>
    new Promise((ok) => {
      const req = http.get(`${base}/api/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) failures.push(`health ${res.statusCode}`);
          ok(samples.push({ due, ms: performance.now() - due }));
        });
      });
      req.on('error', (e) => ok(failures.push(`health ${e.message}`)));
    });
  const itemGet = async (due) => {
    try {
      const res = await httpPost(agent, `${base}/api/item/get`, token, JSON.stringify({ ...BASE_BODY, partNumber }));
      if (res.status !== 200) failures.push(`item/get ${res.status}`);
      samples.push({ due, ms: performance.now() - due });
    } catch (e) {
      failures.push(`item/get ${e.message}`);
    }
  };
  const started = performance.now();
  let n = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const p = (n++ % 2 === 0 ? health : itemGet)(due);
      pending.add(p);
      void p.then(() => pending.delete(p));
    }
  })();
  return {
    samples,
    failures,
    async stop() {
      running = false;
      await loop;
      await Promise.all(pending);
      agent.destroy();
    },
  };
}

function summary(samples, from, to) {
  const ms = samples
    .filter((s) => s.due >= from && s.due <= to)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return { n: ms.length, p50: pct(ms, 50), p99: pct(ms, 99), max: ms.at(-1) ?? Number.NaN };
}

function post(base, token, path, payload, timeoutMs) {
  return new Promise((ok, fail) => {
    const req = http.request(
      `${base}/api/${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}` },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', fail);
    req.end(payload);
  });
}

async function round(r, pool) {
  const server = await startBuiltServer({ DATABASE_URL, DEMO_SEED: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'production' });
  const warehouse = `CSVB_${Date.now().toString(36).toUpperCase()}`;
  try {
    const token = await login(server.base);
    const { rows: parts } = await pool.query(`SELECT part_number FROM items WHERE org_id = $1 AND active ORDER BY part_number LIMIT 1`, [
      BASE_BODY.orgId,
    ]);
    const wh = await post(
      server.base,
      token,
      'import/csv',
      JSON.stringify({ ...BASE_BODY, entity: 'warehouses', csv: `code,name\r\n${warehouse},CSV benchmark\r\n` }),
      30_000,
    );
    if (wh.status !== 200) throw new Error(`warehouse import: ${wh.status} ${wh.body.slice(0, 300)}`);
    const payload = JSON.stringify({ ...BASE_BODY, entity: 'locations', csv: locationCsv(warehouse, ROWS), idempotencyKey: randomUUID() });
    const load = loadGenerator(server.base, token, parts[0].part_number);
    await sleep(1000); // warm-up, not counted
    const baseFrom = performance.now();
    await sleep(BASELINE_SECS * 1000);
    const baseTo = performance.now();
    const rssBefore = statusMb(server.pid, 'VmRSS');
    let rssMax = rssBefore;
    const timeline = [];
    const sampler = setInterval(() => {
      const rss = statusMb(server.pid, 'VmRSS') || 0;
      rssMax = Math.max(rssMax, rss);
      if (TRACE_RSS) timeline.push(`${((performance.now() - from) / 1000).toFixed(1)}s ${rss.toFixed(0)}`);
    }, 100);
    const from = performance.now();
    const res = await post(server.base, token, 'import/csv', payload, IMPORT_TIMEOUT_SECS * 1000);
    const to = performance.now();
    clearInterval(sampler);
    if (TRACE_RSS) console.log(`RSS (MB) over the import: ${timeline.filter((_, i) => i % 5 === 0).join(', ')}`);
    const hwm = statusMb(server.pid, 'VmHWM');
    await load.stop();
    if (res.status !== 200) throw new Error(`import: ${res.status} ${res.body.slice(0, 500)}`);
    const report = JSON.parse(res.body).report;
    if (report.inserted !== ROWS) throw new Error(`import inserted ${report.inserted} of ${ROWS}`);
    const base = summary(load.samples, baseFrom, baseTo);
    const during = summary(load.samples, from, to);
    const out = {
      baseP99: base.p99,
      p50: during.p50,
      p99: during.p99,
      max: during.max,
      ratio: during.p99 / base.p99,
      importSecs: (to - from) / 1000,
      peakMb: Math.max(hwm || 0, rssMax),
      rssBefore,
    };
    console.log(
      `round ${r}: baseline p50 ${fmt(base.p50)} p99 ${fmt(base.p99)} ms (${base.n} requests); during the import p50 ${fmt(during.p50)} p99 ${fmt(during.p99)} max ${fmt(during.max)} ms (${during.n} requests); p99 ratio ${out.ratio.toFixed(2)}; ` +
        `import ${out.importSecs.toFixed(1)} s (${(payload.length / 1024 / 1024).toFixed(1)} MB body); server RSS ${rssBefore.toFixed(0)} MB before, peak ${out.peakMb.toFixed(0)} MB; ` +
        `${load.failures.length} failed requests${load.failures.length ? ` (${load.failures.slice(0, 3).join('; ')})` : ''}; load average ${loadAverage()}`,
    );
    return out;
  } catch (error) {
    console.error(`round ${r} failed:`, error);
    throw error;
  } finally {
    await stopServer(server);
  }
}

async function main() {
  const built = spawnSync(process.execPath, ['build.mjs'], { cwd: join(root, 'apps/server'), stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
  // The demo organisation (admin, a part to look up), loaded once; a no-op when it is there.
  await stopServer(await startBuiltServer({ DATABASE_URL, DEMO_SEED: 'on', LOG_LEVEL: 'warn', NODE_ENV: 'development' }));
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const results = [];
  try {
    console.log(
      `CSV import of ${ROWS.toLocaleString('en')} locations at ${RATE} other requests/s (baseline ${BASELINE_SECS} s); load average ${loadAverage()}`,
    );
    for (let r = 1; r <= ROUNDS; r++) results.push(await round(r, pool));
  } finally {
    await pool.end();
  }
  const m = (k) => median(results.map((x) => x[k]));
  const met = m('p99') < TARGET.p99Ms && m('peakMb') < TARGET.rssMb;
  console.log(
    `median of ${ROUNDS}: other requests during the import p50 ${fmt(m('p50'))} p99 ${fmt(m('p99'))} ms (baseline p99 ${fmt(m('baseP99'))} ms, ratio ${m('ratio').toFixed(2)}), max ${fmt(m('max'))} ms; ` +
      `import ${m('importSecs').toFixed(1)} s; server peak RSS ${m('peakMb').toFixed(0)} MB; targets p99 < ${TARGET.p99Ms} ms and RSS < ${TARGET.rssMb} MB: ${met ? 'met' : 'NOT met'}; load average ${loadAverage()}`,
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
