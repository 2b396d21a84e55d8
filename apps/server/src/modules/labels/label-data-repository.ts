import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import type { StockRecord } from '@floorhand/contract/stock';
import { selectStock } from '../stock/queries.ts';

// The SQL of label data: the records a label is made of, each read for the organisation.

/** Stock records by id, as stock's queries read them. */
export async function stockByIds(db: Db, orgId: string, stockIds: string[]): Promise<StockRecord[]> {
  return selectStock(db, sql`WHERE sr.org_id = ${orgId} AND sr.stock_id = ANY(${sql.param(stockIds)})`);
}

// ── label data ──

export interface LocationLabelRow {
  id: string;
  code: string;
  warehouse: string;
  description: string;
  type: string;
}
export async function locationsByIds(db: Db, orgId: string, ids: string[]): Promise<LocationLabelRow[]> {
  const rows = await query<LocationLabelRow>(
    db,
    sql`SELECT l.id, l.code, w.code AS warehouse, l.description, l.type FROM locations l JOIN warehouses w ON w.id = l.warehouse_id
      WHERE l.org_id = ${orgId} AND l.id = ANY(${arrayParam(ids)})`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is LocationLabelRow => r !== undefined);
}
/** Active locations of one warehouse with codes from `from` to `to` (text order), at most `limit`. */
export async function locationRange(
  db: Db,
  orgId: string,
  warehouse: string,
  from: string,
  to: string,
  limit: number,
): Promise<LocationLabelRow[]> {
  return query<LocationLabelRow>(
    db,
    sql`SELECT l.id, l.code, w.code AS warehouse, l.description, l.type FROM locations l JOIN warehouses w ON w.id = l.warehouse_id
      WHERE l.org_id = ${orgId} AND w.code = ${warehouse} AND l.active AND l.code >= ${from} AND l.code <= ${to} ORDER BY l.code LIMIT ${limit}`,
  );
}

export interface StaffLabelRow {
  id: string;
  user_name: string;
  first_name: string;
  surnames: string;
  badge_code: string | null;
  org: string;
}
export async function staffByIds(db: Db, orgId: string, ids: string[]): Promise<StaffLabelRow[]> {
  return query<StaffLabelRow>(
    db,
    sql`SELECT a.id, a.user_name, a.first_name, a.surnames, a.badge_code, o.name AS org FROM accounts a JOIN organisations o ON o.id = a.org_id
      WHERE a.org_id = ${orgId} AND a.id = ANY(${arrayParam(ids)}) ORDER BY a.user_name`,
  );
}

// ── order labels: the records a pick, traveller or package label is made of (never the request's values) ──

export interface OrderLineLabelRow {
  number: string;
  type: string;
  line_no: number;
  qty: string;
  part_number: string;
  description: string;
  uom: string;
}
/** The lines of the organisation's orders with these numbers, with their items. */
export async function orderLinesByNumbers(db: Db, orgId: string, numbers: string[]): Promise<OrderLineLabelRow[]> {
  return query<OrderLineLabelRow>(
    db,
    sql`SELECT o.number, o.type, ol.line_no, ol.qty::text AS qty, i.part_number, i.description, i.uom
      FROM orders o JOIN order_lines ol ON ol.order_id = o.id JOIN items i ON i.id = ol.item_id
      WHERE o.org_id = ${orgId} AND o.number = ANY(${arrayParam(numbers)})`,
  );
}

export interface PickLabelRow {
  number: string;
  type: string;
  line_no: number;
  stock_id: string;
  qty: string;
  /** Who picked it (their names, as the pick screen prints them). */
  pickers: string;
}
/** What was picked (not returned) of these stock records for which order lines of the organisation. */
export async function picksOfStock(db: Db, orgId: string, stockIds: string[]): Promise<PickLabelRow[]> {
  return query<PickLabelRow>(
    db,
    sql`SELECT o.number, o.type, ol.line_no, sr.stock_id, sum(op.qty)::text AS qty, string_agg(DISTINCT coalesce(nullif(trim(a.first_name || ' ' || a.surnames), ''), a.user_name), ', ') AS pickers
      FROM order_picks op JOIN order_lines ol ON ol.id = op.line_id JOIN orders o ON o.id = op.order_id JOIN stock_records sr ON sr.id = op.stock_record_id
        JOIN accounts a ON a.id = op.account_id
      WHERE op.org_id = ${orgId} AND op.state <> 'unpicked' AND sr.stock_id = ANY(${arrayParam(stockIds)})
      GROUP BY o.number, o.type, ol.line_no, sr.stock_id`,
  );
}

export interface OrderLabelRow {
  id: string;
  number: string;
  type: string;
  customer: string | null;
  due_date: string | null;
  warehouse: string;
  line_count: number;
}
/** The organisation's orders with these numbers (any type). */
export async function ordersByNumbers(db: Db, orgId: string, numbers: string[]): Promise<OrderLabelRow[]> {
  return query<OrderLabelRow>(
    db,
    sql`SELECT o.id, o.number, o.type, o.customer, o.due_date::text AS due_date, w.code AS warehouse,
        (SELECT count(*)::int FROM order_lines ol WHERE ol.order_id = o.id) AS line_count
      FROM orders o JOIN warehouses w ON w.id = o.warehouse_id
      WHERE o.org_id = ${orgId} AND o.number = ANY(${arrayParam(numbers)})`,
  );
}

export interface TaskLabelRow {
  task_code: string;
  kind: string;
  order_number: string | null;
  operation_number: string | null;
  description: string;
  work_centre: string | null;
  planned_minutes: string | null;
}
/** The organisation's tasks with these codes. */
export async function tasksByCodes(db: Db, orgId: string, codes: string[]): Promise<TaskLabelRow[]> {
  return query<TaskLabelRow>(
    db,
    sql`SELECT task_code, kind, order_number, operation_number, description, work_centre, planned_minutes::text AS planned_minutes
      FROM tasks WHERE org_id = ${orgId} AND task_code = ANY(${arrayParam(codes)})`,
  );
}

export interface PackageLabelRow {
  package_no: string;
  type: string;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  carrier: string | null;
  service: string | null;
  tracking: string | null;
  number: string;
  order_type: string;
  customer: string | null;
  warehouse: string;
  items: number;
}
/** The organisation's packages with these numbers, with their order and how many stock records they hold. */
export async function packagesByNumbers(db: Db, orgId: string, packageNos: string[]): Promise<PackageLabelRow[]> {
  return query<PackageLabelRow>(
    db,
    sql`SELECT p.package_no, p.type, p.weight::text AS weight, p.length::text AS length, p.width::text AS width, p.height::text AS height,
        p.carrier, p.service, p.tracking, o.number, o.type AS order_type, o.customer, w.code AS warehouse,
        (SELECT count(*)::int FROM order_picks op WHERE op.package_id = p.id AND op.state <> 'unpicked') AS items
      FROM packages p JOIN orders o ON o.id = p.order_id JOIN warehouses w ON w.id = o.warehouse_id
      WHERE p.org_id = ${orgId} AND p.package_no = ANY(${arrayParam(packageNos)})`,
  );
}
