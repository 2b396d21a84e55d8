/*
 * SQL of physical inventory: sheets, their locations, count lines and entries, and the set-based post.
 * The post of a whole sheet is a handful of statements whatever its size: one that finds every invalid
 * line, one that books the variances of counted stock records with their movements, one that creates
 * found stock with its movements, one that closes the lines. No per-line round trip.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tracking } from '@floorhand/contract/items';
import {
  COUNT_REASON,
  DECIDED_FROM,
  variancePct,
  type CounterLine,
  type InvalidLine,
  type LineDecision,
  type LineStatus,
  type ReviewLine,
  type Sheet,
  type SheetState,
} from '@floorhand/contract/counts';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import type { Actor } from '../stock/ledger.ts';

export interface SheetRow {
  id: string;
  code: string;
  warehouse_id: string;
  warehouse: string;
  description: string;
  state: SheetState;
  blind: boolean;
  assignees: string[];
  rev: number;
}

/** A sheet of the organisation (another organisation's is not found); FOR UPDATE or FOR SHARE when asked. */
export async function sheetRow(db: Db, orgId: string, sheetId: string, lock?: 'update' | 'share'): Promise<SheetRow | undefined> {
  const lockSql = lock === 'update' ? sql`FOR UPDATE OF s` : lock === 'share' ? sql`FOR SHARE OF s` : sql``;
  const [row] = await query<SheetRow>(
    db,
    sql`SELECT s.id, s.code, s.warehouse_id, w.code AS warehouse, s.description, s.state, s.blind, s.assignees, s._rev AS rev
    FROM count_sheets s JOIN warehouses w ON w.id = s.warehouse_id
    WHERE s.org_id = ${orgId} AND s.id = ${sheetId} ${lockSql}`,
  );
  return row;
}

interface SheetListRow {
  id: string;
  rev: number;
  code: string;
  description: string;
  warehouse: string;
  state: SheetState;
  blind: boolean;
  assignees: string[] | null;
  location_count: number;
  line_count: number;
  created_by: string | null;
  created_at: string;
  posted_at: string | null;
}

const SHEET_SELECT = sql`SELECT s.id, s._rev AS rev, s.code, s.description, w.code AS warehouse, s.state, s.blind,
  (SELECT json_agg(a.user_name ORDER BY a.user_name) FROM accounts a WHERE a.id IN (SELECT jsonb_array_elements_text(s.assignees))) AS assignees,
  (SELECT count(*)::int FROM count_sheet_locations sl WHERE sl.sheet_id = s.id) AS location_count,
  (SELECT count(*)::int FROM count_lines cl WHERE cl.sheet_id = s.id) AS line_count,
  (SELECT user_name FROM accounts WHERE id = s.created_by) AS created_by,
  ${isoSql(sql`s.created_at`)} AS created_at, CASE WHEN s.posted_at IS NULL THEN NULL ELSE ${isoSql(sql`s.posted_at`)} END AS posted_at
FROM count_sheets s JOIN warehouses w ON w.id = s.warehouse_id`;

const toSheet = (r: SheetListRow): Sheet => ({
  _id: r.id,
  _rev: r.rev,
  code: r.code,
  description: r.description,
  warehouse: r.warehouse,
  state: r.state,
  blind: r.blind,
  assignees: r.assignees ?? [],
  locationCount: r.location_count,
  lineCount: r.line_count,
  createdBy: r.created_by ?? '',
  createdAt: r.created_at,
  postedAt: r.posted_at,
});

/** Newest first; with `mineFirst` (an account id), the sheets naming that account as a counter before the others (issue 25: a counter's handheld lists their own sheets first). */
export async function selectSheets(db: Db, where: SQL, limit: number, mineFirst?: string): Promise<Sheet[]> {
  const mine = mineFirst === undefined ? sql`` : sql`(s.assignees @> ${JSON.stringify([mineFirst])}::jsonb) DESC, `;
  return (
    await query<SheetListRow>(db, sql`${SHEET_SELECT} WHERE ${where} ORDER BY ${mine}s.created_at DESC, s.code DESC LIMIT ${limit}`)
  ).map(toSheet);
}

export async function sheetById(db: Db, orgId: string, id: string): Promise<Sheet | undefined> {
  const [sheet] = await selectSheets(db, sql`s.org_id = ${orgId} AND s.id = ${id}`, 1);
  return sheet;
}

export async function nextSheetCode(db: Db): Promise<string> {
  const [row] = await query<{ code: string }>(db, sql`SELECT 'CS' || lpad(nextval('count_sheet_seq')::text, 6, '0') AS code`);
  return row!.code;
}

/** The organisation's newest movement id (0 when none). */
export async function newestMovementId(db: Db, orgId: string): Promise<number> {
  const [row] = await query<{ id: string | null }>(db, sql`SELECT max(id)::text AS id FROM movements WHERE org_id = ${orgId}`);
  return Number(row?.id ?? 0);
}

export interface SheetLocation {
  location_id: string;
  code: string;
  visited: boolean;
}

export async function sheetLocation(db: Db, sheetId: string, code: string): Promise<SheetLocation | undefined> {
  const [row] = await query<SheetLocation>(
    db,
    sql`SELECT sl.location_id, l.code, sl.visited_movement_id IS NOT NULL AS visited FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id
    WHERE sl.sheet_id = ${sheetId} AND l.code = ${code}`,
  );
  return row;
}

export async function sheetLocations(db: Db, sheetId: string): Promise<Array<{ code: string; visited: boolean }>> {
  return query(
    db,
    sql`SELECT l.code, sl.visited_movement_id IS NOT NULL AS visited FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id
    WHERE sl.sheet_id = ${sheetId} ORDER BY l.code COLLATE "C"`,
  );
}

/** Marks a location visited (its first scan) at the organisation's newest movement. */
export async function visitLocation(db: Db, orgId: string, sheetId: string, locationId: string, accountId: string): Promise<void> {
  await query(
    db,
    sql`UPDATE count_sheet_locations SET visited_movement_id = (SELECT coalesce(max(id), 0) FROM movements WHERE org_id = ${orgId}), visited_by = ${accountId}
    WHERE sheet_id = ${sheetId} AND location_id = ${locationId} AND visited_movement_id IS NULL`,
  );
}

/**
 * The active locations of a warehouse a new sheet may cover (a list of codes, a range by byte order, or
 * all), each with whether it is due by its count frequency: the location's own days, else its
 * warehouse's; due when no posted sheet counted (scanned) it within that many days. No frequency: never due.
 */
export async function sheetCandidates(
  db: Db,
  warehouseId: string,
  sel: { list?: string[] | undefined; from?: string | undefined; to?: string | undefined },
): Promise<Array<{ id: string; code: string; due: boolean }>> {
  let where = sql`l.warehouse_id = ${warehouseId} AND l.active`;
  if (sel.list) where = sql`${where} AND l.code = ANY(${arrayParam(sel.list)})`;
  if (sel.from) where = sql`${where} AND l.code COLLATE "C" >= ${sel.from}`;
  if (sel.to) where = sql`${where} AND l.code COLLATE "C" <= ${sel.to}`;
  return query(
    db,
    sql`WITH last AS (
      SELECT sl.location_id, max(s.posted_at) AS at FROM count_sheet_locations sl JOIN count_sheets s ON s.id = sl.sheet_id
      WHERE s.warehouse_id = ${warehouseId} AND s.state = 'posted' AND sl.visited_movement_id IS NOT NULL GROUP BY sl.location_id
    )
    SELECT l.id, l.code, coalesce(fl.days, fw.days) IS NOT NULL AND (last.at IS NULL OR last.at <= now() - coalesce(fl.days, fw.days) * interval '1 day') AS due
    FROM locations l LEFT JOIN count_frequencies fl ON fl.scope_id = l.id LEFT JOIN count_frequencies fw ON fw.scope_id = l.warehouse_id
      LEFT JOIN last ON last.location_id = l.id
    WHERE ${where}`,
  );
}

interface CounterLineRow {
  id: string;
  location: string;
  stock_id: string | null;
  part_number: string;
  description: string;
  lot: string | null;
  serial: string | null;
  found: boolean;
  status: LineStatus;
  my_count: string | null;
  system_qty: string;
}

/**
 * Lines as a counter sees them. The system quantity is selected only for a sheet that is not blind:
 * on a blind sheet it never leaves the database.
 */
export async function counterLines(db: Db, sheet: SheetRow, accountId: string, where: SQL): Promise<CounterLine[]> {
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

export interface LineRow {
  id: string;
  status: LineStatus;
  counted: string;
  counted_by: string | null;
  previous_counter: string | null;
  round: number;
  serial: string | null;
}

/** The line of a sheet for a stock record, or for found stock by label or by its item, lot and serial in a location. Locked FOR UPDATE. */
export async function lineFor(db: Db, sheetId: string, match: SQL): Promise<LineRow | undefined> {
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

export async function setSheetState(db: Db, sheetId: string, state: SheetState, actor: Actor): Promise<void> {
  await query(
    db,
    sql`UPDATE count_sheets SET state = ${state}, _rev = _rev + 1, audit = jsonb_set(audit, '{modify}', ${JSON.stringify(actor.audit.modify)}::jsonb),
      posted_at = CASE WHEN ${state} = 'posted' THEN now() ELSE posted_at END
    WHERE id = ${sheetId}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Review

interface ReviewRow {
  id: string;
  location: string;
  stock_id: string | null;
  part_number: string;
  description: string;
  lot: string | null;
  serial: string | null;
  found: boolean;
  not_found: boolean;
  status: LineStatus;
  system_qty: string;
  counted: string;
  moved: boolean;
  location_now: string | null;
  disputed: boolean;
  serial_over_1: boolean;
  over_threshold: boolean;
  counted_by: string | null;
  round: number;
}

const MOVED = sql`(cl.stock_record_id IS NOT NULL AND cl.status <> 'posted' AND cl.anchor_movement_id IS DISTINCT FROM (SELECT max(m.id) FROM movements m WHERE m.stock_record_id = cl.stock_record_id))`;
const HAS_VARIANCE = sql`(cl.counted <> cl.system_qty OR cl.disputed OR cl.serial_over_1 OR cl.status = 'recount')`;

export async function reviewLines(db: Db, sheetId: string, onlyVariances: boolean, offset: number, limit: number): Promise<ReviewLine[]> {
  const rows = await query<ReviewRow>(
    db,
    sql`SELECT cl.id, l.code AS location, coalesce(sr.stock_id, cl.stock_label) AS stock_id, i.part_number, i.description, cl.lot, cl.serial, cl.found, cl.not_found,
      cl.status, cl.system_qty::text AS system_qty, cl.counted::text AS counted, ${MOVED} AS moved, ln.code AS location_now, cl.disputed, cl.serial_over_1, cl.over_threshold,
      a.user_name AS counted_by, cl.round
    FROM count_lines cl JOIN locations l ON l.id = cl.location_id JOIN items i ON i.id = cl.item_id
    LEFT JOIN stock_records sr ON sr.id = cl.stock_record_id LEFT JOIN locations ln ON ln.id = sr.location_id LEFT JOIN accounts a ON a.id = cl.counted_by
    WHERE cl.sheet_id = ${sheetId} ${onlyVariances ? sql`AND ${HAS_VARIANCE}` : sql``}
    ORDER BY l.code COLLATE "C", coalesce(sr.stock_id, cl.stock_label) COLLATE "C", cl.id
    OFFSET ${offset} LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const systemQty = Number(r.system_qty);
    const counted = Number(r.counted);
    const flags: ReviewLine['flags'] = [];
    if (r.disputed) flags.push('disputed');
    if (r.serial_over_1) flags.push('serialOver1');
    if (r.over_threshold) flags.push('overThreshold');
    return {
      lineId: r.id,
      location: r.location,
      stockId: r.stock_id,
      partNumber: r.part_number,
      description: r.description,
      lot: r.lot,
      serial: r.serial,
      found: r.found,
      notFound: r.not_found,
      status: r.status,
      systemQty,
      counted,
      variance: Number((BigInt(Math.round(counted * 10_000)) - BigInt(Math.round(systemQty * 10_000))).toString()) / 10_000,
      variancePct: variancePct(systemQty, counted),
      movedSince: r.moved,
      locationNow: r.location_now,
      flags,
      countedBy: r.counted_by,
      round: r.round,
    };
  });
}

export async function reviewSummary(db: Db, sheetId: string) {
  const [row] = await query<Record<string, string | number>>(
    db,
    sql`SELECT count(*)::int AS lines,
      count(*) FILTER (WHERE ${HAS_VARIANCE})::int AS with_variance,
      count(*) FILTER (WHERE cl.status = 'recount')::int AS recount,
      count(*) FILTER (WHERE cl.status = 'excluded')::int AS excluded,
      count(*) FILTER (WHERE cl.status = 'accepted')::int AS accepted,
      count(*) FILTER (WHERE ${MOVED})::int AS moved,
      coalesce(sum(cl.counted - cl.system_qty) FILTER (WHERE cl.status <> 'excluded'), 0)::text AS net,
      coalesce(sum(abs(cl.counted - cl.system_qty)) FILTER (WHERE cl.status <> 'excluded'), 0)::text AS abs,
      (SELECT count(*)::int FROM count_sheet_locations sl WHERE sl.sheet_id = ${sheetId} AND sl.visited_movement_id IS NULL) AS uncounted
    FROM count_lines cl WHERE cl.sheet_id = ${sheetId}`,
  );
  return {
    lines: Number(row!.lines),
    withVariance: Number(row!.with_variance),
    recount: Number(row!.recount),
    excluded: Number(row!.excluded),
    accepted: Number(row!.accepted),
    movedSince: Number(row!.moved),
    netVariance: Number(row!.net),
    absVariance: Number(row!.abs),
    uncountedLocations: Number(row!.uncounted),
  };
}

/** The chart of the review: per location, the sum of overages and of shortages (lines not excluded), the largest absolute variance first. */
export async function varianceByLocation(
  db: Db,
  sheetId: string,
  limit: number,
): Promise<Array<{ location: string; over: number; short: number }>> {
  const rows = await query<{ location: string; over: string; short: string }>(
    db,
    sql`SELECT l.code AS location, sum(greatest(cl.counted - cl.system_qty, 0))::text AS over, sum(least(cl.counted - cl.system_qty, 0))::text AS short
    FROM count_lines cl JOIN locations l ON l.id = cl.location_id
    WHERE cl.sheet_id = ${sheetId} AND cl.status <> 'excluded' AND cl.counted <> cl.system_qty
    GROUP BY l.code ORDER BY sum(abs(cl.counted - cl.system_qty)) DESC, l.code COLLATE "C" LIMIT ${limit}`,
  );
  return rows.map((r) => ({ location: r.location, over: Number(r.over), short: Number(r.short) }));
}

// ---------------------------------------------------------------------------------------------
// Posting

/** The lines a post books: the whole sheet, or one line (adjustWithCount). */
const postable = (sheetId: string, lineId?: string) =>
  sql`cl.sheet_id = ${sheetId} AND cl.status IN ('counted', 'accepted', 'recount') ${lineId ? sql`AND cl.id = ${lineId}` : sql``}`;

/** Every line the post would refuse, with every reason, in one statement. */
export async function invalidLines(db: Db, orgId: string, sheetId: string, lineId?: string): Promise<InvalidLine[]> {
  const rows = await query<{ id: string; stock_id: string | null; location: string; problems: string[] }>(
    db,
    sql`SELECT v.id, v.stock_id, v.location, v.problems FROM (
      SELECT cl.id, coalesce(sr.stock_id, cl.stock_label) AS stock_id, l.code AS location, array_remove(ARRAY[
        CASE WHEN cl.status = 'recount' THEN 'A blind recount by another counter is due' END,
        CASE WHEN cl.serial_over_1 AND cl.counted > 1 THEN 'A serial-tracked count above 1: recount or exclude it' END,
        CASE WHEN sr.id IS NOT NULL AND sr.quantity + (cl.counted - cl.system_qty) < 0
          THEN 'The stock holds ' || trim_scale(sr.quantity)::text || ' now: booking the variance ' || trim_scale(cl.counted - cl.system_qty)::text || ' would make it negative' END,
        CASE WHEN sr.id IS NOT NULL AND sr.serial IS NOT NULL AND sr.quantity + (cl.counted - cl.system_qty) > 1 THEN 'A serial-tracked record cannot hold more than 1' END,
        CASE WHEN cl.stock_record_id IS NULL AND cl.counted > 0 AND cl.stock_label IS NOT NULL
          AND EXISTS (SELECT 1 FROM stock_records o WHERE o.org_id = ${orgId} AND o.stock_id = cl.stock_label) THEN 'The stock id ' || cl.stock_label || ' is used by another record now' END,
        CASE WHEN cl.stock_record_id IS NULL AND cl.counted > 0 AND cl.serial IS NOT NULL
          AND EXISTS (SELECT 1 FROM stock_records o WHERE o.item_id = cl.item_id AND o.serial = cl.serial AND o.quantity > 0) THEN 'The serial ' || cl.serial || ' is on hand in another record now' END
      ]::text[], NULL) AS problems
      FROM count_lines cl JOIN locations l ON l.id = cl.location_id LEFT JOIN stock_records sr ON sr.id = cl.stock_record_id
      WHERE ${postable(sheetId, lineId)}
    ) v WHERE cardinality(v.problems) > 0
    ORDER BY v.location COLLATE "C", v.stock_id COLLATE "C"`,
  );
  return rows.map((r) => ({ lineId: r.id, stockId: r.stock_id, location: r.location, problems: r.problems }));
}

/**
 * Books the lines: counted stock records get counted minus the system quantity at the scan on top of
 * what they hold now, where they are now; only a found-elsewhere line (counted in another location of
 * the sheet's warehouse than its recorded one) moves its record to where it was found, and only if no
 * movement changed the record's location since the scan (a move after the count is newer news than the
 * count). Found stock becomes new records; each change one 'count' movement with the reason "physical count". Then the
 * lines are posted. Four statements for any number of lines. Returns the movements written and the
 * records created, and the stock ids and locations touched.
 */
export async function postLines(
  db: Db,
  actor: Actor,
  sheet: SheetRow,
  lineId?: string,
): Promise<{ movements: number; created: number; stockIds: string[]; locationIds: string[] }> {
  const audit = JSON.stringify(actor.audit);
  const who = sql`${actor.orgId}::text, ${actor.siteId}::text`;
  const booked = await query<{ stock_id: string; from_loc: string; to_loc: string }>(
    db,
    sql`WITH d AS (
      SELECT cl.id AS line_id, sr.id AS record_id, (cl.counted - cl.system_qty) AS delta, sr.location_id AS from_loc,
        CASE WHEN cl.found AND sr.warehouse_id = ${sheet.warehouse_id} AND cl.counted > 0
          AND NOT EXISTS (SELECT 1 FROM movements m WHERE m.stock_record_id = sr.id AND m.id > coalesce(cl.anchor_movement_id, 0)
            AND m.from_location_id IS DISTINCT FROM m.to_location_id)
        THEN cl.location_id ELSE sr.location_id END AS to_loc
      FROM count_lines cl JOIN stock_records sr ON sr.id = cl.stock_record_id
      WHERE ${postable(sheet.id, lineId)}
    ), upd AS (
      UPDATE stock_records sr SET quantity = sr.quantity + d.delta, location_id = d.to_loc, changed_at = now(), _rev = sr._rev + 1, audit = ${audit}::jsonb
      FROM d WHERE sr.id = d.record_id AND (d.delta <> 0 OR d.to_loc <> d.from_loc)
      RETURNING sr.id, sr.stock_id, sr.quantity, d.delta, d.from_loc, d.to_loc, d.line_id
    ), mv AS (
      INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, account_id, idempotency_key)
      SELECT ${who}, upd.id, 'count', upd.delta, upd.quantity, upd.from_loc, upd.to_loc, ${COUNT_REASON}, ${actor.accountId}::text, ${actor.idempotencyKey}::text FROM upd
      RETURNING id, stock_record_id
    ), done AS (
      UPDATE count_lines cl SET posted_movement_id = mv.id FROM mv WHERE cl.sheet_id = ${sheet.id} AND cl.stock_record_id = mv.stock_record_id RETURNING cl.id
    )
    SELECT upd.stock_id, upd.from_loc, upd.to_loc FROM upd`,
  );
  const created = await query<{ stock_id: string; location_id: string }>(
    db,
    sql`WITH f AS MATERIALIZED (
      SELECT cl.id AS line_id, gen_random_uuid()::text AS new_id, coalesce(cl.stock_label, 'S' || lpad(nextval('stock_id_seq')::text, 9, '0')) AS stock_id,
        cl.item_id, cl.location_id, cl.counted, cl.lot, cl.serial
      FROM count_lines cl WHERE ${postable(sheet.id, lineId)} AND cl.stock_record_id IS NULL AND cl.counted > 0
    ), ins AS (
      INSERT INTO stock_records (id, org_id, stock_id, item_id, warehouse_id, location_id, quantity, lot, serial, received_date, audit)
      SELECT f.new_id, ${actor.orgId}::text, f.stock_id, f.item_id, ${sheet.warehouse_id}::text, f.location_id, f.counted, f.lot, f.serial, current_date, ${audit}::jsonb FROM f
      RETURNING id
    ), mv AS (
      INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, account_id, idempotency_key)
      SELECT ${who}, f.new_id, 'count', f.counted, f.counted, NULL, f.location_id, ${COUNT_REASON}, ${actor.accountId}::text, ${actor.idempotencyKey}::text
      FROM f JOIN ins ON ins.id = f.new_id
      RETURNING id, stock_record_id
    ), done AS (
      UPDATE count_lines cl SET stock_record_id = f.new_id, posted_movement_id = mv.id FROM f JOIN mv ON mv.stock_record_id = f.new_id WHERE cl.id = f.line_id RETURNING cl.id
    )
    SELECT f.stock_id, f.location_id FROM f JOIN ins ON ins.id = f.new_id`,
  );
  await query(db, sql`UPDATE count_lines cl SET status = 'posted' WHERE ${postable(sheet.id, lineId)}`);
  return {
    movements: booked.length + created.length,
    created: created.length,
    stockIds: [...booked.map((b) => b.stock_id), ...created.map((c) => c.stock_id)],
    locationIds: [...new Set([...booked.flatMap((b) => [b.from_loc, b.to_loc]), ...created.map((c) => c.location_id)])],
  };
}

/** Lines of a sheet by id (the ones that exist on it). */
export async function decideLines(
  db: Db,
  sheetId: string,
  decision: LineDecision,
  lineIds: string[] | 'all',
): Promise<{ changed: number; named: number }> {
  const target = lineIds === 'all' ? sql`cl.status = 'counted'` : sql`cl.id = ANY(${arrayParam(lineIds)})`;
  const named =
    lineIds === 'all'
      ? 0
      : Number(
          (
            await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM count_lines cl WHERE cl.sheet_id = ${sheetId} AND ${target}`)
          )[0]?.n ?? 0,
        );
  // The statuses each decision changes are the contract's (DECIDED_FROM), the review screen's too.
  const from = sql`cl.status = ANY(${arrayParam(DECIDED_FROM.get(decision) ?? [])})`;
  const set =
    decision === 'accept'
      ? sql`status = 'accepted' WHERE ${from}`
      : decision === 'exclude'
        ? sql`status = 'excluded' WHERE ${from}`
        : sql`status = 'recount', round = cl.round + 1, previous_counter = cl.counted_by WHERE ${from}`;
  const rows = await query<{ id: string }>(
    db,
    sql`UPDATE count_lines cl SET ${set} AND cl.sheet_id = ${sheetId} AND ${target} RETURNING cl.id`,
  );
  return { changed: rows.length, named };
}
