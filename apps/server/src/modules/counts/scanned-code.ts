/*
 * What a code scanned while counting is, when it is no stock record's label (issue 25, item 5):
 * a location of the sheet's warehouse (refused with the words of `counts/scanLocation`: a location
 * not on the sheet never opens the found-stock form), a serial on hand (that record), or an item's
 * barcode (that item: its one record in the location being counted, else found stock of that part).
 * Asked only when the label is unknown: a known stock id costs nothing more.
 */
import { sql } from 'drizzle-orm';
import type { FoundStockHint } from '@floorhand/contract/counts';
import type { Tracking } from '@floorhand/contract/items';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import { badInput } from '../../lib/errors.ts';
import { countedStockById, type CountedStock, type SheetRow } from './repository.ts';

export const notOnSheet = (code: string, sheetCode: string) => `The location '${code}' is not on the count sheet ${sheetCode}`;

export interface BarcodeItem {
  id: string;
  part_number: string;
  tracking: Tracking;
  uom: string;
  active: boolean;
}

/** The refusal that opens the found-stock form with what the server knows already. */
export const foundStockRefusal = (message: string, found: FoundStockHint['found']) =>
  badInput(message, JSON.stringify({ found } satisfies FoundStockHint));

/**
 * The scanned code, not a stock id: throws for a location; answers the one stock record on hand with
 * that serial, or the item whose barcode it is, or nothing (an unknown label: found stock).
 */
export async function scannedCode(
  tx: Db,
  orgId: string,
  sheet: SheetRow,
  code: string,
): Promise<{ stock: CountedStock } | { item: BarcodeItem } | { serials: number } | undefined> {
  const [row] = await query<{ location: string | null; on_sheet: boolean; serial_ids: string[] | null; item_id: string | null }>(
    tx,
    sql`SELECT
      (SELECT l.id FROM locations l WHERE l.org_id = ${orgId} AND l.warehouse_id = ${sheet.warehouse_id} AND l.code = ${code}) AS location,
      EXISTS (SELECT 1 FROM count_sheet_locations sl JOIN locations l ON l.id = sl.location_id WHERE sl.sheet_id = ${sheet.id} AND l.code = ${code}) AS on_sheet,
      (SELECT array_agg(s.stock_id) FROM (SELECT sr.stock_id FROM stock_records sr WHERE sr.org_id = ${orgId} AND sr.serial = ${code} AND sr.quantity > 0 LIMIT 2) s) AS serial_ids,
      (SELECT b.item_id FROM item_barcodes b WHERE b.org_id = ${orgId} AND b.barcode = ${code}) AS item_id`,
  );
  if (row?.on_sheet) throw badInput(`'${code}' is a location of the count sheet ${sheet.code}: scan it to count there`);
  if (row?.location) throw badInput(notOnSheet(code, sheet.code));
  const serials = row?.serial_ids ?? [];
  if (serials.length === 1) {
    const stock = await countedStockById(tx, orgId, serials[0]!);
    if (stock) return { stock };
  }
  if (serials.length > 1) return { serials: serials.length };
  if (row?.item_id) {
    const [item] = await query<BarcodeItem>(tx, sql`SELECT id, part_number, tracking, uom, active FROM items WHERE id = ${row.item_id}`);
    if (item) return { item };
  }
  return undefined;
}

/** Records of an item on hand in a location (at most 2: one is the answer, two are too many). */
export async function stockOfItemIn(tx: Db, orgId: string, itemId: string, locationId: string, lot?: string): Promise<string[]> {
  const rows = await query<{ stock_id: string }>(
    tx,
    sql`SELECT stock_id FROM stock_records WHERE org_id = ${orgId} AND item_id = ${itemId} AND location_id = ${locationId} AND quantity > 0
      ${lot === undefined ? sql`` : sql`AND lot = ${lot}`} ORDER BY stock_id LIMIT 2`,
  );
  return rows.map((r) => r.stock_id);
}
