/*
 * The SQL of picking: the pick list, where a line's stock lies, the picks made, and the lookups of a
 * scan. Stock already picked for an order (an active order_picks row) is never offered again.
 */
import { sql } from 'drizzle-orm';
import type { OrderType, Pick } from '@floorhand/contract/orders';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import { personName } from '../orders/repository.ts';

export interface SourceRow {
  item_id: string;
  stock_id: string;
  location_id: string;
  location: string;
  quantity: string;
  lot: string | null;
  serial: string | null;
}

/** Stock of these items in a warehouse that can be picked: on hand, in an active location that is not a staging place, not picked already. */
export async function pickSources(db: Db, orgId: string, warehouseId: string, itemIds: string[]): Promise<SourceRow[]> {
  if (itemIds.length === 0) return [];
  return query<SourceRow>(
    db,
    sql`SELECT sr.item_id, sr.stock_id, sr.location_id, l.code AS location, sr.quantity::text AS quantity, sr.lot, sr.serial
    FROM stock_records sr JOIN locations l ON l.id = sr.location_id
    WHERE sr.org_id = ${orgId} AND sr.warehouse_id = ${warehouseId} AND sr.item_id = ANY(${arrayParam(itemIds)}) AND sr.quantity > 0
      AND l.active AND l.type <> 'staging'
      AND NOT EXISTS (SELECT 1 FROM order_picks p WHERE p.stock_record_id = sr.id AND p.state = 'picked')
    ORDER BY sr.received_date NULLS LAST, sr.stock_id`,
  );
}

/** A pick as stored, with the picker's name (shipping's staged rows add to it). */
export interface PickRow {
  id: string;
  line_id: string;
  stock_id: string;
  qty: string;
  from_location: string;
  to_location: string;
  account_id: string;
  account_name: string | null;
  ts: string;
}

const PICK_SELECT = sql`SELECT p.id, p.line_id, sr.stock_id, p.qty::text AS qty, fl.code AS from_location, tl.code AS to_location,
  p.account_id, ${personName('a')} AS account_name, ${isoSql(sql`p.ts`)} AS ts
FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id
JOIN locations fl ON fl.id = p.from_location_id JOIN locations tl ON tl.id = p.to_location_id
LEFT JOIN accounts a ON a.id = p.account_id`;

const toPick = (r: PickRow): Pick => ({
  _id: r.id,
  lineId: r.line_id,
  stockId: r.stock_id,
  qty: Number(r.qty),
  fromLocation: r.from_location,
  toLocation: r.to_location,
  pickedBy: { id: r.account_id, name: r.account_name ?? r.account_id },
  ts: r.ts,
});

/** The active picks of an order (stock at the staging place, not yet returned or shipped). */
export async function activePicks(db: Db, orderId: string): Promise<Pick[]> {
  return (await query<PickRow>(db, sql`${PICK_SELECT} WHERE p.order_id = ${orderId} AND p.state = 'picked' ORDER BY p.ts, p.id`)).map(toPick);
}

export async function pickById(db: Db, id: string): Promise<Pick | undefined> {
  const [row] = await query<PickRow>(db, sql`${PICK_SELECT} WHERE p.id = ${id}`);
  return row ? toPick(row) : undefined;
}

export interface PickRef {
  id: string;
  order_id: string;
  line_id: string;
  stock_record_id: string;
  stock_id: string;
  qty: string;
  state: string;
}

export async function pickRefById(db: Db, orgId: string, id: string): Promise<PickRef | undefined> {
  const [row] = await query<PickRef>(
    db,
    sql`SELECT p.id, p.order_id, p.line_id, p.stock_record_id, sr.stock_id, p.qty::text AS qty, p.state
    FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id WHERE p.org_id = ${orgId} AND p.id = ${id}`,
  );
  return row;
}

/** The order a stock record is picked for at the moment, if any. */
export async function activePickOf(db: Db, stockRecordId: string): Promise<{ number: string } | undefined> {
  const [row] = await query<{ number: string }>(
    db,
    sql`SELECT o.number FROM order_picks p JOIN orders o ON o.id = p.order_id WHERE p.stock_record_id = ${stockRecordId} AND p.state = 'picked' LIMIT 1`,
  );
  return row;
}

/** Items a scan names by part number or barcode. */
export async function itemsByScan(db: Db, orgId: string, scan: string): Promise<Array<{ id: string; part_number: string }>> {
  return query<{ id: string; part_number: string }>(
    db,
    sql`SELECT id, part_number FROM items WHERE org_id = ${orgId} AND part_number = ${scan}
    UNION SELECT i.id, i.part_number FROM item_barcodes b JOIN items i ON i.id = b.item_id WHERE b.org_id = ${orgId} AND b.barcode = ${scan}`,
  );
}

/** The pickable records of an item in a location (for a scan of the item rather than its label). */
export async function recordsOfItemAt(db: Db, orgId: string, itemId: string, locationId: string): Promise<string[]> {
  const rows = await query<{ stock_id: string }>(
    db,
    sql`SELECT sr.stock_id FROM stock_records sr WHERE sr.org_id = ${orgId} AND sr.item_id = ${itemId} AND sr.location_id = ${locationId} AND sr.quantity > 0
      AND NOT EXISTS (SELECT 1 FROM order_picks p WHERE p.stock_record_id = sr.id AND p.state = 'picked') LIMIT 2`,
  );
  return rows.map((r) => r.stock_id);
}

/** Whether a location holds no more stock (quantity above zero). */
export async function locationIsEmpty(db: Db, locationId: string): Promise<boolean> {
  const rows = await query<{ one: number }>(db, sql`SELECT 1 AS one FROM stock_records WHERE location_id = ${locationId} AND quantity > 0 LIMIT 1`);
  return rows.length === 0;
}

/** `(type = … AND status = ANY(…)) OR …`: orders whose status makes them pickable for their type. */
export const pickableCondition = (statusesByType: ReadonlyMap<OrderType, readonly string[]>) =>
  sql.join(
    [...statusesByType].map(([type, statuses]) => sql`(o.type = ${type} AND o.status = ANY(${arrayParam([...statuses])}::text[]))`),
    sql` OR `,
  );
