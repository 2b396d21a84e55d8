import type { CallArgs } from '@floorhand/contract/api';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import type { OrderType } from '@floorhand/contract/orders';
import { LOOKUP_VALUE_MAX, type LOOKUP_MATCHES, type LookupGroup } from '@floorhand/contract/stock';
import { sumQty } from '../../../lib/inventory-format.ts';
import type { StockLookupPrefs } from '../hooks/use-stock-lookup-prefs.ts';
import { tk } from '@floorhand/contract/i18n';

export type LookupArgs = CallArgs<'stock/lookup'>;

/** Whether a scanned or typed value can be looked up at all (a long QR code cannot: nothing is that long). */
export const lookupValueFits = (value: string): boolean => value.trim().length <= LOOKUP_VALUE_MAX;

/** A stored preference that is one of the order types (an older or hand-edited one is ignored). */
const isOrderType = (v: string | null): v is OrderType => ORDER_TYPES.includes(v as OrderType);

/** The stock/lookup request for a value under the user's filters; unset filters are left out. */

export function lookupArgs(value: string, prefs: StockLookupPrefs): LookupArgs {
  return {
    value: value.trim(),
    ...(prefs.filterWarehouse ? { warehouse: prefs.filterWarehouse } : {}),
    ...(prefs.filterConditionCode ? { conditionCode: prefs.filterConditionCode } : {}),
    ...(prefs.filterDepartment ? { department: prefs.filterDepartment } : {}),
    ...(isOrderType(prefs.filterOrderType) ? { orderType: prefs.filterOrderType } : {}),
    showZeroQty: prefs.showZeroQty,
    zeroQtyMonths: prefs.zeroQtyMonths,
    sort: prefs.sort,
    desc: prefs.sortDesc,
  };
}

/** How many of the filters narrow the lookup (the handheld's "Filters" button shows it). */
export const activeFilterCount = (p: StockLookupPrefs): number =>
  [p.filterWarehouse, p.filterConditionCode, p.filterDepartment, isOrderType(p.filterOrderType) ? p.filterOrderType : null].filter(Boolean)
    .length + (p.showZeroQty ? 1 : 0);

/** One item's stock in a lookup: its location groups in the lookup's order and the exact total. */
export interface ItemSection {
  itemId: string;
  partNumber: string;
  description: string;
  uom: string;
  quantity: number;
  records: number;
  locations: LookupGroup[];
}

/**
 * The lookup's item-and-location groups gathered per item, in order of each item's first group, so a
 * location lookup lists each item once with where it lies and a part lookup shows one item with all
 * of its locations.
 */
export function groupByItem(groups: readonly LookupGroup[]): ItemSection[] {
  const items = new Map<string, ItemSection>();
  for (const g of groups) {
    let item = items.get(g.itemId);
    if (!item) {
      item = { itemId: g.itemId, partNumber: g.partNumber, description: g.description, uom: g.uom, quantity: 0, records: 0, locations: [] };
      items.set(g.itemId, item);
    }
    item.locations.push(g);
  }
  for (const item of items.values()) {
    item.quantity = sumQty(item.locations.map((l) => l.quantity));
    item.records = item.locations.reduce((n, l) => n + l.records.length, 0);
  }
  return [...items.values()];
}

export type LookupMatch = (typeof LOOKUP_MATCHES)[number];
export const MATCH_LABELS: Record<LookupMatch, string> = {
  stockId: tk('Stock id'),
  location: tk('Location'),
  partNumber: tk('Part number'),
  barcode: tk('Barcode'),
  order: tk('Order'),
};
