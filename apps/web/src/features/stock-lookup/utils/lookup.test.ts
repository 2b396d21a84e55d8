import { describe, expect, it } from 'vitest';
import type { LookupGroup, LookupRecord } from '@floorhand/contract/stock';
import { sumQty } from '../../../lib/inventory-format.ts';
import { readPrefs } from '../../../lib/prefs.ts';
import { STOCK_LOOKUP_PREFS } from '../hooks/use-stock-lookup-prefs.ts';
import { activeFilterCount, groupByItem, lookupArgs } from './lookup.ts';

const defaults = readPrefs(STOCK_LOOKUP_PREFS, undefined);

function group(itemId: string, locationId: string, quantities: number[]): LookupGroup {
  const records = quantities.map((quantity, i) => ({ stockId: `${itemId}-${locationId}-${i}`, quantity }) as LookupRecord);
  return {
    itemId,
    partNumber: `P-${itemId}`,
    description: `Item ${itemId}`,
    uom: 'EA',
    tracking: 'none',
    department: null,
    warehouseId: 'w1',
    warehouse: 'MAIN',
    locationId,
    location: `L-${locationId}`,
    quantity: sumQty(quantities),
    records,
  };
}

describe('stock lookup preferences', () => {
  it('default to the spec: zero quantity hidden, zeroQtyMonths 1, sorted by location', () => {
    expect(defaults).toEqual({
      filterWarehouse: null,
      filterConditionCode: null,
      filterDepartment: null,
      filterOrderType: null,
      showZeroQty: false,
      zeroQtyMonths: 1,
      sort: 'location',
      sortDesc: false,
    });
  });

  it('send the order-type filter only when it is an order type', () => {
    expect(lookupArgs('SO-1', { ...defaults, filterOrderType: 'wos' })).toMatchObject({ value: 'SO-1', orderType: 'wos' });
    expect(lookupArgs('SO-1', { ...defaults, filterOrderType: 'nonsense' })).not.toHaveProperty('orderType');
    expect(activeFilterCount({ ...defaults, filterOrderType: 'sos' })).toBe(1);
  });

  it('become the lookup request, unset filters left out', () => {
    expect(lookupArgs(' FH-10001 ', defaults)).toEqual({
      value: 'FH-10001',
      showZeroQty: false,
      zeroQtyMonths: 1,
      sort: 'location',
      desc: false,
    });
    const prefs = {
      ...defaults,
      filterWarehouse: 'EAST',
      filterConditionCode: 'NE',
      filterDepartment: 'QA',
      showZeroQty: true,
      zeroQtyMonths: 3,
      sort: 'quantity' as const,
      sortDesc: true,
    };
    expect(lookupArgs('A-01-1', prefs)).toEqual({
      value: 'A-01-1',
      warehouse: 'EAST',
      conditionCode: 'NE',
      department: 'QA',
      showZeroQty: true,
      zeroQtyMonths: 3,
      sort: 'quantity',
      desc: true,
    });
    expect(activeFilterCount(prefs)).toBe(4);
    expect(activeFilterCount(defaults)).toBe(0);
  });
});

describe('groupByItem', () => {
  it('gathers location groups under their item in order of first appearance', () => {
    const items = groupByItem([group('a', '1', [1, 2]), group('b', '1', [5]), group('a', '2', [0.1, 0.2])]);
    expect(items.map((i) => i.itemId)).toEqual(['a', 'b']);
    expect(items[0]!.locations.map((l) => l.locationId)).toEqual(['1', '2']);
    expect(items[0]!.records).toBe(4);
    // Exact: 1 + 2 + 0.1 + 0.2
    expect(items[0]!.quantity).toBe(3.3);
    expect(items[1]).toMatchObject({ partNumber: 'P-b', quantity: 5, records: 1, uom: 'EA' });
  });

  it('is empty for no groups', () => {
    expect(groupByItem([])).toEqual([]);
  });
});

describe('lookup value length', () => {
  it('fits up to the contract maximum and not beyond', async () => {
    const { lookupValueFits } = await import('./lookup.ts');
    const { LOOKUP_VALUE_MAX } = await import('@floorhand/contract/stock');
    expect(lookupValueFits('A-01-3')).toBe(true);
    expect(lookupValueFits('x'.repeat(LOOKUP_VALUE_MAX))).toBe(true);
    expect(lookupValueFits('x'.repeat(LOOKUP_VALUE_MAX + 1))).toBe(false);
  });
});
