import { useQuery } from '@tanstack/react-query';
import { APP_SETTINGS_DEFAULTS, appSettingsSchema } from '@floorhand/contract/admin';
import { siteDataQuery } from '../../../lib/site-data.ts';

export interface StockAdjustSettings {
  clearDstLoc: boolean;
  reasons: string[];
}

/** app_settings' stockAdjust section, or the defaults where it is missing or broken. */
export function readStockAdjustSettings(data: unknown): StockAdjustSettings {
  const raw = (data as { stockAdjust?: unknown } | undefined)?.stockAdjust;
  const parsed = appSettingsSchema.shape.stockAdjust.safeParse(raw);
  return parsed.success ? parsed.data : { ...APP_SETTINGS_DEFAULTS.stockAdjust };
}

export const useStockAdjustSettings = () => useQuery({ ...siteDataQuery('conf', 'app_settings'), select: (r) => readStockAdjustSettings(r.siteData?.data) });
