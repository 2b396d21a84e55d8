// Shift start (issue 15): 500 workers punch within one minute at 10 time clocks, some scanning twice
// within a second. Figures: p50/p99 of timeclock/punch, the server's CPU ms per scan, and the double
// punches found afterwards (0); RUNS rounds (default 3), each on a fresh server, and their median.
// Runs the built server (npm run build): node bench/timeclock/run.mjs
// On a fresh embedded database (PGlite) by default; DATABASE_URL=postgres://… runs it on PostgreSQL
// (a database of its own: the workers of each round are created there, named per round).
// WORKERS, SECONDS, CLOCKS and RUNS may be set in the environment; the run is bounded by them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAverage, median, startBuiltServer } from '../server.mjs';

const WORKERS = Number(process.env.WORKERS ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 60);
const CLOCKS = Number(process.env.CLOCKS ?? 10);
const RUNS = Number(process.env.RUNS ?? 3);
const DOUBLE_SCAN_SHARE = 0.1;
const DATABASE_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const base = { locId: 'bench', siteId: 'demo-main', appId: 'floorhand', orgId: 'demo' };

async function round(n) {
  const env = DATABASE_URL ? { DATABASE_URL } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'fh-bench-tc-')) };
  const server = await startBuiltServer({ ...env, DEMO_SEED: 'on', LOG_LEVEL: 'warn', LOGIN_MAX_FAILURES_PER_ADDRESS: '100000' });
  const post = async (path, body, token) => {
    const res = await fetch(`${server.base}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ ...base, ...body }),
    });
    return { status: res.status, body: await res.json() };
  };
  const login = async (userName) =>
    (await post('auth/login', { userName, password: 'demo1234', workstationId: 'WS0001', workstationSecret: 'demo-workstation-secret' }))
      .body.authToken;
  const tag = `${Date.now().toString(36)}${n}`;
  try {
    const admin = await login('admin');
    const perms = [{ siteId: base.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }];
    for (let i = 0; i < WORKERS; i += 25) {
      const made = await Promise.all(
        Array.from({ length: Math.min(25, WORKERS - i) }, (_, j) =>
          post(
            'admin/account/create',
            {
              account: {
                userName: `shift${tag}-${i + j}`,
                firstName: `Shift${tag}`,
                surnames: `W${i + j}`,
                email: '',
                badgeCode: `SHIFT-${tag}-${i + j}`,
              },
              password: 'Shift-start-2026',
              perms,
            },
            admin,
          ),
        ),
      );
      const failed = made.find((r) => r.status !== 200);
      if (failed) throw new Error(`creating a worker failed: ${JSON.stringify(failed.body)}`);
    }
    const clocks = [];
    for (let c = 0; c < CLOCKS; c++) clocks.push(await login('clock'));

    const latencies = [];
    const statuses = new Map();
    const scan = async (worker, clock) => {
      const started = performance.now();
      const res = await post('timeclock/punch', { badge: `SHIFT-${tag}-${worker}`, clientTime: new Date().toISOString() }, clocks[clock]);
      latencies.push(performance.now() - started);
      const key = `${res.status} ${res.body.result ?? res.body.err?.code}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    };
    const cpuBefore = server.cpuMs();
    const startAt = Date.now();
    const jobs = [];
    for (let w = 0; w < WORKERS; w++) {
      const at = Math.random() * SECONDS * 1000;
      const clock = w % CLOCKS;
      jobs.push(new Promise((ok) => setTimeout(() => ok(scan(w, clock)), at)));
      if (Math.random() < DOUBLE_SCAN_SHARE)
        jobs.push(new Promise((ok) => setTimeout(() => ok(scan(w, clock)), at + Math.random() * 1000)));
    }
    await Promise.all(jobs);
    const elapsed = (Date.now() - startAt) / 1000;
    const cpuPerScan = (server.cpuMs() - cpuBefore) / latencies.length;

    const from = new Date(startAt - 60_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const list = (await post('timeclock/punches/list', { from, to }, admin)).body.punches ?? [];
    const perWorker = new Map();
    for (const p of list) if (p.workerName.startsWith(`Shift${tag}`)) perWorker.set(p.accountId, (perWorker.get(p.accountId) ?? 0) + 1);
    const doubles = [...perWorker.values()].filter((v) => v > 1).length;
    const sorted = [...latencies].sort((a, b) => a - b);
    const q = (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
    const r = { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: sorted.at(-1), cpuPerScan, doubles, punched: perWorker.size };
    console.log(
      `round ${n + 1}: ${latencies.length} scans (${WORKERS} workers, ${CLOCKS} clocks) in ${elapsed.toFixed(1)} s; answers ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    );
    console.log(
      `  latency ms p50 ${r.p50.toFixed(1)}, p95 ${r.p95.toFixed(1)}, p99 ${r.p99.toFixed(1)}, max ${r.max.toFixed(1)}; server CPU ${cpuPerScan.toFixed(2)} ms/scan; workers punched ${r.punched} of ${WORKERS}, double punches ${doubles}; load ${loadAverage()}`,
    );
    return r;
  } finally {
    server.stop();
  }
}

console.log(`shift start on ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${RUNS} round(s)`);
const rounds = [];
for (let n = 0; n < RUNS; n++) rounds.push(await round(n));
const m = (k) => median(rounds.map((r) => r[k]));
const doubles = rounds.reduce((a, r) => a + r.doubles, 0);
const allPunched = rounds.every((r) => r.punched === WORKERS);
console.log(
  `median of ${RUNS}: p50 ${m('p50').toFixed(1)} ms, p95 ${m('p95').toFixed(1)} ms, p99 ${m('p99').toFixed(1)} ms, max ${m('max').toFixed(1)} ms; server CPU ${m('cpuPerScan').toFixed(2)} ms/scan; double punches ${doubles} in all rounds`,
);
console.log(`p99 < 200 ms: ${m('p99') < 200 ? 'met' : 'NOT met'}; 0 double punches: ${doubles === 0 && allPunched ? 'met' : 'NOT met'}`);
