import { ZERO_QTY_MONTHS_DEFAULT } from '@floorhand/contract/constants';
import { LOOKUP_SORTS } from '@floorhand/contract/stock';
import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/** The stockLookup session preferences: filters, zero quantity with zeroQtyMonths, and sort. */
export const STOCK_LOOKUP_PREFS = {
  filterWarehouse: pref.text(),
  filterConditionCode: pref.text(),
  filterDepartment: pref.text(),
  /** The spec's order-type filter: only stock picked for an order of this type (sos, sms, rst, wos, mos). */
  filterOrderType: pref.text(),
  showZeroQty: pref.bool(false),
  zeroQtyMonths: pref.int(ZERO_QTY_MONTHS_DEFAULT, 0, 1200),
  sort: pref.oneOf(LOOKUP_SORTS, 'location'),
  sortDesc: pref.bool(false),
};
export type StockLookupPrefs = PrefsOf<typeof STOCK_LOOKUP_PREFS>;

export const useStockLookupPrefs = () => usePrefs('stockLookup', STOCK_LOOKUP_PREFS);
