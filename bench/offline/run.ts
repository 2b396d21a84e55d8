// Offline outbox benchmark on PostgreSQL (issue 27; docs/offline.md, Figures):
//
//   createdb -h 127.0.0.1 -U postgres fh_offline_bench
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/fh_offline_bench npm run bench:offline -w bench
//
// A handheld that was offline comes back with BENCH_SCANS (500) queued scans: stock adjustments (+1,
// reason Found) of the demo organisation's records, each with its own idempotency key, in the web
// app's own replay (apps/web/src/lib/offline/replay.ts, the code the browser runs) over HTTP. To be
// hard on it, the first BENCH_LOST (100) were already sent once while the link dropped (the server
// took them, the answers were lost), and a second tab without the Web Lock replays the same outbox at
// the same time. Measured: the time from reconnect to an empty outbox (target < 30 s), beside the same
// number of scans sent online one at a time by one worker (the ratio replay / online). Checked: every
// key has exactly one movement (0 doubled, 0 lost), each record's quantity rose by its scans, and the
// ledger sums to on-hand. BENCH_ROUNDS (3) rounds; the medians at the end.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedDemo } from '../../apps/server/src/seed/demo.ts';
import { ledgerMismatches } from '../../apps/server/src/db/ledger-check.ts';
import { memoryStore, replayItems, type OutboxItem } from '../../apps/web/src/lib/offline/replay.ts';
import { BASE_BODY, benchDatabaseUrl, buildAndStartServer, httpPost, loadAverage, login, median } from '../server.mjs';

const DATABASE_URL: string = benchDatabaseUrl();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCANS = Number(process.env.BENCH_SCANS ?? 500);
const LOST = Number(process.env.BENCH_LOST ?? 100);
const TARGET_MS = 30_000;

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

async function send(
  base: string,
  token: string,
  path: string,
  args: Record<string, unknown>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await httpPost(agent, `${base}/api/${path}`, token, JSON.stringify({ ...BASE_BODY, ...args }));
  try {
    return { status: res.status, json: JSON.parse(res.text()) as Record<string, unknown> };
  } catch {
    return { status: res.status, json: {} };
  }
}

/** The demo records a worker would scan: not serial-tracked, so +1 is always allowed. */
async function records(): Promise<string[]> {
  const { rows } = await pool.query<{ stock_id: string }>(
    `SELECT sr.stock_id FROM stock_records sr JOIN items i ON i.id = sr.item_id WHERE sr.org_id = $1 AND i.tracking <> 'serial' ORDER BY sr.stock_id LIMIT 40`,
    [BASE_BODY.orgId],
  );
  if (rows.length === 0) throw new Error('no demo stock records to scan');
  return rows.map((r) => r.stock_id);
}

const quantities = async (ids: string[]): Promise<Map<string, number>> =>
  new Map(
    (
      await pool.query<{ stock_id: string; quantity: string }>(
        `SELECT stock_id, quantity::text FROM stock_records WHERE org_id = $1 AND stock_id = ANY($2)`,
        [BASE_BODY.orgId, ids],
      )
    ).rows.map((r) => [r.stock_id, Number(r.quantity)]),
  );

function scans(ids: string[], tag: string): { stockId: string; args: Record<string, unknown> }[] {
  return Array.from({ length: SCANS }, (_, n) => {
    const stockId = ids[n % ids.length]!;
    return {
      stockId,
      args: { idempotencyKey: `ob-${tag}-${n}-${randomUUID().slice(0, 8)}`, stockId, deltaType: 'delta', qty: 1, reason: 'Found' },
    };
  });
}

async function round(base: string, token: string, ids: string[], n: number) {
  // Online: one worker scanning with the server there, one answer before the next scan.
  const online = scans(ids, `on${n}`);
  const t0 = performance.now();
  for (const s of online) {
    const r = await send(base, token, 'stock/adjust', s.args);
    if (r.status !== 200) throw new Error(`online adjust: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  }
  const onlineMs = performance.now() - t0;

  // Offline: the same number of scans queued on the device.
  const queued = scans(ids, `off${n}`);
  const before = await quantities(ids);
  const store = memoryStore();
  for (const [i, s] of queued.entries()) {
    const item: OutboxItem = {
      id: s.args.idempotencyKey as string,
      seq: i,
      path: 'stock/adjust',
      args: s.args,
      label: `Adjust ${s.stockId} by 1`,
      person: { accountId: 'admin', name: 'Admin' },
      auth: { authToken: token, humanToken: null, orgId: BASE_BODY.orgId, siteId: BASE_BODY.siteId },
      deviceTime: new Date().toISOString(),
      state: 'queued',
      faults: 0,
    };
    await store.put(item);
  }
  // The link dropped after the server took the first ones: their answers never reached the device.
  for (const s of queued.slice(0, LOST)) await send(base, token, 'stock/adjust', s.args);

  const sender = (item: OutboxItem) => send(base, item.auth.authToken ?? '', item.path, item.args);
  const t1 = performance.now();
  // Reconnect: this tab replays, and a second tab without the lock replays the same outbox at once.
  const [a, b] = await Promise.all([
    replayItems(store, sender, { person: () => 'admin' }),
    replayItems(store, sender, { person: () => 'admin' }),
  ]);
  const replayMs = performance.now() - t1;
  const left = (await store.list()).length;

  const keys = queued.map((s) => s.args.idempotencyKey as string);
  const { rows } = await pool.query<{ key: string; n: number }>(
    `SELECT idempotency_key AS key, count(*)::int AS n FROM movements WHERE org_id = $1 AND idempotency_key = ANY($2) GROUP BY 1`,
    [BASE_BODY.orgId, keys],
  );
  const perKey = new Map(rows.map((r) => [r.key, r.n]));
  const doubled = keys.filter((k) => (perKey.get(k) ?? 0) > 1).length;
  const lost = keys.filter((k) => !perKey.has(k)).length;
  const after = await quantities(ids);
  const expected = new Map<string, number>();
  for (const s of queued) expected.set(s.stockId, (expected.get(s.stockId) ?? 0) + 1);
  const wrong = ids.filter((id) => (after.get(id) ?? 0) - (before.get(id) ?? 0) !== (expected.get(id) ?? 0));
  for (const id of wrong) console.log(`  ${id}: before ${before.get(id)}, after ${after.get(id)}, scans ${expected.get(id) ?? 0}`);
  const wrongQty = wrong.length;
  return { onlineMs, replayMs, left, doubled, lost, wrongQty, refused: a.refused + b.refused, sentByTabs: a.sent + b.sent };
}

const opened = await openDatabase({ databaseUrl: DATABASE_URL });
if (await seedDemo(opened.db)) console.log('demo organisation created in the bench database');
const server = await buildAndStartServer(DATABASE_URL);
try {
  const token = await login(server.base);
  const ids = await records();
  const results = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const r = await round(server.base, token, ids, n);
    results.push(r);
    console.log(
      `round ${n} (load ${loadAverage()}): ${SCANS} scans replayed in ${(r.replayMs / 1000).toFixed(2)} s (two tabs, ${LOST} already taken), online one by one ${(r.onlineMs / 1000).toFixed(2)} s, ratio ${(r.replayMs / r.onlineMs).toFixed(2)}; left ${r.left}, doubled ${r.doubled}, lost ${r.lost}, wrong quantities ${r.wrongQty}, refused ${r.refused}`,
    );
  }
  const mismatches = (await ledgerMismatches(opened.db)).length;
  const replay = median(results.map((r) => r.replayMs));
  const online = median(results.map((r) => r.onlineMs));
  const bad = results.reduce((s, r) => s + r.left + r.doubled + r.lost + r.wrongQty + r.refused, 0) + mismatches;
  console.log(
    `median of ${ROUNDS}: replay ${(replay / 1000).toFixed(2)} s (target < ${TARGET_MS / 1000} s), online ${(online / 1000).toFixed(2)} s, ratio ${(replay / online).toFixed(2)}; ledger mismatches ${mismatches}`,
  );
  console.log(replay < TARGET_MS && bad === 0 ? 'PASS' : 'FAIL');
  process.exitCode = replay < TARGET_MS && bad === 0 ? 0 : 1;
} finally {
  server.stop();
  agent.destroy();
  await pool.end();
  await opened.close();
}
