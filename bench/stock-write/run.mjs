#!/usr/bin/env node
// Stock write benchmark on PostgreSQL (docs/inventory.md, Benchmark). Needs the large data set:
//   DATABASE_URL=postgres://…/floorhand_bench npm run seed:large
//   DATABASE_URL=postgres://…/floorhand_bench npm run bench:stock-write -w bench
// Builds and starts the server against DATABASE_URL and sends stock/adjust (+1, reason Found) and
// stock/move (the whole record to another location of its warehouse), alternately, each with a new
// idempotency key, from 50 concurrent clients (BENCH_CLIENTS); each client owns its own records, so
// no two clients wait on one row lock. Per round: (1) the API at a fixed BENCH_RATE writes/s (100:
// two a second per client, a busy floor; target p99 < 30 ms), (2) the API flat out, (3) the same
// statements as the server runs for each write (the reads before the transaction, the transaction,
// the read after it) through a plain `pg` pool of the server's size, flat out. Prints writes/s, p50
// and p99 of each, the server's CPU per write, and the ratio (2) / (3) (target ≥ 0.5); BENCH_ROUNDS
// rounds (3), then the medians. (4) the plain client at BENCH_RATE too: the p99 the machine itself gives.
// Every write adds a movement (and a move changes a record's place) in the benchmark database.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { BASE_BODY, benchDatabaseUrl, buildAndStartServer, jsonPoster, loadAverage, login, median, serverPoolSize } from '../server.mjs';

const DATABASE_URL = benchDatabaseUrl();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const TARGET = { p99Ms: 30, ratio: 0.5 };
const ORG = BASE_BODY.orgId;
const SITE = BASE_BODY.siteId;

// ---------------------------------------------------------------------------------------------
// What the clients change: records of the large set (not serial-tracked), dealt out to the clients.

async function sample(pool) {
  const { rows: records } = await pool.query(
    `SELECT sr.id, sr.stock_id, w.code AS warehouse, sr.warehouse_id, sr.location_id
     FROM stock_records sr JOIN items i ON i.id = sr.item_id JOIN warehouses w ON w.id = sr.warehouse_id
     WHERE sr.org_id = $1 AND w.code LIKE 'LG%' AND i.tracking <> 'serial' AND sr.quantity > 0
     ORDER BY md5(sr.id) LIMIT 20000`,
    [ORG],
  );
  const { rows: locations } = await pool.query(
    `SELECT l.id, l.code, w.code AS warehouse FROM locations l JOIN warehouses w ON w.id = l.warehouse_id
     WHERE w.org_id = $1 AND w.code LIKE 'LG%' AND l.active AND l.type IN ('shelf', 'floor')`,
    [ORG],
  );
  const byWarehouse = new Map();
  for (const l of locations) {
    if (!byWarehouse.has(l.warehouse)) byWarehouse.set(l.warehouse, []);
    byWarehouse.get(l.warehouse).push(l);
  }
  if (records.length < CLIENTS * 10) throw new Error(`only ${records.length} records to change: run npm run seed:large first`);
  return { records, byWarehouse };
}

/** One client's work: its records in turn, adjust and move alternately; `place` follows the moves. */
function clientWork(data, client) {
  const mine = data.records.filter((_, i) => i % CLIENTS === client);
  let n = 0;
  let seed = client + 1;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return {
    next() {
      const record = mine[n % mine.length];
      const kind = n++ % 2 === 0 ? 'adjust' : 'move';
      if (kind === 'adjust') return { kind, record, body: { stockId: record.stock_id, deltaType: 'delta', qty: 1, reason: 'Found' } };
      const places = data.byWarehouse.get(record.warehouse);
      let to = places[Math.floor(random() * places.length)];
      if (to.id === record.location_id) to = places[(places.indexOf(to) + 1) % places.length];
      return { kind, record, to, body: { stockId: record.stock_id, toWarehouse: record.warehouse, toLocation: to.code } };
    },
    done(work) {
      if (work.kind === 'move') work.record.location_id = work.to.id;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Load: CLIENTS workers, flat out or together at `rate` requests/s; latencies of every request.

async function drive(data, rate, send) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const worker = async (client) => {
    const work = clientWork(data, client);
    // At a fixed rate each client sends every CLIENTS / rate seconds, the clients spread over the interval.
    const interval = rate ? (1000 * CLIENTS) / rate : 0;
    let due = started + (interval * client) / CLIENTS;
    while (performance.now() < until) {
      if (interval) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due += interval;
        if (performance.now() >= until) break;
      }
      const w = work.next();
      const t0 = performance.now();
      try {
        await send(w);
        work.done(w);
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => worker(c)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  if (firstError) console.log(`    first error: ${firstError.message}`);
  return { rps: latencies.length / seconds, p50: at(50), p99: at(99), total: latencies.length, errors };
}

// ---------------------------------------------------------------------------------------------
// The API

const post = jsonPoster(CLIENTS);

async function apiRun(server, token, data, rate) {
  const cpuBefore = server.cpuMs();
  const result = await drive(data, rate, (w) => post(server.base, token, `stock/${w.kind}`, { idempotencyKey: randomUUID(), ...w.body }));
  return { ...result, cpuMsPerRequest: (server.cpuMs() - cpuBefore) / result.total };
}

// ---------------------------------------------------------------------------------------------
// The same statements through a plain pg pool: what the server runs for one adjust or whole move
// (apps/server/src/modules/stock/service.ts, repository.ts, lib/idempotent-write.ts), with
// the same texts, parameters and transaction; the answer stored under the key is the rows as JSON.

const STOCK_SELECT = `SELECT sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.condition_code, sr.lot, sr.serial,
  sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, to_char(sr.changed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS changed_at,
  i.id AS item_id, i.part_number, i.description, i.uom, i.department, i.tracking,
  w.id AS warehouse_id, w.code AS warehouse, l.id AS location_id, l.code AS location, sr.audit
FROM stock_records sr
CROSS JOIN LATERAL (SELECT id, part_number, description, uom, department, tracking FROM items WHERE id = sr.item_id LIMIT 1) i
CROSS JOIN LATERAL (SELECT id, code FROM locations WHERE id = sr.location_id LIMIT 1) l
CROSS JOIN LATERAL (SELECT id, code FROM warehouses WHERE id = sr.warehouse_id LIMIT 1) w
WHERE sr.org_id = $1 AND sr.id = ANY($2)`;
const MOVEMENT_SELECT = `SELECT m.id::text AS id, m.type, sr.stock_id, m.qty_delta::text AS qty_delta, m.qty_after::text AS qty_after,
  fw.code AS from_warehouse, fl.code AS from_location, tw.code AS to_warehouse, tl.code AS to_location, m.reason, rs.stock_id AS related_stock_id,
  m.account_id, a.user_name, to_char(m.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
FROM movements m
JOIN stock_records sr ON sr.id = m.stock_record_id
LEFT JOIN locations fl ON fl.id = m.from_location_id LEFT JOIN warehouses fw ON fw.id = fl.warehouse_id
LEFT JOIN locations tl ON tl.id = m.to_location_id LEFT JOIN warehouses tw ON tw.id = tl.warehouse_id
LEFT JOIN stock_records rs ON rs.id = m.related_stock_record_id
LEFT JOIN accounts a ON a.id = m.account_id
WHERE m.id = ANY($1::bigint[]) ORDER BY m.id`;
const LOCK = `SELECT sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.item_id, i.tracking, sr.warehouse_id, sr.location_id,
  sr.condition_code, sr.lot, sr.serial, sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, sr.audit
FROM stock_records sr JOIN items i ON i.id = sr.item_id
WHERE sr.org_id = $1 AND sr.stock_id = $2
FOR UPDATE OF sr`;
// changeStock: the record's change and its movement in one statement.
const CHANGE = `WITH changed AS (UPDATE stock_records SET quantity = $1::numeric,
      location_id = coalesce($2::text, location_id), warehouse_id = coalesce($3::text, warehouse_id),
      changed_at = now(), _rev = _rev + 1, audit = $4::jsonb
    WHERE id = $5) INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, related_stock_record_id, account_id, idempotency_key)
      SELECT $6::text, $7::text, u.stock_record_id, u.type, u.qty_delta, u.qty_after, u.from_location_id, u.to_location_id, u.reason, u.related,
        $8::text, $9::text
      FROM unnest($10::text[], $11::text[], $12::numeric[],
        $13::numeric[], $14::text[], $15::text[],
        $16::text[], $17::text[])
        WITH ORDINALITY AS u(stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, related, n)
      ORDER BY u.n
      RETURNING id::text AS id`;
// stockAndMovementsByIds: the answer in one statement.
const ANSWER = `SELECT (SELECT json_agg(s) FROM (${STOCK_SELECT}) s) AS stock,
      (SELECT json_agg(mv ORDER BY mv.id::bigint) FROM (${MOVEMENT_SELECT.replace('$1::bigint[]', '$3::bigint[]').replace(' ORDER BY m.id', '')}) mv) AS movements`;

function plainWrite(pool, who) {
  return async (w) => {
    const key = randomUUID();
    const audit = JSON.stringify({
      create: { user: who.accountId, ts: new Date().toISOString() },
      modify: { user: who.accountId, ts: new Date().toISOString() },
    });
    // Before the transaction: the adjust reasons (feature access is remembered with the token's
    // authentication, so a write no longer reads it).
    if (w.kind === 'adjust')
      await pool.query(
        'select "_id", "_rev", "site_id", "section", "data_id", "data", "audit" from "site_data" where ("site_data"."site_id" = $1 and "site_data"."section" = $2 and "site_data"."data_id" = $3)',
        [SITE, 'conf', 'app_settings'],
      );
    const client = await pool.connect();
    try {
      await client.query('begin');
      // idempotentWrite: the key's lock, then its stored answer.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${ORG}|${key}`]);
      await client.query(
        'select "org_id", "key", "call", "request_hash", "response", "account_id", "created_at" from "idempotency_keys" where ("idempotency_keys"."org_id" = $1 and "idempotency_keys"."key" = $2)',
        [ORG, key],
      );
      const [row] = (await client.query(LOCK, [ORG, w.record.stock_id])).rows;
      // After the lock: is it picked for an order (stock/repository.ts pickedFor)?
      await client.query(
        `SELECT o.number FROM order_picks op JOIN orders o ON o.id = op.order_id WHERE op.stock_record_id = $1 AND op.state = 'picked'`,
        [row.id],
      );
      let move;
      if (w.kind === 'move') {
        const [target] = (
          await client.query(
            `SELECT l.id, l.warehouse_id AS "warehouseId", w.code AS warehouse, l.code, l.active, w.active AS "warehouseActive"
            FROM unnest($1::text[], $2::text[]) AS u(w, c)
            JOIN warehouses w ON w.org_id = $3 AND w.code = u.w
            JOIN locations l ON l.warehouse_id = w.id AND l.code = u.c`,
            [[w.record.warehouse], [w.to.code], ORG],
          )
        ).rows;
        await client.query(
          'SELECT l.active AND w.active AS active FROM locations l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.id = $1 FOR SHARE OF l',
          [target.id],
        );
        move = target;
      }
      const before = row.quantity;
      const after = w.kind === 'adjust' ? String(Number(before) + 1) : before;
      const movement = [
        [row.id],
        [w.kind],
        [w.kind === 'adjust' ? '1' : '0'],
        [after],
        [row.location_id],
        [move?.id ?? row.location_id],
        [w.kind === 'adjust' ? 'Found' : null],
        [null],
      ];
      const ids = (
        await client.query(CHANGE, [
          after,
          move?.id ?? null,
          move?.warehouseId ?? null,
          audit,
          row.id,
          ORG,
          SITE,
          who.accountId,
          key,
          ...movement,
        ])
      ).rows.map((r) => r.id);
      const [{ stock, movements }] = (await client.query(ANSWER, [ORG, [row.id], ids])).rows;
      await client.query(
        'insert into "idempotency_keys" ("org_id", "key", "call", "request_hash", "response", "account_id", "created_at") values ($1, $2, $3, $4, $5, $6, default)',
        [ORG, key, `stock/${w.kind}`, 'a'.repeat(64), JSON.stringify({ stock: stock[0], movements }), who.accountId],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    // After commit: the organisation's sites, to tell them what changed.
    await pool.query('select "id" from "sites" where "sites"."org_id" = $1', [ORG]);
  };
}

// ---------------------------------------------------------------------------------------------

const fmt = (r) =>
  `${Math.round(r.rps).toString().padStart(6)} writes/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  (r.cpuMsPerRequest === undefined ? '' : `   server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/write`) +
  `   (${r.total} done, ${r.errors} errors)`;

const server = await buildAndStartServer(DATABASE_URL);
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: await serverPoolSize(server) });
try {
  const data = await sample(pool);
  const token = await login(server.base);
  const { rows: who } = await pool.query(
    `SELECT a.id AS "accountId" FROM accounts a JOIN account_perms p ON p.account_id = a.id AND p.site_id = $1 WHERE a.org_id = $2 AND a.user_name = 'admin'`,
    [SITE, ORG],
  );
  const { rows: counted } = await pool.query(`SELECT count(*)::int AS n FROM stock_records WHERE org_id = $1`, [ORG]);
  console.log(
    `stock/adjust and stock/move, alternately, on ${counted[0].n.toLocaleString('en')} stock records; ${CLIENTS} clients over ${data.records.length} records, ${SECONDS} s per run, ${ROUNDS} rounds`,
  );
  await apiRun(server, token, data, 0); // warm-up: JIT, caches, pool
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}, load average ${loadAverage()}`);
    const fixed = await apiRun(server, token, data, RATE);
    console.log(`  API at ${RATE}/s      ${fmt(fixed)}`);
    const api = await apiRun(server, token, data, 0);
    console.log(`  API flat out       ${fmt(api)}`);
    const plain = await drive(data, 0, plainWrite(pool, who[0]));
    console.log(`  plain pg           ${fmt(plain)}`);
    // The machine's floor for the latency target: the same statements at the same rate, no server.
    const plainFixed = await drive(data, RATE, plainWrite(pool, who[0]));
    console.log(`  plain pg at ${RATE}/s ${fmt(plainFixed)}`);
    rounds.push({
      ratio: api.rps / plain.rps,
      p99: fixed.p99,
      p50: fixed.p50,
      fixedRps: fixed.rps,
      apiRps: api.rps,
      plainRps: plain.rps,
      cpu: api.cpuMsPerRequest,
      plainP99: plainFixed.p99,
    });
    console.log(`  ratio ${(api.rps / plain.rps).toFixed(2)}, p99 at ${RATE}/s ${fixed.p99.toFixed(1)} ms`);
  }
  const m = (key) => median(rounds.map((r) => r[key]));
  console.log(`median of ${ROUNDS} rounds (load average now ${loadAverage()}):`);
  console.log(
    `  API / plain pg throughput ${m('ratio').toFixed(2)} (target ≥ ${TARGET.ratio}): API ${Math.round(m('apiRps'))} writes/s, plain pg ${Math.round(m('plainRps'))} writes/s`,
  );
  console.log(
    `  at ${RATE}/s: p50 ${m('p50').toFixed(1)} ms, p99 ${m('p99').toFixed(1)} ms (target < ${TARGET.p99Ms} ms), sustained ${Math.round(m('fixedRps'))} writes/s; server CPU ${m('cpu').toFixed(2)} ms per write flat out`,
  );
  console.log(
    `  plain pg at ${RATE}/s: p99 ${m('plainP99').toFixed(1)} ms (what this machine gives the same statements without the server)`,
  );
} finally {
  server.stop();
  post.close();
  await pool.end();
}
