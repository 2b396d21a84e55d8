import { useQuery } from '@tanstack/react-query';
import { readStockAdjustSettings } from '@floorhand/contract/stock-rules';
import { siteDataQuery } from '../../../lib/site-data.ts';

/** app_settings' stockAdjust section (clear the destination, the adjustment reasons), read by the contract's rule. */
export const useStockAdjustSettings = () =>
  useQuery({ ...siteDataQuery('conf', 'app_settings'), select: (r) => readStockAdjustSettings(r.siteData?.data) });
