import { PACK_SORTS, PICKED_SHARES, SHIPPED_ORDER_TYPES } from '@floorhand/contract/shipping';
import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/**
 * The stockPack session preferences (spec section 3), kept across reloads and devices: the pack board's
 * filters (warehouse, order type, how much is picked, department) and sort, all sent to the server in
 * the board call; and print the packing list and package label when I ship.
 */
export const STOCK_PACK_PREFS = {
  /** Warehouse code, null for all. */
  filterWarehouse: pref.text(),
  /** `sos` or `sms`, '' for both. */
  filterOrderType: pref.oneOf([...SHIPPED_ORDER_TYPES, ''] as const, ''),
  /** How much is picked (all, part, none), '' for any. */
  filterPicked: pref.oneOf([...PICKED_SHARES, ''] as const, ''),
  /** Department code of the order or of an item on it, null for all. */
  filterDepartment: pref.text(),
  sort: pref.oneOf(PACK_SORTS, 'dueDate'),
  sortDesc: pref.bool(false),
  /** On a successful ship (one package or the whole order): its packing list and package label print. */
  printOnShip: pref.bool(false),
};
export type StockPackPrefs = PrefsOf<typeof STOCK_PACK_PREFS>;

export const useStockPackPrefs = () => usePrefs('stockPack', STOCK_PACK_PREFS);

/** The board call's filters from the preferences (only what is set). */
export function boardArgs(p: StockPackPrefs) {
  return {
    ...(p.filterWarehouse ? { warehouse: p.filterWarehouse } : {}),
    ...(p.filterOrderType ? { type: p.filterOrderType } : {}),
    ...(p.filterPicked ? { picked: p.filterPicked } : {}),
    ...(p.filterDepartment ? { department: p.filterDepartment } : {}),
    sort: p.sort,
    desc: p.sortDesc,
  };
}
