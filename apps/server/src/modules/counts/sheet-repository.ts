/*
 * SQL of count sheets: a sheet and its list, its locations and their visits, new sheets and their
 * state, the locations a new sheet may cover, and a count asked for one location by another work area.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Sheet, SheetState } from '@floorhand/contract/counts';
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
async function selectSheets(db: Db, where: SQL, limit: number, mineFirst?: string): Promise<Sheet[]> {
  const mine = mineFirst === undefined ? sql`` : sql`(s.assignees @> ${JSON.stringify([mineFirst])}::jsonb) DESC, `;
  return (
    await query<SheetListRow>(db, sql`${SHEET_SELECT} WHERE ${where} ORDER BY ${mine}s.created_at DESC, s.code DESC LIMIT ${limit}`)
  ).map(toSheet);
}

export async function sheetById(db: Db, orgId: string, id: string): Promise<Sheet | undefined> {
  const [sheet] = await selectSheets(db, sql`s.org_id = ${orgId} AND s.id = ${id}`, 1);
  return sheet;
}

/** What counts/sheet/list narrows the organisation's sheets by. */
export interface SheetFilter {
  orgId: string;
  accountId: string;
  fromDate?: string | undefined;
  open?: boolean | undefined;
  self?: boolean | undefined;
  sheet?: string | undefined;
  warehouse?: string | undefined;
}

/** The sheets of a list, a counter's own first (selectSheets), at most `limit`. */
export async function listedSheets(db: Db, filter: SheetFilter, limit: number): Promise<Sheet[]> {
  const where = [sql`s.org_id = ${filter.orgId}`];
  if (filter.fromDate) where.push(sql`s.created_at >= ${filter.fromDate}::date`);
  if (filter.open) where.push(sql`s.state IN ('open', 'counting', 'review')`);
  if (filter.self) where.push(sql`s.assignees @> ${JSON.stringify([filter.accountId])}::jsonb`);
  if (filter.sheet) where.push(sql`(s.code ILIKE ${`%${filter.sheet.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} OR s.id = ${filter.sheet})`);
  if (filter.warehouse) where.push(sql`w.code = ${filter.warehouse}`);
  return selectSheets(db, sql.join(where, sql` AND `), limit, filter.accountId);
}

export async function sheetsByIds(db: Db, orgId: string, ids: string[]): Promise<Sheet[]> {
  return selectSheets(db, sql`s.org_id = ${orgId} AND s.id = ANY(${arrayParam(ids)})`, ids.length);
}

export async function nextSheetCode(db: Db): Promise<string> {
  const [row] = await query<{ code: string }>(db, sql`SELECT 'CS' || lpad(nextval('count_sheet_seq')::text, 6, '0') AS code`);
  return row!.code;
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

export async function setSheetState(db: Db, sheetId: string, state: SheetState, actor: Actor): Promise<void> {
  await query(
    db,
    sql`UPDATE count_sheets SET state = ${state}, _rev = _rev + 1, audit = jsonb_set(audit, '{modify}', ${JSON.stringify(actor.audit.modify)}::jsonb),
      posted_at = CASE WHEN ${state} = 'posted' THEN now() ELSE posted_at END
    WHERE id = ${sheetId}`,
  );
}

export interface SheetInsert {
  id: string;
  orgId: string;
  code: string;
  warehouseId: string;
  description: string;
  blind: boolean;
  assigneeIds: string[];
  locationIds: string[];
  createdBy: string;
  audit: unknown;
}

/** A new sheet and its locations. */
export async function insertSheetRows(db: Db, s: SheetInsert): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_sheets (id, org_id, code, warehouse_id, description, blind, assignees, created_by, audit)
    VALUES (${s.id}, ${s.orgId}, ${s.code}, ${s.warehouseId}, ${s.description}, ${s.blind}, ${JSON.stringify(s.assigneeIds)}::jsonb, ${s.createdBy}, ${JSON.stringify(s.audit)}::jsonb)`,
  );
  await query(
    db,
    sql`INSERT INTO count_sheet_locations (org_id, sheet_id, location_id) SELECT ${s.orgId}, ${s.id}, u.id FROM unnest(${arrayParam(s.locationIds)}::text[]) AS u(id)`,
  );
}

/** Active accounts of the organisation by lower-case user name. */
export async function activeAccountsByName(db: Db, orgId: string, names: string[]): Promise<Array<{ id: string; name: string }>> {
  return query<{ id: string; name: string }>(
    db,
    sql`SELECT id, lower(user_name) AS name FROM accounts WHERE org_id = ${orgId} AND active AND lower(user_name) = ANY(${arrayParam(names)})`,
  );
}

/** Locks a location's row FOR NO KEY UPDATE: stock and pick writes referring to it do not wait. */
export async function lockLocation(db: Db, orgId: string, locationId: string): Promise<void> {
  await query(db, sql`SELECT id FROM locations WHERE org_id = ${orgId} AND id = ${locationId} FOR NO KEY UPDATE`);
}

/** The oldest open or counting sheet covering a location. */
export async function openSheetOfLocation(
  db: Db,
  orgId: string,
  locationId: string,
): Promise<{ id: string; code: string; state: string } | undefined> {
  const [row] = await query<{ id: string; code: string; state: string }>(
    db,
    sql`SELECT s.id, s.code, s.state FROM count_sheets s JOIN count_sheet_locations sl ON sl.sheet_id = s.id
    WHERE s.org_id = ${orgId} AND sl.location_id = ${locationId} AND s.state IN ('open', 'counting')
    ORDER BY s.created_at, s.code LIMIT 1`,
  );
  return row;
}

/** A row of the printed sheet (counts/sheet-pdf.ts). */
export interface PrintedRow {
  location: string;
  stock_id: string | null;
  part_number: string | null;
  description: string | null;
  lot: string | null;
  serial: string | null;
  qty: string | null;
}

/**
 * The rows of the printed sheet: with the expected stock, each record on hand in the sheet's locations;
 * without, each item per location and nothing that counts it (no stock ids, serials, quantities or rows
 * per record), and an empty location the same as a full one.
 */
export async function printedRows(db: Db, sheetId: string, withExpected: boolean): Promise<PrintedRow[]> {
  return query<PrintedRow>(
    db,
    withExpected
      ? sql`SELECT l.code AS location, sr.stock_id, i.part_number, i.description, sr.lot, sr.serial, sr.quantity::text AS qty
    FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id
      LEFT JOIN stock_records sr ON sr.location_id = sl.location_id AND sr.quantity > 0
      LEFT JOIN items i ON i.id = sr.item_id
    WHERE sl.sheet_id = ${sheetId}
    ORDER BY l.code COLLATE "C", sr.stock_id COLLATE "C"`
      : sql`SELECT x.* FROM (SELECT DISTINCT l.code AS location, NULL::text AS stock_id, i.part_number, i.description, NULL::text AS lot, NULL::text AS serial, NULL::text AS qty
      FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id
        LEFT JOIN stock_records sr ON sr.location_id = sl.location_id AND sr.quantity > 0
        LEFT JOIN items i ON i.id = sr.item_id
      WHERE sl.sheet_id = ${sheetId}) x
    ORDER BY x.location COLLATE "C", x.part_number COLLATE "C"`,
  );
}
