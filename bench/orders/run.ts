// Orders benchmark on PostgreSQL (docs/orders.md, Figures; bench/orders/README.md):
//
//   createdb -h 127.0.0.1 -U postgres fh_orders_bench
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/fh_orders_bench npm run bench:orders -w bench
//
// The database is the bench's own (migrated and given the demo organisation here, on first use); each
// round adds its own items, locations, stock and orders (prefix OB<run>), so rounds never share state.
// It builds and starts the server in production mode and talks to it over HTTP only, like the floor:
//
// 1. Pickers: BENCH_PICKERS (200) accounts, each logged in, share BENCH_ORDERS (50) orders of 20 lines
//    by lines (pick/claim of 5 lines each, four pickers to an order) over BENCH_ITEMS (40) items whose
//    stock (5 records of 20 in 5 locations each) is wanted by ~25 lines of different orders, more than
//    there is. Each picker scans a random record of its line's item (pick/confirm, 1 to 4 units, a new
//    key per scan; one scan in 8 is retried with the same key at once, as a wedge or a lost answer
//    does), shorts a line when no record of its item is left, until its lines are done. Three runs a
//    round: paced (each picker one confirm every BENCH_PACE_MS, 2,000: a busy floor, 100 picks/s;
//    target p99 < 50 ms), the paced run again beside BENCH_BUSY_CORES (1) busy-looping processes
//    (bench/server.mjs busyCores: one core busy, same target; BENCH_BUSY=0: not run), and flat out
//    (every picker at once, no pause: the contention test). Each run prints what /metrics saw.
//    After each: 0 over-picks (line and record), 0 lost or doubled movements (each key that got a pick
//    has exactly its 1 or 2 pick movements, each refused key none, each retry the same pick),
//    units conserved, ledger equal to on-hand (ledger-check).
// 2. A 5,000-line order: its pick list (pick/order, the picking screen's open-lines call; target < 300
//    ms, median of 5), then, with every line picked and packed in 10 packages (written with SQL as the
//    scans would have left them), ship/confirm of the whole order (target < 2 s).
// BENCH_ROUNDS (3) rounds; the medians at the end, and the figures as JSON for `npm run bench`.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedDemo } from '../../apps/server/src/seed/demo.ts';
import { ledgerMismatches } from '../../apps/server/src/db/ledger-check.ts';
import {
  BASE_BODY,
  buildAndStartServer,
  busyCores,
  httpPost,
  loadAverage,
  login,
  median,
  printFigures,
  serverMetrics,
} from '../server.mjs';
import { tailReport, watchBackends } from '../tail.mjs';
import {
  DATABASE_URL,
  ROUNDS,
  PICKERS,
  ORDERS,
  ITEMS,
  PACE_MS,
  BIG_LINES,
  LINES_PER_ORDER,
  RECORDS_PER_ITEM,
  RECORD_QTY,
  TARGET,
  ORG,
  AUDIT,
  pool,
  q,
  agent,
  post,
  must,
  inParallel,
  percentile,
  seconds,
  warehouse,
  stockUp,
  partOf,
  labelOf,
  placeOf,
} from './fixtures.ts';

// ---------------------------------------------------------------------------------------------
// 1. Pickers

interface Picker {
  userName: string;
  token: string;
}

async function pickers(base: string, adminToken: string): Promise<Picker[]> {
  const names = Array.from({ length: PICKERS }, (_, i) => `obpicker${String(i + 1).padStart(3, '0')}`);
  const existing = new Set(
    (await q<{ user_name: string }>(`SELECT user_name FROM accounts WHERE org_id = $1 AND user_name LIKE 'obpicker%'`, [ORG])).map(
      (r) => r.user_name,
    ),
  );
  await inParallel(
    names.filter((n) => !existing.has(n)),
    4,
    async (userName) => {
      await must(base, adminToken, 'admin/account/create', {
        account: { userName, firstName: 'Picker', surnames: userName.slice(8), email: '', badgeCode: '' },
        password: 'bench-pick-1',
        perms: [{ siteId: BASE_BODY.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
      });
    },
  );
  const out: Picker[] = [];
  await inParallel(names, 4, async (userName) => {
    const res = await post(base, '', 'auth/login', { userName, password: 'bench-pick-1', workstationId: 'WS0001', lifetimeSecs: 3600 });
    if (!res.body.authToken) throw new Error(`login ${userName}: ${JSON.stringify(res.body)}`);
    out.push({ userName, token: res.body.authToken });
  });
  return out;
}

interface LineWork {
  lineId: string;
  item: number;
  open: number;
  done: boolean;
  /** Records of the item this picker has found gone (refused: picked already, moved, not enough). */
  gone: Set<number>;
}
interface Outcome {
  key: string;
  scanned: string;
  status: number;
  pickId?: string;
  pickedStockId?: string;
  retryOf?: string;
}

async function pickRound(base: string, adminToken: string, team: Picker[], prefix: string, pace: number, cpuMs: () => number, busy = 0) {
  await stockUp(prefix, ITEMS, RECORDS_PER_ITEM, RECORD_QTY);
  const unitsBefore = Number(
    (
      await q<{ n: string }>(
        `SELECT sum(sr.quantity)::text AS n FROM stock_records sr JOIN items i ON i.id = sr.item_id WHERE i.part_number LIKE $1 || '-I%'`,
        [prefix],
      )
    )[0]!.n,
  );
  // Orders: line l of order o wants 3 to 8 of item (o * 7 + l) mod ITEMS + 1: every item is wanted by lines of several orders.
  const orders: Array<{ id: string; lines: Array<{ _id: string; lineNo: number }>; items: number[] }> = [];
  await inParallel(
    Array.from({ length: ORDERS }, (_, o) => o),
    4,
    async (o) => {
      const items = Array.from({ length: LINES_PER_ORDER }, (_, l) => ((o * 7 + l) % ITEMS) + 1);
      const res = await must(base, adminToken, 'order/save', {
        order: {
          type: 'sos',
          number: `${prefix}-SO${String(o + 1).padStart(3, '0')}`,
          warehouse: 'MAIN',
          customer: 'Bench',
          lines: items.map((item, l) => ({ lineNo: l + 1, partNumber: partOf(prefix, item), qty: 3 + ((o + l) % 6) })),
        },
      });
      orders[o] = { id: res.order._id, lines: res.order.lines, items };
    },
  );
  // Each picker claims its share of an order's lines: four pickers to an order, by lines.
  const perOrder = Math.max(1, Math.ceil(team.length / ORDERS));
  const share = Math.ceil(LINES_PER_ORDER / perOrder);
  const work = new Map<Picker, LineWork[]>();
  await inParallel(team, 8, async (picker, p) => {
    const o = p % ORDERS;
    const slot = Math.floor(p / ORDERS);
    const mine = orders[o]!.lines.slice(slot * share, slot * share + share);
    if (mine.length === 0) return work.set(picker, []) && undefined;
    await must(base, picker.token, 'pick/claim', { orderId: orders[o]!.id, lineIds: mine.map((l) => l._id) });
    const lineQty = (l: { lineNo: number }) => 3 + ((o + l.lineNo - 1) % 6);
    work.set(
      picker,
      mine.map((l) => ({ lineId: l._id, item: orders[o]!.items[l.lineNo - 1]!, open: lineQty(l), done: false, gone: new Set() })),
    );
  });

  const outcomes: Outcome[] = [];
  let refused = 0;
  let shorts = 0;
  let retries = 0;
  let retryMismatch = 0;
  let unexpected = 0;
  let firstUnexpected = '';
  const load = busy > 0 ? await busyCores(busy) : undefined; // while the pickers scan, not while the round is set up
  const seen = await serverMetrics(base);
  const backends = pace ? watchBackends(pool, 100) : undefined; // read beside the slow confirms' bursts
  const [started, timeline] = [performance.now(), [] as Array<{ at: number; ms: number }>];
  const cpuBefore = cpuMs();
  const picking = Promise.all(
    team.map(async (picker, p) => {
      let seed = p + 1 + prefix.length * 7919;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const lines = work.get(picker) ?? [];
      // Paced pickers start spread over one interval.
      if (pace) await new Promise((r) => setTimeout(r, random() * pace));
      let n = 0;
      while (lines.some((l) => !l.done)) {
        const line = lines.find((l) => !l.done)!;
        const left = Array.from({ length: RECORDS_PER_ITEM }, (_, r) => r + 1).filter((r) => !line.gone.has(r));
        const t0 = performance.now();
        if (left.length === 0) {
          const res = await post(base, picker.token, 'pick/short', {
            idempotencyKey: randomUUID(),
            lineId: line.lineId,
            reason: 'No stock left',
          });
          if (res.status !== 200) {
            unexpected++;
            firstUnexpected ||= `short ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
          } else shorts++;
          line.done = true;
        } else {
          const r = left[Math.floor(random() * left.length)]!;
          const qty = Math.min(line.open, 1 + Math.floor(random() * 4));
          const body = {
            idempotencyKey: randomUUID(),
            lineId: line.lineId,
            location: placeOf(prefix, line.item, r),
            scan: labelOf(prefix, line.item, r),
            qty,
          };
          const retry = n++ % 8 === 3;
          const sends = retry
            ? [post(base, picker.token, 'pick/confirm', body), post(base, picker.token, 'pick/confirm', body)]
            : [post(base, picker.token, 'pick/confirm', body)];
          const [res, again] = await Promise.all(sends);
          timeline.push({ at: t0 - started, ms: performance.now() - t0 });
          const outcome: Outcome = {
            key: body.idempotencyKey,
            scanned: body.scan,
            status: res!.status,
            pickId: res!.body.pick?._id,
            pickedStockId: res!.body.pick?.stockId,
          };
          outcomes.push(outcome);
          if (again) {
            retries++;
            // The retry answers what the first stored (or is refused the same way), never a second pick.
            if (again.status !== res!.status || again.body.pick?._id !== res!.body.pick?._id) retryMismatch++;
          }
          if (res!.status === 200) {
            line.open = res!.body.line.qty - res!.body.line.picked - res!.body.line.short;
            line.done = res!.body.line.status !== 'open';
          } else if (res!.status === 400) {
            refused++;
            line.gone.add(r); // picked already, moved to staging, or not enough left: try another record
          } else {
            unexpected++;
            firstUnexpected ||= `confirm ${res!.status} ${JSON.stringify(res!.body).slice(0, 200)}`;
            line.gone.add(r);
          }
        }
        if (pace) {
          const wait = pace - (performance.now() - t0);
          if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
        }
      }
    }),
  );
  await picking.finally(() => load?.stop());
  const backendSamples = (await backends?.stop()) ?? [];
  const server = await seen.since();
  const wall = (performance.now() - started) / 1000;
  const latencies = timeline.map((t) => t.ms);
  const cpuPerCall = (cpuMs() - cpuBefore) / (latencies.length + shorts + retries);

  // ---- The checks
  const keys = outcomes.map((o) => o.key);
  const movementsByKey = new Map(
    (
      await q<{ key: string; n: number }>(
        `SELECT idempotency_key AS key, count(*)::int AS n FROM movements WHERE idempotency_key = ANY($1) GROUP BY idempotency_key`,
        [keys],
      )
    ).map((r) => [r.key, r.n]),
  );
  let lostOrDoubled = 0;
  for (const o of outcomes) {
    const want = o.status === 200 ? (o.pickedStockId === o.scanned ? 1 : 2) : 0;
    if ((movementsByKey.get(o.key) ?? 0) !== want) lostOrDoubled++;
  }
  const picksMade = outcomes.filter((o) => o.status === 200).length;
  const [checks] = await q<{
    over_lines: number;
    lines_vs_picks: number;
    picks: number;
    double_picked: number;
    negative: number;
    units_after: string;
    picked_units: string;
    open_lines: number;
  }>(
    `WITH bl AS (SELECT ol.* FROM order_lines ol JOIN orders o ON o.id = ol.order_id WHERE o.org_id = $1 AND o.number LIKE $2 || '-SO%'),
      bp AS (SELECT p.* FROM order_picks p WHERE p.line_id IN (SELECT id FROM bl))
    SELECT (SELECT count(*)::int FROM bl WHERE qty_picked + qty_short > qty) AS over_lines,
      (SELECT count(*)::int FROM bl WHERE qty_picked <> coalesce((SELECT sum(qty) FROM bp WHERE bp.line_id = bl.id AND bp.state = 'picked'), 0)) AS lines_vs_picks,
      (SELECT count(*)::int FROM bp) AS picks,
      (SELECT count(*)::int FROM (SELECT stock_record_id FROM bp WHERE state = 'picked' GROUP BY stock_record_id HAVING count(*) > 1) d) AS double_picked,
      (SELECT count(*)::int FROM stock_records sr JOIN items i ON i.id = sr.item_id WHERE i.part_number LIKE $2 || '-I%' AND sr.quantity < 0) AS negative,
      (SELECT sum(sr.quantity)::text FROM stock_records sr JOIN items i ON i.id = sr.item_id WHERE i.part_number LIKE $2 || '-I%') AS units_after,
      (SELECT coalesce(sum(qty), 0)::text FROM bp) AS picked_units,
      (SELECT count(*)::int FROM bl WHERE status = 'open') AS open_lines`,
    [ORG, prefix],
  );
  const mismatches = (await ledgerMismatches(ledgerDb)).length;
  latencies.sort((a, b) => a - b);
  return {
    confirms: latencies.length,
    server,
    tail: pace ? tailReport(timeline, backendSamples, TARGET.pickP99Ms) : '',
    cpuPerCall,
    wall,
    rps: latencies.length / wall,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    picksMade,
    refused,
    shorts,
    retries,
    retryMismatch,
    unexpected,
    firstUnexpected,
    overPicks: checks!.over_lines + checks!.lines_vs_picks + checks!.double_picked + checks!.negative,
    pickRows: checks!.picks,
    lostOrDoubled: lostOrDoubled + Math.abs(checks!.picks - picksMade),
    unitsConserved: Number(checks!.units_after) === unitsBefore,
    pickedUnits: Number(checks!.picked_units),
    unitsBefore,
    openLines: checks!.open_lines,
    ledgerMismatches: mismatches,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. The 5,000-line order: its pick list, then ship confirm.

async function bigOrder(base: string, adminToken: string, prefix: string, cpuMs: () => number) {
  const { stagingId } = await warehouse();
  await stockUp(prefix, BIG_LINES, 2, 2);
  const number = `${prefix}-BIG`;
  const saved = performance.now();
  const res = await must(base, adminToken, 'order/save', {
    order: {
      type: 'sos',
      number,
      warehouse: 'MAIN',
      customer: 'Bench',
      lines: Array.from({ length: BIG_LINES }, (_, l) => ({ lineNo: l + 1, partNumber: partOf(prefix, l + 1), qty: 2 })),
    },
  });
  const saveMs = performance.now() - saved;
  const orderId: string = res.order._id;
  const listTimes: number[] = [];
  const listCpu: number[] = [];
  let listed = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const c0 = cpuMs();
    const list = await must(base, adminToken, 'pick/order', { number });
    listTimes.push(performance.now() - t0);
    listCpu.push(cpuMs() - c0);
    listed = list.lines.filter((l: { status: string; sources: unknown[] }) => l.status === 'open' && l.sources.length === 2).length;
  }
  // Every line picked (record 1 of its item moved whole to staging) and packed into 10 packages, as
  // the scans would have left them: the pick movement in the ledger, the pick row, the line picked.
  for (let k = 1; k <= 10; k++) {
    await q(
      `INSERT INTO packages (id, org_id, order_id, package_no, type, audit) VALUES (gen_random_uuid()::text, $1, $2, $3, 'pallet', ${AUDIT})`,
      [ORG, orderId, `${number}-${k}`],
    );
  }
  await q(
    `WITH src AS (
       SELECT ol.id AS line_id, ol.line_no, sr.id AS record_id, sr.location_id FROM order_lines ol
       JOIN stock_records sr ON sr.item_id = ol.item_id AND sr.stock_id LIKE '%-1'
       WHERE ol.order_id = $1),
     moved AS (UPDATE stock_records sr SET location_id = $2, _rev = sr._rev + 1 FROM src WHERE sr.id = src.record_id RETURNING sr.id),
     logged AS (INSERT INTO movements (org_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, account_id)
       SELECT $3, record_id, 'pick', 0, 2, location_id, $2, 'system' FROM src RETURNING id)
     INSERT INTO order_picks (id, org_id, order_id, line_id, stock_record_id, qty, from_location_id, to_location_id, account_id, package_id)
     SELECT gen_random_uuid()::text, $3, $1, src.line_id, src.record_id, 2, src.location_id, $2, 'system', pk.id
     FROM src JOIN packages pk ON pk.order_id = $1 AND pk.package_no = $4 || '-' || ((src.line_no - 1) % 10 + 1)`,
    [orderId, stagingId, ORG, number],
  );
  await q(`UPDATE order_lines SET qty_picked = qty, status = 'picked' WHERE order_id = $1`, [orderId]);
  await q(`UPDATE orders SET status = 'picked' WHERE id = $1`, [orderId]);
  await q('ANALYZE order_picks; ANALYZE stock_records; ANALYZE order_lines; ANALYZE packages');
  const t0 = performance.now();
  const c0 = cpuMs();
  const shipped = await must(base, adminToken, 'ship/confirm', { idempotencyKey: randomUUID(), orderId });
  const shipMs = performance.now() - t0;
  const shipCpuMs = cpuMs() - c0;
  const [left] = await q<{ n: number; moves: number }>(
    `SELECT (SELECT count(*)::int FROM order_picks WHERE order_id = $1 AND state = 'shipped') AS n,
       (SELECT count(*)::int FROM movements m JOIN order_picks p ON p.stock_record_id = m.stock_record_id WHERE p.order_id = $1 AND m.type = 'ship') AS moves`,
    [orderId],
  );
  return {
    saveMs,
    listMs: median(listTimes),
    listCpuMs: median(listCpu),
    listed,
    shipMs,
    shipCpuMs,
    orderStatus: shipped.orderStatus as string,
    shippedPicks: left!.n,
    shipMovements: left!.moves,
  };
}

// ---------------------------------------------------------------------------------------------

const opened = await openDatabase({ databaseUrl: DATABASE_URL });
const ledgerDb = opened.db;
if (await seedDemo(opened.db)) console.log('demo organisation created in the bench database');
const server = await buildAndStartServer(DATABASE_URL);
const ok = (v: boolean) => (v ? 'met' : 'NOT MET');
const BUSY_CORES = process.env.BENCH_BUSY === '0' ? 0 : Number(process.env.BENCH_BUSY_CORES ?? 1);
try {
  const adminToken = await login(server.base);
  const t0 = performance.now();
  const team = await pickers(server.base, adminToken);
  console.log(
    `${team.length} pickers logged in (${seconds(t0)} s); ${ORDERS} orders of ${LINES_PER_ORDER} lines over ${ITEMS} items (${RECORDS_PER_ITEM} records of ${RECORD_QTY} each) per run`,
  );
  const runTag = Date.now().toString(36).toUpperCase().slice(-5);
  const paced: Awaited<ReturnType<typeof pickRound>>[] = [];
  const busy: Awaited<ReturnType<typeof pickRound>>[] = [];
  const flat: Awaited<ReturnType<typeof pickRound>>[] = [];
  const big: Awaited<ReturnType<typeof bigOrder>>[] = [];
  const show = (name: string, r: Awaited<ReturnType<typeof pickRound>>) =>
    console.log(
      `  ${name}: ${r.confirms} confirms in ${r.wall.toFixed(1)} s (${Math.round(r.rps)}/s)  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms, server CPU ${r.cpuPerCall.toFixed(1)} ms per call\n` +
        `    ${r.picksMade} picks (${r.pickedUnits} of ${r.unitsBefore} units), ${r.refused} refused (stock gone), ${r.shorts} shorts, ${r.retries} retried scans (${r.retryMismatch} answered differently), ${r.unexpected} unexpected${r.firstUnexpected ? ` (${r.firstUnexpected})` : ''}\n` +
        `    over-picks ${r.overPicks}, lost or doubled movements ${r.lostOrDoubled}, units conserved ${r.unitsConserved ? 'yes' : 'NO'}, open lines left ${r.openLines}, ledger mismatches ${r.ledgerMismatches}\n` +
        `    ${r.server.describe()}` +
        (r.tail ? `\n    ${r.tail}` : ''),
    );
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}, load average ${loadAverage()}`);
    const a = await pickRound(server.base, adminToken, team, `OB${runTag}P${round}`, PACE_MS, server.cpuMs);
    show(`paced (${PICKERS} pickers, one confirm every ${PACE_MS} ms each)`, a);
    paced.push(a);
    if (BUSY_CORES > 0) {
      const d = await pickRound(server.base, adminToken, team, `OB${runTag}C${round}`, PACE_MS, server.cpuMs, BUSY_CORES);
      show(`paced (${PICKERS} pickers, one confirm every ${PACE_MS} ms each), ${BUSY_CORES} core(s) kept busy`, d);
      busy.push(d);
    }
    const b = await pickRound(server.base, adminToken, team, `OB${runTag}F${round}`, 0, server.cpuMs);
    show(`flat out (${PICKERS} pickers at once)`, b);
    flat.push(b);
    const c = await bigOrder(server.base, adminToken, `OB${runTag}B${round}`, server.cpuMs);
    console.log(
      `  ${BIG_LINES}-line order: saved in ${c.saveMs.toFixed(0)} ms; pick list (pick/order) median of 5 ${c.listMs.toFixed(0)} ms, server CPU ${c.listCpuMs.toFixed(0)} ms (${c.listed} open lines with their 2 records); ship/confirm ${c.shipMs.toFixed(0)} ms, server CPU ${c.shipCpuMs.toFixed(0)} ms -> ${c.orderStatus}, ${c.shippedPicks} picks shipped, ${c.shipMovements} ship movements`,
    );
    big.push(c);
  }
  const m = <T>(list: T[], f: (x: T) => number) => median(list.map(f));
  const sum = <T>(list: T[], f: (x: T) => number) => list.reduce((s, x) => s + f(x), 0);
  const all = [...paced, ...busy, ...flat];
  console.log(`median of ${ROUNDS} rounds (load average now ${loadAverage()}; 2 shared cores):`);
  console.log(
    `  pick/confirm paced, ${PICKERS} pickers: p50 ${m(paced, (r) => r.p50).toFixed(1)} ms, p95 ${m(paced, (r) => r.p95).toFixed(1)} ms, p99 ${m(paced, (r) => r.p99).toFixed(1)} ms (target p99 < ${TARGET.pickP99Ms} ms: ${ok(m(paced, (r) => r.p99) < TARGET.pickP99Ms)}), ${Math.round(m(paced, (r) => r.rps))} confirms/s`,
  );
  if (busy.length)
    console.log(
      `  pick/confirm paced, ${PICKERS} pickers, ${BUSY_CORES} core(s) kept busy: p50 ${m(busy, (r) => r.p50).toFixed(1)} ms, p95 ${m(busy, (r) => r.p95).toFixed(1)} ms, p99 ${m(busy, (r) => r.p99).toFixed(1)} ms (target p99 < ${TARGET.pickP99Ms} ms: ${ok(m(busy, (r) => r.p99) < TARGET.pickP99Ms)}), ${Math.round(m(busy, (r) => r.rps))} confirms/s`,
    );
  console.log(
    `  pick/confirm flat out, ${PICKERS} pickers: p50 ${m(flat, (r) => r.p50).toFixed(1)} ms, p95 ${m(flat, (r) => r.p95).toFixed(1)} ms, p99 ${m(flat, (r) => r.p99).toFixed(1)} ms, ${Math.round(m(flat, (r) => r.rps))} confirms/s`,
  );
  console.log(
    `  all ${all.length} runs: over-picks ${sum(all, (r) => r.overPicks)}, lost or doubled movements ${sum(all, (r) => r.lostOrDoubled)}, retries answered differently ${sum(all, (r) => r.retryMismatch)} of ${sum(all, (r) => r.retries)}, units not conserved ${all.filter((r) => !r.unitsConserved).length}, ledger mismatches ${sum(all, (r) => r.ledgerMismatches)}, unexpected answers ${sum(all, (r) => r.unexpected)}`,
  );
  console.log(
    `  ${BIG_LINES}-line pick list (pick/order): ${m(big, (r) => r.listMs).toFixed(0)} ms (target < ${TARGET.pickListMs} ms: ${ok(m(big, (r) => r.listMs) < TARGET.pickListMs)}), server CPU ${m(big, (r) => r.listCpuMs).toFixed(0)} ms`,
  );
  console.log(
    `  ${BIG_LINES}-line ship/confirm: ${m(big, (r) => r.shipMs).toFixed(0)} ms (target < ${TARGET.shipMs} ms: ${ok(m(big, (r) => r.shipMs) < TARGET.shipMs)}), server CPU ${m(big, (r) => r.shipCpuMs).toFixed(0)} ms`,
  );
  console.log(`  requests sent again after the server closed an idle kept-alive socket: ${httpPost.resent}`);
  printFigures('orders', {
    rounds: ROUNDS,
    pickers: PICKERS,
    paceMs: PACE_MS,
    bigLines: BIG_LINES,
    pickP99: m(paced, (r) => r.p99),
    pickP50: m(paced, (r) => r.p50),
    busyPickP99: busy.length ? m(busy, (r) => r.p99) : null,
    busyPickP50: busy.length ? m(busy, (r) => r.p50) : null,
    flatRps: m(flat, (r) => r.rps),
    flatP99: m(flat, (r) => r.p99),
    pickListMs: m(big, (r) => r.listMs),
    shipMs: m(big, (r) => r.shipMs),
    faults:
      sum(all, (r) => r.overPicks + r.lostOrDoubled + r.retryMismatch + r.ledgerMismatches + r.unexpected) +
      all.filter((r) => !r.unitsConserved).length,
    target: TARGET,
  });
} finally {
  server.stop();
  agent.destroy();
  await pool.end();
  await opened.close();
}
