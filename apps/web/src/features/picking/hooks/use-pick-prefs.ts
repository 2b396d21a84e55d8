import { PICK_SORTS } from '@floorhand/contract/orders';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/**
 * The stockPick session preferences (spec section 3): the pick list's filters (warehouse, order type)
 * and sort, kept across reloads and devices; and print a pick label after each confirmed pick, and an
 * order traveller label when the picker takes an order (issue 14's "print on pick and on assign").
 */
export const STOCK_PICK_PREFS = {
  printOnPick: pref.bool(false),
  printOnAssign: pref.bool(false),
  /** Warehouse code, null for all. */
  filterWarehouse: pref.text(),
  /** Order type, null for all. */
  filterOrderType: pref.oneOf([...ORDER_TYPES, ''] as const, ''),
  sort: pref.oneOf(PICK_SORTS, 'dueDate'),
  sortDesc: pref.bool(false),
};
export type StockPickPrefs = PrefsOf<typeof STOCK_PICK_PREFS>;

export const useStockPickPrefs = () => usePrefs('stockPick', STOCK_PICK_PREFS);
