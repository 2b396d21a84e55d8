import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/**
 * The stockPick session preferences: print a pick label after each confirmed pick, and an order
 * traveller label when the picker takes an order (issue 14's "print on pick and on assign").
 */
export const STOCK_PICK_PREFS = {
  printOnPick: pref.bool(false),
  printOnAssign: pref.bool(false),
};
export type StockPickPrefs = PrefsOf<typeof STOCK_PICK_PREFS>;

export const useStockPickPrefs = () => usePrefs('stockPick', STOCK_PICK_PREFS);
