/*
 * The SQL of what happens to a line besides a pick: skipped, shorted (its rest kept open, closed, or
 * put on a backorder), a pick undone, and whether a pick of it came from a place.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuditStamp } from '../../db/schema.ts';
import { query } from '../../db/sql.ts';

/** Walks the line last: after every line of its order skipped so far. */
export async function skipOrderLine(tx: Db, orderId: string, lineId: string): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET skip_seq = (SELECT coalesce(max(skip_seq), 0) + 1 FROM order_lines WHERE order_id = ${orderId}), _rev = _rev + 1 WHERE id = ${lineId}`,
  );
}

/** A short that keeps the rest on the line, open: the reason is kept and the line walks last. */
export async function shortOpen(tx: Db, orderId: string, lineId: string, reason: string): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET short_reason = ${reason}, skip_seq = (SELECT coalesce(max(skip_seq), 0) + 1 FROM order_lines WHERE order_id = ${orderId}), _rev = _rev + 1 WHERE id = ${lineId}`,
  );
}

/** A short that closes the line: what it still wants is short. */
export async function shortClose(tx: Db, lineId: string, reason: string): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET qty_short = qty - qty_picked, status = 'short', short_reason = ${reason}, _rev = _rev + 1 WHERE id = ${lineId}`,
  );
}

export interface BackorderRow {
  id: string;
  number: string;
  status: string;
  n: number;
}

/** The backorders `<number>-BO<n>` of an order (same type), locked, the highest n first. */
export async function backordersOf(tx: Db, orgId: string, type: string, number: string): Promise<BackorderRow[]> {
  return query<BackorderRow>(
    tx,
    sql`SELECT id, number, status, substr(number, ${number.length + 4})::int AS n FROM orders
    WHERE org_id = ${orgId} AND type = ${type} AND left(number, ${number.length + 3}) = ${`${number}-BO`}
      AND substr(number, ${number.length + 4}) ~ '^[0-9]{1,6}$'
    ORDER BY n DESC FOR UPDATE`,
  );
}

/** A new order copying the header of another (warehouse, customer, ship-to, due date, priority, notes, staging place, department). */
export async function insertBackorder(
  tx: Db,
  o: { id: string; number: string; status: string; fromOrderId: string; audit: AuditStamp },
): Promise<void> {
  await query(
    tx,
    sql`INSERT INTO orders (id, org_id, type, number, status, warehouse_id, customer, ship_to, due_date, priority, notes, staging_location_id, department, audit)
          SELECT ${o.id}, org_id, type, ${o.number}, ${o.status}, warehouse_id, customer, ship_to, due_date, priority, notes, staging_location_id, department,
            ${JSON.stringify(o.audit)}::jsonb
          FROM orders WHERE id = ${o.fromOrderId}`,
  );
}

/** A line on a backorder, numbered as the short line where that number is free there, else one past its highest. */
export async function insertBackorderLine(
  tx: Db,
  l: { id: string; orgId: string; orderId: string; lineNo: number; itemId: string; qty: string },
): Promise<void> {
  await query(
    tx,
    sql`INSERT INTO order_lines (id, org_id, order_id, line_no, item_id, qty)
    SELECT ${l.id}, ${l.orgId}, ${l.orderId},
      CASE WHEN EXISTS (SELECT 1 FROM order_lines WHERE order_id = ${l.orderId} AND line_no = ${l.lineNo}) THEN (SELECT max(line_no) + 1 FROM order_lines WHERE order_id = ${l.orderId}) ELSE ${l.lineNo} END,
      ${l.itemId}, ${l.qty}::numeric`,
  );
}

/** Links a short line to the backorder line holding its rest. */
export async function linkBackorder(tx: Db, orgId: string, lineId: string, backorderLineId: string): Promise<void> {
  await query(tx, sql`INSERT INTO order_backorders (line_id, org_id, backorder_line_id) VALUES (${lineId}, ${orgId}, ${backorderLineId})`);
}

/** Whether a pick of the line came from the location. */
export async function pickedFrom(tx: Db, lineId: string, locationId: string): Promise<boolean> {
  const [picked] = await query<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM order_picks WHERE line_id = ${lineId} AND from_location_id = ${locationId} LIMIT 1`,
  );
  return picked !== undefined;
}

/** Undoes a pick: the pick leaves its package and the line wants its quantity again. */
export async function undoPick(tx: Db, pickId: string, lineId: string, qty: string): Promise<void> {
  await query(tx, sql`UPDATE order_picks SET state = 'unpicked', package_id = NULL WHERE id = ${pickId}`);
  await query(
    tx,
    // A rest put on a backorder stays there: only the unpicked quantity opens again.
    sql`UPDATE order_lines SET qty_picked = qty_picked - ${qty}::numeric, status = 'open',
        qty_short = CASE WHEN EXISTS (SELECT 1 FROM order_backorders WHERE line_id = ${lineId}) THEN qty_short ELSE 0 END,
        short_reason = CASE WHEN EXISTS (SELECT 1 FROM order_backorders WHERE line_id = ${lineId}) THEN short_reason ELSE NULL END, _rev = _rev + 1 WHERE id = ${lineId}`,
  );
}
