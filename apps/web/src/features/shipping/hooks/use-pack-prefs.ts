import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/** The stockPack session preferences (spec section 3): the pack board's warehouse filter, kept across reloads and devices. */
export const STOCK_PACK_PREFS = {
  /** Warehouse code, null for all. */
  filterWarehouse: pref.text(),
};
export type StockPackPrefs = PrefsOf<typeof STOCK_PACK_PREFS>;

export const useStockPackPrefs = () => usePrefs('stockPack', STOCK_PACK_PREFS);
