// The SQL of orders that only this module uses; the reads others share are in queries.ts.
import { sql } from 'drizzle-orm';
import type { OrderType } from '@floorhand/contract/orders';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
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

/** The organisation's site ids (events go to each). */
export async function siteIdsOf(db: Db, orgId: string): Promise<string[]> {
  return (await query<{ id: string }>(db, sql`SELECT id FROM sites WHERE org_id = ${orgId}`)).map((r) => r.id);
}
