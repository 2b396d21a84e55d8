/*
 * The SQL of the pick list and of claims: the orders open for picking, the walk an order keeps, and
 * who holds an order or its lines.
 */
import { sql } from 'drizzle-orm';
import type { OrderType } from '@floorhand/contract/orders';
import type { Body } from '../../lib/call-body.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import { selectOrders, type OrderRow } from '../orders/queries.ts';
import { pickableCondition } from './queries.ts';

/** Orders whose status makes them pickable for their type, sorted as asked; one more than maxRows tells there are more. */
export async function pickableOrders(
  db: Db,
  orgId: string,
  byType: ReadonlyMap<OrderType, readonly string[]>,
  body: Body<'pick/list'>,
): Promise<OrderRow[]> {
  const sortColumn = new Map([
    ['dueDate', sql`o.due_date`],
    ['priority', sql`o.priority`],
    ['number', sql`o.number`],
    ['type', sql`o.type`],
  ]).get(body.sort)!;
  const direction = body.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  return selectOrders(
    db,
    sql`WHERE o.org_id = ${orgId} AND (${pickableCondition(byType)})
      ${body.warehouse ? sql`AND w.code = ${body.warehouse}` : sql``}
      ${body.department ? sql`AND (o.department = ${body.department} OR EXISTS (SELECT 1 FROM order_lines ol JOIN items i ON i.id = ol.item_id WHERE ol.order_id = o.id AND i.department = ${body.department}))` : sql``}
    ORDER BY ${sortColumn} ${direction}, o.priority DESC, o.number, o.type LIMIT ${body.maxRows + 1}`,
  );
}

/** The largest aisle number orders.walk_aisles (integer[]) holds. */
const MAX_KEPT_AISLE = 2_147_483_647;

/**
 * Keeps the aisles of an order's walk unless it has some already; answers the ones kept. An aisle
 * number the column cannot hold (a code whose first run is six letters or more, or ten digits: `walkKey`
 * reads it as a number up to 2^53) is left out, not refused: the walk then treats it as an aisle that
 * joined after the start (walkOrder), where it used to fail the whole pick list with a 500.
 */
export async function keepWalkAisles(db: Db, orderId: string, aisles: number[]): Promise<number[] | null | undefined> {
  const storable = aisles.filter((a) => a >= 0 && a <= MAX_KEPT_AISLE);
  const [kept] = await query<{ walk_aisles: number[] | null }>(
    db,
    sql`UPDATE orders SET walk_aisles = coalesce(walk_aisles, ${arrayParam(storable)}::integer[]) WHERE id = ${orderId} RETURNING walk_aisles`,
  );
  return kept?.walk_aisles;
}

/** The type of the order a line belongs to. */
export async function orderTypeOfLine(db: Db, orgId: string, lineId: string): Promise<OrderType | undefined> {
  const [row] = await query<{ type: OrderType }>(
    db,
    sql`SELECT o.type FROM order_lines ol JOIN orders o ON o.id = ol.order_id WHERE ol.org_id = ${orgId} AND ol.id = ${lineId}`,
  );
  return row?.type;
}

/** Locks these lines of an order (in id order). */
export async function lockOrderLines(tx: Db, orgId: string, orderId: string, ids: string[]): Promise<void> {
  await query(
    tx,
    sql`SELECT id FROM order_lines WHERE org_id = ${orgId} AND order_id = ${orderId} AND id = ANY(${sql.param(ids)}) ORDER BY id FOR UPDATE`,
  );
}

export async function claimLines(tx: Db, accountId: string, lineIds: string[]): Promise<void> {
  await query(tx, sql`UPDATE order_lines SET claimed_by = ${accountId}, _rev = _rev + 1 WHERE id = ANY(${sql.param(lineIds)})`);
}

export async function claimOrder(tx: Db, accountId: string, orderId: string): Promise<void> {
  await query(tx, sql`UPDATE orders SET claimed_by = ${accountId}, _rev = _rev + 1 WHERE id = ${orderId}`);
}

export async function setOrderStatus(tx: Db, orderId: string, status: string): Promise<void> {
  await query(tx, sql`UPDATE orders SET status = ${status} WHERE id = ${orderId}`);
}

/** Releases those of these lines the account holds. */
export async function releaseLines(tx: Db, accountId: string, lineIds: string[]): Promise<void> {
  await query(
    tx,
    sql`UPDATE order_lines SET claimed_by = NULL, _rev = _rev + 1 WHERE id = ANY(${sql.param(lineIds)}) AND claimed_by = ${accountId}`,
  );
}

/** Releases the order, and every line of it, as far as the account holds them. */
export async function releaseOrder(tx: Db, accountId: string, orderId: string): Promise<void> {
  await query(tx, sql`UPDATE orders SET claimed_by = NULL, _rev = _rev + 1 WHERE id = ${orderId} AND claimed_by = ${accountId}`);
  await query(tx, sql`UPDATE order_lines SET claimed_by = NULL, _rev = _rev + 1 WHERE order_id = ${orderId} AND claimed_by = ${accountId}`);
}
