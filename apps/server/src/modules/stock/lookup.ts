/*
 * Stock lookup: one scanned or typed value is tried as a stock id, a location code, a part number and
 * a barcode alias at once (each an org-scoped unique or indexed code), then the stock of every match
 * is read through the indexes on stock_records(id), (location_id) and (item_id): one statement of a
 * handful of index probes, whatever the size of the organisation's stock.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { LOOKUP_MATCHES, MOVEMENT_HISTORY_MAX, type LookupGroup } from '@floorhand/contract/inventory';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Db } from '../../db/client.ts';
import { notFound, preparedQuery, query, type Body } from './db.ts';
import { LISTED_STOCK_COLUMNS, movementsOf, selectStock, STOCK_FROM, toLookupRecord, toPlacedItem, type StockRow } from './repository.ts';

type Match = (typeof LOOKUP_MATCHES)[number];

// The value tried as each kind of code; every branch is one probe of an org-scoped index.
const matchesOf = (orgId: string, value: string) => sql`SELECT 'stockId' AS kind, id FROM stock_records WHERE org_id = ${orgId} AND stock_id = ${value}
    UNION ALL SELECT 'location', id FROM locations WHERE org_id = ${orgId} AND code = ${value}
    UNION ALL SELECT 'partNumber', id FROM items WHERE org_id = ${orgId} AND part_number = ${value}
    UNION ALL SELECT 'barcode', item_id FROM item_barcodes WHERE org_id = ${orgId} AND barcode = ${value}`;

const kindsOf = (found: readonly Match[]) => LOOKUP_MATCHES.filter((k) => found.includes(k));

/** Sort keys per sort; `desc` reverses the first (the others only break ties). */
const SORTS: Record<Body<'stock/lookup'>['sort'], SQL[]> = {
  location: [sql`w.code`, sql`l.code`, sql`i.part_number`, sql`sr.stock_id`],
  partNumber: [sql`i.part_number`, sql`w.code`, sql`l.code`, sql`sr.stock_id`],
  stockId: [sql`sr.stock_id`],
  receivedDate: [sql`sr.received_date`, sql`sr.stock_id`],
  quantity: [sql`sr.quantity`, sql`sr.stock_id`],
};

/** The filters of a lookup as SQL conditions on sr (stock), i (item), w (warehouse). */
function filters(body: Body<'stock/lookup'>): SQL[] {
  const where: SQL[] = [];
  if (body.warehouse) where.push(sql`w.code = ${body.warehouse}`);
  if (body.conditionCode) where.push(sql`sr.condition_code = ${body.conditionCode}`);
  if (body.department) where.push(sql`i.department = ${body.department}`);
  // Zero-quantity records are history: shown only on request, and only those changed recently.
  where.push(
    body.showZeroQty
      ? sql`(sr.quantity > 0 OR sr.changed_at >= now() - make_interval(months => ${body.zeroQtyMonths}::int))`
      : sql`sr.quantity > 0`,
  );
  return where;
}

/** A lookup row: a stock record with its item and place, without the audit (LISTED_STOCK_COLUMNS). */
type LookupRow = Omit<StockRow, 'audit'>;

/** Rows in the lookup's order, grouped by item and location (a group appears where its first row does). */
export function groupStock(rows: readonly LookupRow[]): LookupGroup[] {
  const groups = new Map<string, LookupGroup & { units: bigint }>();
  for (const r of rows) {
    const key = `${r.item_id}\u0000${r.location_id}`;
    let group = groups.get(key);
    if (!group) {
      group = { ...toPlacedItem(r), quantity: 0, units: 0n, records: [] };
      groups.set(key, group);
    }
    group.records.push(toLookupRecord(r));
    group.units += qtyUnits(r.quantity);
  }
  return [...groups.values()].map(({ units, ...g }) => ({ ...g, quantity: Number(formatQty(units)) }));
}

/**
 * One statement, one round trip: the matches (CTE m) turn into id arrays once (ARRAY(...) is an init
 * plan), each `= ANY` uses its index and PostgreSQL ORs the bitmaps; item, location and warehouse are
 * probed per row (STOCK_FROM). What matched rides along on every row; only when no stock comes back
 * is it asked for on its own.
 */
export async function lookupStock(db: Db, auth: AuthContext, body: Body<'stock/lookup'>): Promise<CallResponse<'stock/lookup'>> {
  const ids = (...kinds: Match[]) => sql`ARRAY(SELECT id FROM m WHERE kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)}))`;
  const match = sql`(sr.id = ANY(${ids('stockId')}) OR sr.location_id = ANY(${ids('location')}) OR sr.item_id = ANY(${ids('partNumber', 'barcode')}))`;
  const where = sql.join([sql`sr.org_id = ${auth.orgId}`, match, ...filters(body)], sql` AND `);
  const [first, ...rest] = SORTS[body.sort];
  const order = sql.join([body.desc ? sql`${first} DESC` : first!, ...rest], sql`, `);
  // One row more than asked says whether there are more.
  const rows = await preparedQuery<LookupRow & { matched: string }>(
    db,
    sql`WITH m AS (${matchesOf(auth.orgId, body.value)})
    SELECT ${LISTED_STOCK_COLUMNS}, (SELECT string_agg(DISTINCT kind, ',') FROM m) AS matched ${STOCK_FROM}
    WHERE ${where} ORDER BY ${order} LIMIT ${body.maxRows + 1}`,
  );
  // Text, not JSON: the driver would parse a JSON column once per row.
  const matched = rows[0] ? (rows[0].matched.split(',') as Match[]) : (await query<{ kind: Match }>(db, matchesOf(auth.orgId, body.value))).map((r) => r.kind);
  const more = rows.length > body.maxRows;
  const shown = rows.slice(0, body.maxRows);
  return { matchedAs: kindsOf(matched), groups: groupStock(shown), rowCount: shown.length, more };
}

export async function getStock(db: Db, auth: AuthContext, body: Body<'stock/get'>): Promise<CallResponse<'stock/get'>> {
  const [stock] = await selectStock(db, sql`WHERE sr.org_id = ${auth.orgId} AND sr.stock_id = ${body.stockId}`);
  if (!stock) throw notFound(`No stock record '${body.stockId}' exists`);
  const movements = await movementsOf(db, stock._id, MOVEMENT_HISTORY_MAX + 1);
  return { stock, movements: movements.slice(0, MOVEMENT_HISTORY_MAX), moreMovements: movements.length > MOVEMENT_HISTORY_MAX };
}
