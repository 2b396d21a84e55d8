/*
 * SQL of counting: the lines as a counter sees them, the stock a count names (by stock id, serial, or
 * what else a scanned code is), the lines and entries a count writes, and counting's close (counting →
 * review) that adds what was not found and sends lines to a recount.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tracking } from '@floorhand/contract/items';
import type { CounterLine, LineStatus } from '@floorhand/contract/counts';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import type { SheetRow } from './sheet-repository.ts';

/** What every read of a sheet's lines selects of a line: where, which stock, and its state. */
export interface LineHeadRow {
  id: string;
  location: string;
  stock_id: string | null;
  part_number: string;
  description: string;
  lot: string | null;
  serial: string | null;
  found: boolean;
  status: LineStatus;
}

interface CounterLineRow extends LineHeadRow {
  my_count: string | null;
  system_qty: string;
}

/** The lines of a sheet a counter asks for: one location's, one line, or all. */
export type CounterLinesOf = { locationId: string } | { lineId: string } | 'all';

/**
 * Lines as a counter sees them. The system quantity is selected only for a sheet that is not blind:
 * on a blind sheet it never leaves the database.
 */
export async function counterLines(db: Db, sheet: SheetRow, accountId: string, which: CounterLinesOf): Promise<CounterLine[]> {
  const where = which === 'all' ? sql`true` : 'lineId' in which ? sql`cl.id = ${which.lineId}` : sql`cl.location_id = ${which.locationId}`;
  // A recount is blind on every sheet: its line tells the recounter neither the expected quantity nor the first count.
  const expected = sheet.blind ? sql`NULL::text` : sql`CASE WHEN cl.status = 'recount' THEN NULL ELSE cl.system_qty::text END`;
  const rows = await query<CounterLineRow>(
    db,
    sql`SELECT cl.id, l.code AS location, coalesce(sr.stock_id, cl.stock_label) AS stock_id, i.part_number, i.description, cl.lot, cl.serial, cl.found, cl.status,
      CASE WHEN cl.counted_by = ${accountId} AND cl.status <> 'recount' THEN cl.counted::text END AS my_count, ${expected} AS system_qty
    FROM count_lines cl JOIN locations l ON l.id = cl.location_id JOIN items i ON i.id = cl.item_id LEFT JOIN stock_records sr ON sr.id = cl.stock_record_id
    WHERE cl.sheet_id = ${sheet.id} AND ${where}
    ORDER BY l.code COLLATE "C", coalesce(sr.stock_id, cl.stock_label), cl.id`,
  );
  return rows.map((r) => ({
    lineId: r.id,
    location: r.location,
    stockId: r.stock_id,
    partNumber: r.part_number,
    description: r.description,
    lot: r.lot,
    serial: r.serial,
    found: r.found,
    status: r.status,
    myCount: r.my_count === null ? null : Number(r.my_count),
    ...(r.system_qty === null ? {} : { expected: Number(r.system_qty) }),
  }));
}

/** A stock record as a count reads it: where it is, what it is, and its last movement (the anchor) with its quantity, in one snapshot. */
export interface CountedStock {
  id: string;
  stock_id: string;
  item_id: string;
  tracking: Tracking;
  uom: string;
  warehouse_id: string;
  location_id: string;
  quantity: string;
  lot: string | null;
  serial: string | null;
  anchor: string | null;
}

const COUNTED_STOCK = sql`SELECT sr.id, sr.stock_id, sr.item_id, i.tracking, i.uom, sr.warehouse_id, sr.location_id, sr.quantity::text AS quantity, sr.lot, sr.serial,
  (SELECT max(m.id)::text FROM movements m WHERE m.stock_record_id = sr.id) AS anchor
FROM stock_records sr JOIN items i ON i.id = sr.item_id`;

export async function countedStockById(db: Db, orgId: string, stockId: string): Promise<CountedStock | undefined> {
  const [row] = await query<CountedStock>(db, sql`${COUNTED_STOCK} WHERE sr.org_id = ${orgId} AND sr.stock_id = ${stockId}`);
  return row;
}

export async function countedStockBySerial(db: Db, orgId: string, itemId: string, serial: string): Promise<CountedStock | undefined> {
  const [row] = await query<CountedStock>(
    db,
    sql`${COUNTED_STOCK} WHERE sr.org_id = ${orgId} AND sr.item_id = ${itemId} AND sr.serial = ${serial} AND sr.quantity > 0`,
  );
  return row;
}

/** What a scanned code that is no stock id names, in one statement (counts/scanned-code.ts reads it). */
export interface ScannedCodeRow {
  location: string | null;
  on_sheet: boolean;
  serial_ids: string[] | null;
  item_id: string | null;
}

export async function scannedCodeRow(db: Db, orgId: string, sheet: SheetRow, code: string): Promise<ScannedCodeRow | undefined> {
  const [row] = await query<ScannedCodeRow>(
    db,
    sql`SELECT
      (SELECT l.id FROM locations l WHERE l.org_id = ${orgId} AND l.warehouse_id = ${sheet.warehouse_id} AND l.code = ${code}) AS location,
      EXISTS (SELECT 1 FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id WHERE sl.sheet_id = ${sheet.id} AND l.code = ${code}) AS on_sheet,
      (SELECT array_agg(s.stock_id) FROM (SELECT sr.stock_id FROM stock_records sr WHERE sr.org_id = ${orgId} AND sr.serial = ${code} AND sr.quantity > 0 LIMIT 2) s) AS serial_ids,
      (SELECT b.item_id FROM item_barcodes b WHERE b.org_id = ${orgId} AND b.barcode = ${code}) AS item_id`,
  );
  return row;
}

export interface BarcodeItem {
  id: string;
  part_number: string;
  tracking: Tracking;
  uom: string;
  active: boolean;
}

export async function barcodeItem(db: Db, itemId: string): Promise<BarcodeItem | undefined> {
  const [item] = await query<BarcodeItem>(db, sql`SELECT id, part_number, tracking, uom, active FROM items WHERE id = ${itemId}`);
  return item;
}

/** Records of an item on hand in a location (at most 2: one is the answer, two are too many). */
export async function stockOfItemIn(db: Db, orgId: string, itemId: string, locationId: string, lot?: string): Promise<string[]> {
  const rows = await query<{ stock_id: string }>(
    db,
    sql`SELECT stock_id FROM stock_records WHERE org_id = ${orgId} AND item_id = ${itemId} AND location_id = ${locationId} AND quantity > 0
      ${lot === undefined ? sql`` : sql`AND lot = ${lot}`} ORDER BY stock_id LIMIT 2`,
  );
  return rows.map((r) => r.stock_id);
}

export interface LineRow {
  id: string;
  status: LineStatus;
  counted: string;
  counted_by: string | null;
  previous_counter: string | null;
  round: number;
  serial: string | null;
}

/** What a count's line is found by: its stock record; for found stock, its label, its item and serial, or its item, lot and location. */
export type LineKey =
  | { stockRecordId: string }
  | { label: string }
  | { itemId: string; serial: string }
  | { itemId: string; locationId: string; lot: string | null };

function lineMatch(key: LineKey): SQL {
  if ('stockRecordId' in key) return sql`stock_record_id = ${key.stockRecordId}`;
  if ('label' in key) return sql`stock_record_id IS NULL AND stock_label = ${key.label}`;
  if ('serial' in key) return sql`item_id = ${key.itemId} AND serial = ${key.serial}`;
  return sql`stock_record_id IS NULL AND stock_label IS NULL AND item_id = ${key.itemId} AND location_id = ${key.locationId} AND lot IS NOT DISTINCT FROM ${key.lot}`;
}

/** The line of a sheet for a stock record, or for found stock by label or by its item, lot and serial in a location. Locked FOR UPDATE. */
export async function lineFor(db: Db, sheetId: string, key: LineKey): Promise<LineRow | undefined> {
  const match = lineMatch(key);
  const [row] = await query<LineRow>(
    db,
    sql`SELECT id, status, counted::text AS counted, counted_by, previous_counter, round, serial FROM count_lines WHERE sheet_id = ${sheetId} AND ${match} LIMIT 1 FOR UPDATE`,
  );
  return row;
}

export interface LineWrite {
  id: string;
  orgId: string;
  sheetId: string;
  locationId: string;
  stockRecordId: string | null;
  itemId: string;
  stockLabel: string | null;
  lot: string | null;
  serial: string | null;
  found: boolean;
  anchorMovementId: number | null;
  systemQty: string;
  counted: string;
  serialOver1: boolean;
  accountId: string;
}

export async function insertLine(db: Db, w: LineWrite): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_lines (id, org_id, sheet_id, location_id, stock_record_id, item_id, stock_label, lot, serial, found, anchor_movement_id, system_qty, counted, serial_over_1, counted_by)
    VALUES (${w.id}, ${w.orgId}, ${w.sheetId}, ${w.locationId}, ${w.stockRecordId}, ${w.itemId}, ${w.stockLabel}, ${w.lot}, ${w.serial}, ${w.found}, ${w.anchorMovementId},
      ${w.systemQty}::numeric, ${w.counted}::numeric, ${w.serialOver1}, ${w.accountId})`,
  );
  await addEntry(db, w.orgId, w.id, w.accountId, w.counted, 1);
}

/** A new count of an existing line: re-anchored at this scan; `disputed` when another counter of the same round counted otherwise. */
export async function recountLine(
  db: Db,
  orgId: string,
  lineId: string,
  set: {
    locationId: string;
    anchorMovementId: number | null;
    systemQty: string;
    counted: string;
    serialOver1: boolean;
    accountId: string;
    disputed: boolean;
    round: number;
    found: boolean;
  },
): Promise<void> {
  await query(
    db,
    sql`UPDATE count_lines SET location_id = ${set.locationId}, anchor_movement_id = ${set.anchorMovementId}, system_qty = ${set.systemQty}::numeric,
      counted = ${set.counted}::numeric, serial_over_1 = ${set.serialOver1}, counted_by = ${set.accountId}, disputed = ${set.disputed}, found = ${set.found},
      status = 'counted', counted_at = now()
    WHERE id = ${lineId}`,
  );
  await addEntry(db, orgId, lineId, set.accountId, set.counted, set.round);
}

async function addEntry(db: Db, orgId: string, lineId: string, accountId: string, qty: string, round: number): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_entries (org_id, line_id, account_id, qty, round) VALUES (${orgId}, ${lineId}, ${accountId}, ${qty}::numeric, ${round})`,
  );
}

/**
 * A stock record `sr` in a sheet location `sl` was there when the location was counted (its first scan,
 * `visited_movement_id`, the organisation's newest movement then): the record existed then (a movement
 * of it up to that id: a record received or split off later did not) and no movement after it brought
 * the record into the location (moved, picked or unpicked in, a found-elsewhere post: `to_location_id`
 * the location, `from_location_id` another). Stock that arrived later was not there to be found: it is
 * never "not found", and the post leaves it alone.
 */
const THERE_AT_VISIT = sql`EXISTS (SELECT 1 FROM movements m WHERE m.stock_record_id = sr.id AND m.id <= sl.visited_movement_id)
  AND NOT EXISTS (SELECT 1 FROM movements m WHERE m.stock_record_id = sr.id AND m.id > sl.visited_movement_id
    AND m.to_location_id = sl.location_id AND m.from_location_id IS DISTINCT FROM m.to_location_id)`;

/**
 * counting → review, set-based: expected stock of every visited location that no line counts, and that
 * was there when the location was counted (THERE_AT_VISIT), gets a line counted 0 (anchored at its last
 * movement now), then lines over the warehouse's thresholds and disputed lines go to a blind recount.
 */
export async function closeCounting(db: Db, sheet: SheetRow, orgId: string): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_lines (id, org_id, sheet_id, location_id, stock_record_id, item_id, stock_label, lot, serial, not_found, anchor_movement_id, system_qty, counted)
    SELECT gen_random_uuid()::text, ${orgId}, ${sheet.id}, sr.location_id, sr.id, sr.item_id, sr.stock_id, sr.lot, sr.serial, true,
      (SELECT max(m.id) FROM movements m WHERE m.stock_record_id = sr.id), sr.quantity, 0
    FROM count_sheet_locations sl JOIN stock_records sr ON sr.location_id = sl.location_id AND sr.quantity > 0
    WHERE sl.sheet_id = ${sheet.id} AND sl.visited_movement_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM count_lines cl WHERE cl.sheet_id = ${sheet.id} AND cl.stock_record_id = sr.id)
      AND ${THERE_AT_VISIT}`,
  );
  await query(
    db,
    sql`UPDATE count_lines cl SET status = 'recount', round = cl.round + 1, previous_counter = cl.counted_by,
      over_threshold = (t.max_qty IS NOT NULL AND abs(cl.counted - cl.system_qty) > t.max_qty)
        OR (t.max_pct IS NOT NULL AND cl.system_qty > 0 AND abs(cl.counted - cl.system_qty) * 100 / cl.system_qty > t.max_pct)
        OR (t.max_pct IS NOT NULL AND cl.system_qty = 0 AND cl.counted > 0)
    FROM (SELECT ${sheet.id}::text AS sheet_id) s LEFT JOIN count_thresholds t ON t.warehouse_id = ${sheet.warehouse_id}
    WHERE cl.sheet_id = s.sheet_id AND cl.status = 'counted' AND (cl.disputed
      OR (t.max_qty IS NOT NULL AND abs(cl.counted - cl.system_qty) > t.max_qty)
      OR (t.max_pct IS NOT NULL AND cl.system_qty > 0 AND abs(cl.counted - cl.system_qty) * 100 / cl.system_qty > t.max_pct)
      OR (t.max_pct IS NOT NULL AND cl.system_qty = 0 AND cl.counted > 0))`,
  );
}
