// Physical inventory benchmark (docs/physical-inventory.md, Figures): a count sheet of BENCH_LINES
// (20,000) lines is sent to review, opened for review, refused with every line invalid (all reported in
// one answer), then posted. Runs the whole app in process on a fresh database each run, BENCH_RUNS
// (3) runs, and prints each run and the medians: on the embedded PGlite, and with DATABASE_URL on
// PostgreSQL too, in the same invocation (targets: post < 5 s, review open < 500 ms).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:counts -w bench   (both)
//   npm run bench:counts -w bench                       (PGlite only)
//   BENCH_ENGINES=pg … (PostgreSQL only), BENCH_ENGINES=pglite … (PGlite only)
//
// The stock records (with their receive movements) and the count lines are written with SQL, as
// counters' scans would have left them (each line anchored at its record's last movement); the
// calls measured go through the API: submit, review, post.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { postRefusalSchema } from '@floorhand/contract/counts';
import { call, createTestApp } from '../../apps/server/src/test/harness.ts';
import { demoLogin } from '../../apps/server/src/test/logins.ts';
import { ledgerMismatches } from '../../apps/server/src/db/ledger-check.ts';

const LINES = Number(process.env.BENCH_LINES ?? 20_000);
const PER_LOCATION = 40;
const TARGET = { postMs: 5000, reviewMs: 500 };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PG_URL = process.env.DATABASE_URL;

interface Figures {
  submitMs: number;
  reviewMs: number;
  refusedMs: number;
  invalid: number;
  postMs: number;
  movements: number;
}

const timed = async <T>(what: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const out = await what();
  return [out, performance.now() - start];
};

async function once(engine: string): Promise<Figures> {
  const t = await createTestApp();
  const run = (q: ReturnType<typeof sql>) => t.db.execute(q);
  const rowsOf = async <T>(q: ReturnType<typeof sql>) => ((await t.db.execute(q)) as unknown as { rows: T[] }).rows;
  try {
    const { token, login } = await demoLogin(t.app, 'admin');
    const adminId = login.user!.id;
    const locations = Math.ceil(LINES / PER_LOCATION);
    const [, setupMs] = await timed(async () => {
      await run(sql`INSERT INTO locations (id, org_id, warehouse_id, code, description, type, audit)
        SELECT gen_random_uuid()::text, 'demo', w.id, 'BC-' || lpad(g::text, 5, '0'), 'bench', 'bin', '{}'::jsonb
        FROM warehouses w, generate_series(1, ${locations}) g WHERE w.org_id = 'demo' AND w.code = 'MAIN'`);
      await run(sql`INSERT INTO stock_records (id, org_id, stock_id, item_id, warehouse_id, location_id, quantity, audit)
        SELECT gen_random_uuid()::text, 'demo', 'BS' || lpad(g::text, 8, '0'), i.id, l.warehouse_id, l.id, 100, '{}'::jsonb
        FROM generate_series(1, ${LINES}) g
        JOIN locations l ON l.org_id = 'demo' AND l.code = 'BC-' || lpad((((g - 1) / ${PER_LOCATION}) + 1)::text, 5, '0')
        CROSS JOIN LATERAL (SELECT id FROM items WHERE org_id = 'demo' AND tracking = 'none' AND active ORDER BY part_number LIMIT 1) i`);
      await run(sql`INSERT INTO movements (org_id, stock_record_id, type, qty_delta, qty_after, to_location_id, account_id)
        SELECT 'demo', sr.id, 'receive', 100, 100, sr.location_id, 'system' FROM stock_records sr WHERE sr.stock_id LIKE 'BS%'`);
    });

    const created = await call(
      t.app,
      'counts/sheet/create',
      { warehouse: 'MAIN', fromLocation: 'BC-00000', toLocation: 'BC-99999', description: 'bench' },
      token,
    );
    const sheet = created.body.sheet!;
    await call(t.app, 'counts/sheet/start', { sheetId: sheet._id }, token);
    // The counters' scans: every location visited, every record counted at 100 ± 3, anchored at its last movement.
    await run(
      sql`UPDATE count_sheet_locations SET visited_movement_id = (SELECT max(id) FROM movements), visited_by = ${adminId} WHERE sheet_id = ${sheet._id}`,
    );
    await run(sql`INSERT INTO count_lines (id, org_id, sheet_id, location_id, stock_record_id, item_id, stock_label, anchor_movement_id, system_qty, counted, counted_by)
      SELECT gen_random_uuid()::text, 'demo', ${sheet._id}, sr.location_id, sr.id, sr.item_id, sr.stock_id,
        (SELECT max(m.id) FROM movements m WHERE m.stock_record_id = sr.id), sr.quantity, sr.quantity + (substr(sr.stock_id, 3)::int % 7) - 3, ${adminId}
      FROM stock_records sr WHERE sr.stock_id LIKE 'BS%'`);
    // Some stock moves after its scan: 100 records lose 5.
    await run(sql`WITH picked AS (
        UPDATE stock_records SET quantity = quantity - 5, _rev = _rev + 1 WHERE stock_id IN (SELECT 'BS' || lpad((g * 97)::text, 8, '0') FROM generate_series(1, 100) g) RETURNING id, quantity
      ) INSERT INTO movements (org_id, stock_record_id, type, qty_delta, qty_after, account_id, reason) SELECT 'demo', id, 'pick', -5, quantity, 'system', 'bench' FROM picked`);

    // As autovacuum would have by then: the planner's statistics of the tables just filled.
    if (engine === 'PostgreSQL') await run(sql`ANALYZE`);
    const [submitted, submitMs] = await timed(() => call(t.app, 'counts/sheet/submit', { sheetId: sheet._id }, token));
    if (submitted.status !== 200) throw new Error(`submit: ${JSON.stringify(submitted.body)}`);
    const reviewTimes: number[] = [];
    let summary: unknown;
    for (let i = 0; i < 5; i++) {
      const [res, ms] = await timed(() => call(t.app, 'counts/review', { sheetId: sheet._id, limit: 200 }, token));
      if (res.status !== 200) throw new Error(`review: ${JSON.stringify(res.body)}`);
      summary = res.body.summary;
      reviewTimes.push(ms);
    }
    const reviewMs = reviewTimes.sort((a, b) => a - b)[2]!;
    if (process.env.BENCH_PARTS) {
      const repo = {
        ...(await import('../../apps/server/src/modules/counts/sheet-repository.ts')),
        ...(await import('../../apps/server/src/modules/counts/post-repository.ts')),
      };
      for (let i = 0; i < 2; i++) {
        console.log('sheet', (await timed(() => repo.sheetById(t.db, 'demo', sheet._id)))[1].toFixed(0));
        console.log('summary', (await timed(() => repo.reviewSummary(t.db, sheet._id)))[1].toFixed(0));
        console.log('lines', (await timed(() => repo.reviewLines(t.db, sheet._id, false, 0, 201)))[1].toFixed(0));
        console.log('byLocation', (await timed(() => repo.varianceByLocation(t.db, sheet._id, 15)))[1].toFixed(0));
      }
    }

    // Every line invalid: one answer lists them all, and nothing is booked.
    await run(sql`UPDATE count_lines SET status = 'recount' WHERE sheet_id = ${sheet._id}`);
    const [refused, refusedMs] = await timed(() =>
      call(t.app, 'counts/post', { idempotencyKey: `bench-refused-${Date.now()}`, sheetId: sheet._id }, token),
    );
    const invalid = postRefusalSchema.parse(JSON.parse(refused.body.err?.detail ?? '{"invalid":[]}')).invalid.length;
    await run(sql`UPDATE count_lines SET status = 'counted' WHERE sheet_id = ${sheet._id}`);

    const [posted, postMs] = await timed(() =>
      call(t.app, 'counts/post', { idempotencyKey: `bench-post-${Date.now()}`, sheetId: sheet._id }, token),
    );
    if (posted.status !== 200) throw new Error(`post: ${JSON.stringify(posted.body).slice(0, 500)}`);
    const mismatches = await ledgerMismatches(t.db);
    const [moved] = await rowsOf<{ q: string }>(sql`SELECT quantity::text AS q FROM stock_records WHERE stock_id = 'BS00000097'`);

    const ok = (v: boolean) => (v ? 'met' : 'NOT MET');
    console.log(`physical inventory on ${engine}: ${LINES} lines in ${locations} locations (setup ${(setupMs / 1000).toFixed(1)} s)`);
    console.log(`  submit (not-found lines, thresholds): ${submitMs.toFixed(0)} ms`);
    console.log(
      `  review open (summary + 200 lines), median of 5: ${reviewMs.toFixed(0)} ms  target < ${TARGET.reviewMs} ms: ${ok(reviewMs < TARGET.reviewMs)}`,
    );
    console.log(`  refused post: ${refused.status}, ${invalid} invalid lines in one answer, ${refusedMs.toFixed(0)} ms`);
    console.log(
      `  post: ${posted.body.movements} count movements in ${postMs.toFixed(0)} ms  target < ${TARGET.postMs} ms: ${ok(postMs < TARGET.postMs)}`,
    );
    console.log(
      `  a record picked 5 after its scan, counted 103 of 100 then: ${moved?.q} (100 - 5 + 3 = 98); ledger mismatches: ${mismatches.length}`,
    );
    console.log(`  summary: ${JSON.stringify(summary)}`);
    return { submitMs, reviewMs, refusedMs, invalid, postMs, movements: posted.body.movements ?? 0 };
  } finally {
    await t.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wanted = process.env.BENCH_ENGINES ?? (PG_URL ? 'pglite,pg' : 'pglite');
const engines = wanted.split(',').map((e) => (e.trim() === 'pg' ? 'PostgreSQL' : 'PGlite'));
if (engines.includes('PostgreSQL') && !PG_URL) throw new Error('BENCH_ENGINES=pg needs DATABASE_URL');
const results = new Map<string, Figures[]>();
for (let i = 0; i < RUNS; i++) {
  for (const engine of engines) {
    // createTestApp makes a fresh PostgreSQL database from DATABASE_URL, or a PGlite without it.
    if (engine === 'PostgreSQL') process.env.DATABASE_URL = PG_URL;
    else delete process.env.DATABASE_URL;
    console.log(`run ${i + 1} of ${RUNS}, ${engine}`);
    results.set(engine, [...(results.get(engine) ?? []), await once(engine)]);
  }
}
const ok = (v: boolean) => (v ? 'met' : 'NOT MET');
console.log(`\nmedians of ${RUNS} runs (${LINES} lines; a 2-core machine shared with other work: figures vary):`);
console.log(`${'engine'.padEnd(11)} ${'submit'.padStart(9)} ${'review'.padStart(9)} ${'refused post'.padStart(22)} ${'post'.padStart(24)}`);
for (const [engine, figures] of results) {
  const m = (k: keyof Figures) => median(figures.map((f) => f[k]));
  console.log(
    `${engine.padEnd(11)} ${`${m('submitMs').toFixed(0)} ms`.padStart(9)} ${`${m('reviewMs').toFixed(0)} ms`.padStart(9)} ${`${m('invalid')} lines, ${m('refusedMs').toFixed(0)} ms`.padStart(22)} ${`${m('movements')} mv, ${(m('postMs') / 1000).toFixed(2)} s`.padStart(24)}` +
      `   review < ${TARGET.reviewMs} ms: ${ok(m('reviewMs') < TARGET.reviewMs)}, post < ${TARGET.postMs / 1000} s: ${ok(m('postMs') < TARGET.postMs)}, every invalid line in one answer: ${ok(m('invalid') === LINES)}`,
  );
  console.log(
    `${''.padEnd(11)} runs: review ${figures.map((f) => f.reviewMs.toFixed(0)).join(' / ')} ms, post ${figures.map((f) => (f.postMs / 1000).toFixed(2)).join(' / ')} s`,
  );
}
