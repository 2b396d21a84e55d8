import { describe, expect, it, vi } from 'vitest';
import { APP_SETTINGS_DEFAULTS } from '@floorhand/contract/site-admin';
import { inventoryKeys, isAffected, readStockAdjustSettings } from './inventory-api.ts';

vi.mock('./session.ts', () => ({ realtime: { on: () => () => true } }));

const ev = { stockIds: ['S000000001'], locationIds: ['loc-1'] };

describe('which queries a stockChanged event refreshes', () => {
  it('every lookup and location list', () => {
    expect(isAffected(inventoryKeys.lookup({ value: 'FH-10001' }), undefined, ev)).toBe(true);
    expect(isAffected(inventoryKeys.locations({ warehouse: 'MAIN' }), undefined, ev)).toBe(true);
  });

  it('a stock record only when it is named', () => {
    expect(isAffected(inventoryKeys.stock('S000000001'), undefined, ev)).toBe(true);
    expect(isAffected(inventoryKeys.stock('S000000002'), undefined, ev)).toBe(false);
  });

  it('a location only when its id is named', () => {
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-1'), { location: { _id: 'loc-1' } }, ev)).toBe(true);
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-2'), { location: { _id: 'loc-2' } }, ev)).toBe(false);
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-3'), undefined, ev)).toBe(false);
  });

  it('nothing else', () => {
    expect(isAffected(inventoryKeys.warehouses, undefined, ev)).toBe(false);
    expect(isAffected(['admin', 'accounts'], undefined, ev)).toBe(false);
  });
});

describe('stock adjust app settings', () => {
  it('are read from app_settings, or the defaults when missing or broken', () => {
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: false, reasons: ['Scrap'] } })).toEqual({ clearDstLoc: false, reasons: ['Scrap'] });
    expect(readStockAdjustSettings(undefined)).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: 'no' } })).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
  });
});
