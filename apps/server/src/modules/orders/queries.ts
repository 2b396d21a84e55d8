/*
 * Orders and their lines as read, by this module and by the modules that work on orders (picking,
 * shipping): read with their warehouse, staging place, items and claimants named. Every query names
 * the organisation: another organisation's order id is simply not found.
 */
import { sql, type SQL } from 'drizzle-orm';
import { qtyUnits } from '@floorhand/contract/quantity';
import type { Claimant, LineStatus, Order, OrderHeader, OrderLine, OrderType } from '@floorhand/contract/orders';
import type { Tracking } from '@floorhand/contract/items';
import type { AuditStamp } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';

/** A person's name as others see it on a claim: first name and surnames, or the user name. */
export const personName = (alias: string) =>
  sql.raw(`coalesce(nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.surnames, '')), ''), ${alias}.user_name)`);

export interface OrderRow {
  id: string;
  type: OrderType;
  number: string;
  status: string;
  warehouse_id: string;
  warehouse: string;
  customer: string | null;
  ship_to: string | null;
  due_date: string | null;
  priority: number;
  notes: string | null;
  staging_location_id: string | null;
  staging_location: string | null;
  department: string | null;
  claimed_by: string | null;
  claimed_name: string | null;
  /** The aisles of the pick's walk as it began (null until its first pick list). */
  walk_aisles: number[] | null;
  rev: number;
  audit: AuditStamp;
  line_count: number;
  done_count: number;
}

export const ORDER_SELECT = sql`SELECT o.id, o.type, o.number, o.status, o.warehouse_id, w.code AS warehouse, o.customer, o.ship_to,
  to_char(o.due_date, 'YYYY-MM-DD') AS due_date, o.priority, o.notes, o.staging_location_id, sl.code AS staging_location, o.department,
  o.claimed_by, ${personName('ca')} AS claimed_name, o.walk_aisles, o._rev AS rev, o.audit,
  (SELECT count(*)::int FROM order_lines ol WHERE ol.order_id = o.id) AS line_count,
  (SELECT count(*)::int FROM order_lines ol WHERE ol.order_id = o.id AND ol.status <> 'open') AS done_count
FROM orders o
JOIN warehouses w ON w.id = o.warehouse_id
LEFT JOIN locations sl ON sl.id = o.staging_location_id
LEFT JOIN accounts ca ON ca.id = o.claimed_by`;

const claimant = (id: string | null, name: string | null): Claimant | null => (id ? { id, name: name ?? id } : null);

export const toHeader = (r: OrderRow): OrderHeader => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  type: r.type,
  number: r.number,
  status: r.status,
  warehouse: r.warehouse,
  customer: r.customer,
  shipTo: r.ship_to,
  dueDate: r.due_date,
  priority: r.priority,
  notes: r.notes,
  stagingLocation: r.staging_location,
  department: r.department,
  claimedBy: claimant(r.claimed_by, r.claimed_name),
  lineCount: r.line_count,
  doneLineCount: r.done_count,
});

export async function selectOrders(db: Db, rest: SQL): Promise<OrderRow[]> {
  return query<OrderRow>(db, sql`${ORDER_SELECT} ${rest}`);
}

export interface LineRow {
  id: string;
  order_id: string;
  line_no: number;
  item_id: string;
  part_number: string;
  description: string;
  uom: string;
  tracking: Tracking;
  department: string | null;
  qty: string;
  qty_picked: string;
  qty_short: string;
  qty_shipped: string;
  status: LineStatus;
  short_reason: string | null;
  claimed_by: string | null;
  claimed_name: string | null;
  skip_seq: number;
  rev: number;
}

/** The columns of a LineRow read from `source` (order_lines, or the rows an UPDATE … RETURNING gave), as `ol`. */
export const lineSelectFrom = (
  source: SQL,
) => sql`SELECT ol.id, ol.order_id, ol.line_no, ol.item_id, i.part_number, i.description, i.uom, i.tracking, i.department,
  ol.qty::text AS qty, ol.qty_picked::text AS qty_picked, ol.qty_short::text AS qty_short, ol.qty_shipped::text AS qty_shipped,
  ol.status, ol.short_reason, ol.claimed_by, ${personName('ca')} AS claimed_name, ol.skip_seq, ol._rev AS rev
FROM ${source} ol JOIN items i ON i.id = ol.item_id LEFT JOIN accounts ca ON ca.id = ol.claimed_by`;

const LINE_SELECT = lineSelectFrom(sql`order_lines`);

export const toLine = (r: LineRow): OrderLine => ({
  _id: r.id,
  lineNo: r.line_no,
  itemId: r.item_id,
  partNumber: r.part_number,
  description: r.description,
  uom: r.uom,
  tracking: r.tracking,
  qty: Number(r.qty),
  picked: Number(r.qty_picked),
  short: Number(r.qty_short),
  shipped: Number(r.qty_shipped),
  status: r.status,
  shortReason: r.short_reason,
  claimedBy: claimant(r.claimed_by, r.claimed_name),
  skipSeq: r.skip_seq,
});

/** The open quantity of a line, in units: wanted less picked less closed short. */
export const openUnits = (r: Pick<LineRow, 'qty' | 'qty_picked' | 'qty_short'>): bigint =>
  qtyUnits(r.qty) - qtyUnits(r.qty_picked) - qtyUnits(r.qty_short);

export async function linesOf(db: Db, orderIds: string[]): Promise<LineRow[]> {
  return query<LineRow>(db, sql`${LINE_SELECT} WHERE ol.order_id = ANY(${arrayParam(orderIds)}) ORDER BY ol.order_id, ol.line_no`);
}

/** One line, locked (FOR UPDATE) when asked: picks of one line queue here. */
export async function lineById(db: Db, orgId: string, lineId: string, lock = false): Promise<LineRow | undefined> {
  const [row] = await query<LineRow>(
    db,
    sql`${LINE_SELECT} WHERE ol.org_id = ${orgId} AND ol.id = ${lineId} ${lock ? sql`FOR UPDATE OF ol` : sql``}`,
  );
  return row;
}

export async function linesByIds(db: Db, orgId: string, lineIds: string[]): Promise<LineRow[]> {
  return query<LineRow>(db, sql`${LINE_SELECT} WHERE ol.org_id = ${orgId} AND ol.id = ANY(${arrayParam(lineIds)}) ORDER BY ol.line_no`);
}

export async function orderById(db: Db, orgId: string, orderId: string, lock = false): Promise<OrderRow | undefined> {
  const [row] = await selectOrders(db, sql`WHERE o.org_id = ${orgId} AND o.id = ${orderId} ${lock ? sql`FOR UPDATE OF o` : sql``}`);
  return row;
}

/** The whole order as answered. */
export async function orderWithLines(db: Db, row: OrderRow): Promise<Order> {
  return { ...toHeader(row), lines: (await linesOf(db, [row.id])).map(toLine) };
}
