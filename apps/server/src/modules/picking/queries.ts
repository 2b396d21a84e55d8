// Picks as read, by this module and by shipping (its staged stock is the picks of an order, with
// their item and package): one select, one mapping.
import { sql } from 'drizzle-orm';
import type { OrderType, Pick } from '@floorhand/contract/orders';
import type { Staged } from '@floorhand/contract/shipping';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import { personName } from '../orders/queries.ts';

/** A pick as stored, with the picker's name. */
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

const PICK_COLUMNS = sql`p.id, p.line_id, sr.stock_id, p.qty::text AS qty, fl.code AS from_location, tl.code AS to_location,
  p.account_id, ${personName('a')} AS account_name, ${isoSql(sql`p.ts`)} AS ts`;
const PICK_FROM = sql`FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id
JOIN locations fl ON fl.id = p.from_location_id JOIN locations tl ON tl.id = p.to_location_id
LEFT JOIN accounts a ON a.id = p.account_id`;
const PICK_SELECT = sql`SELECT ${PICK_COLUMNS} ${PICK_FROM}`;

export const toPick = (r: PickRow): Pick => ({
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
  return (await query<PickRow>(db, sql`${PICK_SELECT} WHERE p.order_id = ${orderId} AND p.state = 'picked' ORDER BY p.ts, p.id`)).map(
    toPick,
  );
}

export async function pickById(db: Db, id: string): Promise<Pick | undefined> {
  const [row] = await query<PickRow>(db, sql`${PICK_SELECT} WHERE p.id = ${id}`);
  return row ? toPick(row) : undefined;
}

interface StagedRow extends PickRow {
  part_number: string;
  uom: string;
  package_id: string | null;
  state: string;
}

/** The stock staged for an order (picked, shipped or issued), with its item and package, by stock id. */
export async function stagedPicks(db: Db, orderId: string): Promise<Staged[]> {
  const rows = await query<StagedRow>(
    db,
    sql`SELECT ${PICK_COLUMNS}, i.part_number, i.uom, p.package_id, p.state ${PICK_FROM} JOIN items i ON i.id = sr.item_id
    WHERE p.order_id = ${orderId} AND p.state IN ('picked', 'shipped', 'issued') ORDER BY sr.stock_id`,
  );
  return rows.map((r) => ({ ...toPick(r), partNumber: r.part_number, uom: r.uom, packageId: r.package_id, state: r.state }));
}

/** `(type = … AND status = ANY(…)) OR …`: orders whose status makes them pickable for their type. */
export const pickableCondition = (statusesByType: ReadonlyMap<OrderType, readonly string[]>) =>
  sql.join(
    [...statusesByType].map(([type, statuses]) => sql`(o.type = ${type} AND o.status = ANY(${arrayParam([...statuses])}::text[]))`),
    sql` OR `,
  );
