// Stock records read by other modules (locations, labels): the records with their item, warehouse and location.
import { sql, type SQL } from 'drizzle-orm';
import type { StockRecord } from '@floorhand/contract/stock';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import { STOCK_COLUMNS, STOCK_FROM, toStockRecord, type StockRow } from './repository.ts';

/** Stock records with their item, warehouse and location; `rest` holds WHERE, ORDER BY and LIMIT. */
export async function selectStock(db: Db, rest: SQL): Promise<StockRecord[]> {
  return (await query<StockRow>(db, sql`SELECT ${STOCK_COLUMNS} ${STOCK_FROM} ${rest}`)).map(toStockRecord);
}

export async function stockByIds(db: Db, orgId: string, ids: string[]): Promise<StockRecord[]> {
  const found = await selectStock(db, sql`WHERE sr.org_id = ${orgId} AND sr.id = ANY(${arrayParam(ids)})`);
  return ids.map((id) => found.find((r) => r._id === id)).filter((r): r is StockRecord => r !== undefined);
}
