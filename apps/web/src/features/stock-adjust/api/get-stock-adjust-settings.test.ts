import { describe, expect, it } from 'vitest';
import { APP_SETTINGS_DEFAULTS } from '@floorhand/contract/admin';
import { readStockAdjustSettings } from './get-stock-adjust-settings.ts';

describe('stock adjust app settings', () => {
  it('are read from app_settings, or the defaults when missing or broken', () => {
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: false, reasons: ['Scrap'] } })).toEqual({ clearDstLoc: false, reasons: ['Scrap'] });
    expect(readStockAdjustSettings(undefined)).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
    expect(readStockAdjustSettings({ stockAdjust: { clearDstLoc: 'no' } })).toEqual(APP_SETTINGS_DEFAULTS.stockAdjust);
  });
});
