// The orders benchmark's settings, its database and HTTP helpers, and its set-up with SQL (bench/orders/run.ts).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { BASE_BODY, benchDatabaseUrl, httpPost } from '../server.mjs';

export const DATABASE_URL: string = benchDatabaseUrl();
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const PICKERS = Number(process.env.BENCH_PICKERS ?? 200);
export const ORDERS = Number(process.env.BENCH_ORDERS ?? 50);
export const ITEMS = Number(process.env.BENCH_ITEMS ?? 40);
export const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 2000);
export const BIG_LINES = Number(process.env.BENCH_BIG_LINES ?? 5000);
export const LINES_PER_ORDER = 20;
export const RECORDS_PER_ITEM = 5;
export const RECORD_QTY = 20;
export const TARGET = { pickP99Ms: 50, shipMs: 2000, pickListMs: 300 };
export const ORG = BASE_BODY.orgId;
/** The audit stamp of rows the bench writes with SQL (answers carry it: it must have its shape). */
export const AUDIT = `jsonb_build_object('create', jsonb_build_object('user', 'system', 'ts', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), 'modify', jsonb_build_object('user', 'system', 'ts', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`;

export const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
export const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await pool.query(text, params)).rows as T[];

// ---------------------------------------------------------------------------------------------
// HTTP: a kept-alive agent for all pickers; the answer's status and body.

export const agent = new http.Agent({ keepAlive: true, maxSockets: PICKERS + 10 });
export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}
export async function post(base: string, token: string, path: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await httpPost(agent, `${base}/api/${path}`, token, JSON.stringify({ ...BASE_BODY, ...body }));
  const text = res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: { raw: text.slice(0, 300) } };
  }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function must(base: string, token: string, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(base, token, path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}
/** Runs `work` over `list` with `n` at a time. */
export async function inParallel<T>(list: T[], n: number, work: (x: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < list.length) {
        const i = next++;
        await work(list[i]!, i);
      }
    }),
  );
}
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
export const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

// ---------------------------------------------------------------------------------------------
// Set-up with SQL: items, locations and stock (each record with its receive movement, so the ledger holds).

export async function warehouse(): Promise<{ id: string; stagingId: string }> {
  const [w] = await q<{ id: string; staging: string }>(
    `SELECT w.id, (SELECT id FROM locations WHERE warehouse_id = w.id AND type = 'staging' AND active ORDER BY code LIMIT 1) AS staging
     FROM warehouses w WHERE w.org_id = $1 AND w.code = 'MAIN'`,
    [ORG],
  );
  if (!w?.staging) throw new Error('the demo warehouse MAIN with its staging location is missing');
  return { id: w.id, stagingId: w.staging };
}

/** `items` items `<prefix>-I00001…`, each with `perItem` records of `qty` in locations `<prefix>-A01-B001-1…` (one per record). */
export async function stockUp(prefix: string, items: number, perItem: number, qty: number): Promise<void> {
  const { id: wh } = await warehouse();
  await q(
    `INSERT INTO items (id, org_id, part_number, description, uom, tracking, audit)
     SELECT gen_random_uuid()::text, $1, $2 || '-I' || lpad(g::text, 5, '0'), 'bench item', 'EA', 'none', ${AUDIT} FROM generate_series(1, $3::int) g`,
    [ORG, prefix, items],
  );
  // Location of record r of item g: aisle by item, bay by record (a walk has something to order).
  await q(
    `INSERT INTO locations (id, org_id, warehouse_id, code, description, type, audit)
     SELECT gen_random_uuid()::text, $1, $2, $3 || '-A' || lpad(((g - 1) / 50 + 1)::text, 3, '0') || '-B' || lpad(((g - 1) % 50 * $4::int + r)::text, 4, '0') || '-1',
       'bench', 'shelf', ${AUDIT}
     FROM generate_series(1, $5::int) g, generate_series(1, $4::int) r`,
    [ORG, wh, prefix, perItem, items],
  );
  await q(
    `INSERT INTO stock_records (id, org_id, stock_id, item_id, warehouse_id, location_id, quantity, received_date, audit)
     SELECT gen_random_uuid()::text, $1, $2 || 'S' || lpad(g::text, 5, '0') || '-' || r, i.id, $3, l.id, $4::numeric, current_date - (r || ' days')::interval, ${AUDIT}
     FROM generate_series(1, $5::int) g CROSS JOIN generate_series(1, $6::int) r
     JOIN items i ON i.org_id = $1 AND i.part_number = $2 || '-I' || lpad(g::text, 5, '0')
     JOIN locations l ON l.warehouse_id = $3 AND l.code = $2 || '-A' || lpad(((g - 1) / 50 + 1)::text, 3, '0') || '-B' || lpad(((g - 1) % 50 * $6::int + r)::text, 4, '0') || '-1'`,
    [ORG, prefix, wh, qty, items, perItem],
  );
  await q(
    `INSERT INTO movements (org_id, stock_record_id, type, qty_delta, qty_after, to_location_id, account_id)
     SELECT $1::text, sr.id, 'receive', sr.quantity, sr.quantity, sr.location_id, 'system' FROM stock_records sr WHERE sr.org_id = $1::text AND sr.stock_id LIKE $2::text || 'S%'`,
    [ORG, prefix],
  );
}

export const partOf = (prefix: string, item: number) => `${prefix}-I${String(item).padStart(5, '0')}`;
export const labelOf = (prefix: string, item: number, r: number) => `${prefix}S${String(item).padStart(5, '0')}-${r}`;
export const placeOf = (prefix: string, item: number, r: number) =>
  `${prefix}-A${String(Math.floor((item - 1) / 50) + 1).padStart(3, '0')}-B${String(((item - 1) % 50) * RECORDS_PER_ITEM + r).padStart(4, '0')}-1`;
