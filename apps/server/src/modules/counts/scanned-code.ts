/*
 * What a code scanned while counting is, when it is no stock record's label (issue 25, item 5):
 * a location of the sheet's warehouse (refused with the words of `counts/scanLocation`: a location
 * not on the sheet never opens the found-stock form), a serial on hand (that record), or an item's
 * barcode (that item: its one record in the location being counted, else found stock of that part).
 * Asked only when the label is unknown: a known stock id costs nothing more.
 */
import type { FoundStockHint } from '@floorhand/contract/counts';
import type { Db } from '../../db/client.ts';
import { badInput } from '../../lib/errors.ts';
import { barcodeItem, countedStockById, scannedCodeRow, type BarcodeItem, type CountedStock } from './repository.ts';
import type { SheetRow } from './sheet-repository.ts';
import { tk } from '@floorhand/contract/i18n';

export const notOnSheet = (code: string, sheetCode: string) => tk(`The location '${code}' is not on the count sheet ${sheetCode}`);

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
  const row = await scannedCodeRow(tx, orgId, sheet, code);
  if (row?.on_sheet) throw badInput(`'${code}' is a location of the count sheet ${sheet.code}: scan it to count there`);
  if (row?.location) throw badInput(notOnSheet(code, sheet.code));
  const serials = row?.serial_ids ?? [];
  if (serials.length === 1) {
    const stock = await countedStockById(tx, orgId, serials[0]!);
    if (stock) return { stock };
  }
  if (serials.length > 1) return { serials: serials.length };
  if (row?.item_id) {
    const item = await barcodeItem(tx, row.item_id);
    if (item) return { item };
  }
  return undefined;
}
