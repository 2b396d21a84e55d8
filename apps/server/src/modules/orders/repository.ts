// The SQL of orders that only this module uses; the reads others share are in queries.ts.
import { sitesOf } from '../../lib/idempotent-write.ts';
import { sql } from 'drizzle-orm';
import { ORDER_CANCELLED, type OrderType } from '@floorhand/contract/orders';
import type { Db } from '../../db/client.ts';
import { arrayParam, insertRows, query } from '../../db/sql.ts';
import { selectOrders, type OrderRow } from './queries.ts';

export async function ordersByNumber(db: Db, orgId: string, number: string, type?: OrderType): Promise<OrderRow[]> {
  return selectOrders(
    db,
    sql`WHERE o.org_id = ${orgId} AND o.number = ${number} ${type ? sql`AND o.type = ${type}` : sql``} ORDER BY o.type LIMIT 10`,
  );
}

/** The first active staging location of a warehouse. */
export async function defaultStaging(db: Db, warehouseId: string): Promise<{ id: string; code: string } | undefined> {
  const [row] = await query<{ id: string; code: string }>(
    db,
    sql`SELECT id, code FROM locations WHERE warehouse_id = ${warehouseId} AND type = 'staging' AND active ORDER BY code LIMIT 1`,
  );
  return row;
}

/** The organisation's site ids (events go to each), from memory like every write's (lib/idempotent-write.ts sitesOf). */
export const siteIdsOf = (db: Db, orgId: string): Promise<string[]> => sitesOf(db, orgId);

/** The filters of the order list; a number matches as a prefix. */
export interface OrderListFilter {
  type?: OrderType | undefined;
  status?: string | undefined;
  warehouse?: string | undefined;
  number?: string | undefined;
}

export async function listOrderRows(db: Db, orgId: string, filter: OrderListFilter, limit: number, offset: number): Promise<OrderRow[]> {
  return selectOrders(
    db,
    sql`WHERE o.org_id = ${orgId}
      ${filter.type ? sql`AND o.type = ${filter.type}` : sql``}
      ${filter.status ? sql`AND o.status = ${filter.status}` : sql``}
      ${filter.warehouse ? sql`AND w.code = ${filter.warehouse}` : sql``}
      ${filter.number ? sql`AND o.number LIKE ${`${filter.number.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}
    ORDER BY o.due_date NULLS LAST, o.number, o.type LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** Stored orders of these types and numbers (the CSV import's orders). */
export async function ordersByTypeAndNumber(
  db: Db,
  orgId: string,
  keys: readonly { type: OrderType; number: string }[],
): Promise<OrderRow[]> {
  return selectOrders(
    db,
    sql`WHERE o.org_id = ${orgId} AND (o.type, o.number) IN (SELECT * FROM unnest(${arrayParam(keys.map((g) => g.type))}::text[], ${arrayParam(keys.map((g) => g.number))}::text[]))`,
  );
}

// ---------------------------------------------------------------------------------------------
// Picks of an order

/** Whether an order has picked stock not yet shipped or returned. */
export async function hasActivePicks(db: Db, orderId: string): Promise<boolean> {
  return (
    (await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM order_picks WHERE order_id = ${orderId} AND state = 'picked'`))[0]!
      .n > 0
  );
}

/** Of these orders, those with picked stock not yet shipped or returned. */
export async function ordersWithActivePicks(db: Db, orderIds: string[]): Promise<string[]> {
  return (
    await query<{ order_id: string }>(
      db,
      sql`SELECT DISTINCT order_id FROM order_picks WHERE order_id = ANY(${arrayParam(orderIds)}) AND state = 'picked'`,
    )
  ).map((r) => r.order_id);
}

export async function shippedOrIssuedCount(tx: Db, orderId: string): Promise<number> {
  const rows = await query<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM order_picks WHERE order_id = ${orderId} AND state IN ('shipped', 'issued')`,
  );
  return rows[0]!.n;
}

export interface ActivePick {
  id: string;
  stock_id: string;
  from_location_id: string;
  from_warehouse_id: string;
}

/** The order's picked picks, with the place each was picked from, in stock-id order. */
export async function activePicksOf(tx: Db, orderId: string): Promise<ActivePick[]> {
  return query<ActivePick>(
    tx,
    sql`SELECT p.id, sr.stock_id, p.from_location_id, l.warehouse_id AS from_warehouse_id
      FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id JOIN locations l ON l.id = p.from_location_id
      WHERE p.order_id = ${orderId} AND p.state = 'picked' ORDER BY sr.stock_id`,
  );
}

export async function unpickPick(tx: Db, pickId: string): Promise<void> {
  await query(tx, sql`UPDATE order_picks SET state = 'unpicked', package_id = NULL WHERE id = ${pickId}`);
}

// ---------------------------------------------------------------------------------------------
// Writes of an order and its lines

/** The header of an order as written (the status and the rest already defaulted). */
export interface OrderHeaderFields {
  status: string;
  warehouseId: string;
  customer: string | null;
  shipTo: string | null;
  dueDate: string | null;
  priority: number;
  notes: string | null;
  stagingId: string | null;
  department: string | null;
}

/** Inserts the order unless its type and number are stored already; whether it did. */
export async function insertOrderIfNew(
  tx: Db,
  order: OrderHeaderFields & { id: string; orgId: string; type: OrderType; number: string; audit: unknown },
): Promise<boolean> {
  const inserted = await query<{ id: string }>(
    tx,
    sql`INSERT INTO orders (id, org_id, type, number, status, warehouse_id, customer, ship_to, due_date, priority, notes, staging_location_id, department, audit)
      VALUES (${order.id}, ${order.orgId}, ${order.type}, ${order.number}, ${order.status}, ${order.warehouseId}, ${order.customer}, ${order.shipTo},
        ${order.dueDate}::date, ${order.priority}, ${order.notes}, ${order.stagingId}, ${order.department}, ${JSON.stringify(order.audit)}::jsonb)
      ON CONFLICT (org_id, type, number) DO NOTHING RETURNING id`,
  );
  return inserted.length > 0;
}

export async function lockOrderByNumber(tx: Db, orgId: string, type: OrderType, number: string): Promise<OrderRow | undefined> {
  const [order] = await selectOrders(tx, sql`WHERE o.org_id = ${orgId} AND o.type = ${type} AND o.number = ${number} FOR UPDATE OF o`);
  return order;
}

export async function updateOrderHeader(tx: Db, orderId: string, order: OrderHeaderFields, audit: unknown): Promise<void> {
  await query(
    tx,
    sql`UPDATE orders SET status = ${order.status}, warehouse_id = ${order.warehouseId}, customer = ${order.customer}, ship_to = ${order.shipTo}, due_date = ${order.dueDate}::date,
        priority = ${order.priority}, notes = ${order.notes}, staging_location_id = ${order.stagingId}, department = ${order.department},
        _rev = _rev + 1, audit = ${JSON.stringify(audit)}::jsonb
      WHERE id = ${orderId}`,
  );
}

export async function lockOrderLines(tx: Db, orderId: string): Promise<void> {
  await query(tx, sql`SELECT id FROM order_lines WHERE order_id = ${orderId} FOR UPDATE`);
}

export async function insertOrderLines(
  tx: Db,
  orgId: string,
  lines: readonly { id: string; orderId: string; lineNo: number; itemId: string; qty: string }[],
): Promise<void> {
  await insertRows(tx, 'order_lines', { id: 'text', orderId: 'text', lineNo: 'integer', itemId: 'text', qty: 'numeric' }, lines, {
    org_id: sql`${orgId}::text`,
  });
}

export async function updateOrderLine(tx: Db, lineId: string, itemId: string, qty: string, status: string): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET item_id = ${itemId}, qty = ${qty}::numeric, status = ${status}, _rev = _rev + 1 WHERE id = ${lineId}`,
  );
}

export async function deleteOrderLines(tx: Db, lineIds: string[]): Promise<void> {
  const gone = arrayParam(lineIds);
  // A removed line takes its backorder links with it (the backorder's line stays, as ordered).
  await query(tx, sql`DELETE FROM order_backorders WHERE line_id = ANY(${gone}) OR backorder_line_id = ANY(${gone})`);
  await query(tx, sql`DELETE FROM order_lines WHERE id = ANY(${gone})`);
}

/** An order's status and claimant, and how many of its lines are open and not cancelled. */
export async function orderLineCounts(
  tx: Db,
  orderId: string,
): Promise<{ status: string; open: number; lines: number; claimed_by: string | null } | undefined> {
  const [row] = await query<{ status: string; open: number; lines: number; claimed_by: string | null }>(
    tx,
    sql`SELECT o.status, o.claimed_by, (SELECT count(*)::int FROM order_lines WHERE order_id = o.id AND status = 'open') AS open,
      (SELECT count(*)::int FROM order_lines WHERE order_id = o.id AND status <> 'cancelled') AS lines
    FROM orders o WHERE o.id = ${orderId}`,
  );
  return row;
}

export async function setOrderStatus(tx: Db, orderId: string, status: string): Promise<void> {
  await query(tx, sql`UPDATE orders SET status = ${status}, _rev = _rev + 1 WHERE id = ${orderId}`);
}

/** Cancels the order and all its lines, and lets go of its claims. */
export async function cancelOrderRows(tx: Db, orderId: string, audit: unknown): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET status = 'cancelled', qty_picked = 0, claimed_by = NULL, _rev = _rev + 1 WHERE order_id = ${orderId}`,
  );
  await query(
    tx,
    sql`UPDATE orders SET status = ${ORDER_CANCELLED}, claimed_by = NULL, _rev = _rev + 1, audit = ${JSON.stringify(audit)}::jsonb WHERE id = ${orderId}`,
  );
}
