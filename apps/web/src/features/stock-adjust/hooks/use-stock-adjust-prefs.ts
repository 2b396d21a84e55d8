import { DELTA_TYPES } from '@floorhand/contract/stock';
import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

export const ADJUST_TYPES = ['adjust', 'move', 'split'] as const;
export type AdjustType = (typeof ADJUST_TYPES)[number];

/**
 * The stockAdjust session preferences: deltaType (delta or absolute), adjustType (the action last
 * used, so a worker moving pallet after pallet lands on Move), reason (the last adjustment's, chosen
 * beforehand so the quantity prompt's Enter adjusts), and print a label after each action.
 */
export const STOCK_ADJUST_PREFS = {
  deltaType: pref.oneOf(DELTA_TYPES, 'delta'),
  adjustType: pref.oneOf(ADJUST_TYPES, 'adjust'),
  reason: pref.text(),
  printOnAdjust: pref.bool(false),
  printOnMove: pref.bool(false),
  printOnSplit: pref.bool(false),
};
export type StockAdjustPrefs = PrefsOf<typeof STOCK_ADJUST_PREFS>;

export const useStockAdjustPrefs = () => usePrefs('stockAdjust', STOCK_ADJUST_PREFS);
