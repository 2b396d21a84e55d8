// Shift start (issue 15): 500 workers punch within one minute at 10 time clocks, some scanning twice
// within a second. Figures: p50/p99 of timeclock/punch, and the double punches found afterwards (0).
// Runs the built server (npm run build) on a fresh embedded database: node bench/timeclock/run.mjs
// WORKERS, SECONDS and CLOCKS may be set in the environment; the run is bounded by them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from '../server.mjs';

const WORKERS = Number(process.env.WORKERS ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 60);
const CLOCKS = Number(process.env.CLOCKS ?? 10);
const DOUBLE_SCAN_SHARE = 0.1;

const server = await startBuiltServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'fh-bench-tc-')), DEMO_SEED: 'on', LOG_LEVEL: 'warn', LOGIN_MAX_FAILURES_PER_ADDRESS: '100000' });
const base = { locId: 'bench', siteId: 'demo-main', appId: 'floorhand', orgId: 'demo' };
async function post(path, body, token) {
  const res = await fetch(`${server.base}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ ...base, ...body }) });
  return { status: res.status, body: await res.json() };
}
const login = async (userName) => (await post('auth/login', { userName, password: 'demo1234', workstationId: 'WS0001', workstationSecret: 'demo-workstation-secret' })).body.authToken;

try {
  const admin = await login('admin');
  const perms = [{ siteId: base.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }];
  for (let i = 0; i < WORKERS; i += 25) {
    const made = await Promise.all(
      Array.from({ length: Math.min(25, WORKERS - i) }, (_, j) =>
        post('admin/account/create', { account: { userName: `shift${i + j}`, firstName: 'Shift', surnames: `W${i + j}`, email: '', badgeCode: `SHIFT-${i + j}` }, password: 'Shift-start-2026', perms }, admin),
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
    const res = await post('timeclock/punch', { badge: `SHIFT-${worker}`, clientTime: new Date().toISOString() }, clocks[clock]);
    latencies.push(performance.now() - started);
    const key = `${res.status} ${res.body.result ?? res.body.err?.code}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  };
  const startAt = Date.now();
  const jobs = [];
  for (let w = 0; w < WORKERS; w++) {
    const at = Math.random() * SECONDS * 1000;
    const clock = w % CLOCKS;
    jobs.push(new Promise((ok) => setTimeout(() => ok(scan(w, clock)), at)));
    if (Math.random() < DOUBLE_SCAN_SHARE) jobs.push(new Promise((ok) => setTimeout(() => ok(scan(w, clock)), at + Math.random() * 1000)));
  }
  await Promise.all(jobs);
  const elapsed = (Date.now() - startAt) / 1000;

  const from = new Date(startAt - 60_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const list = (await post('timeclock/punches/list', { from, to }, admin)).body.punches ?? [];
  const perWorker = new Map();
  for (const p of list) if (p.workerName.startsWith('Shift')) perWorker.set(p.accountId, (perWorker.get(p.accountId) ?? 0) + 1);
  const doubles = [...perWorker.values()].filter((n) => n > 1).length;
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))].toFixed(1);
  console.log(`timeclock/punch: ${latencies.length} scans (${WORKERS} workers, ${CLOCKS} clocks) in ${elapsed.toFixed(1)} s`);
  console.log(`answers: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}`);
  console.log(`latency ms: p50 ${q(0.5)}, p95 ${q(0.95)}, p99 ${q(0.99)}, max ${sorted.at(-1).toFixed(1)}`);
  console.log(`workers punched: ${perWorker.size} of ${WORKERS}; double punches: ${doubles}`);
  console.log(`p99 < 200 ms: ${Number(q(0.99)) < 200 ? 'met' : 'NOT met'}; 0 double punches: ${doubles === 0 && perWorker.size === WORKERS ? 'met' : 'NOT met'}`);
} finally {
  server.stop();
}
