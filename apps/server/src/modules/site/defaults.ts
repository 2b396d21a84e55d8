import { LABOR_DEFAULTS, STOCK_ADJUST_CLEAR_DST_LOC_DEFAULT } from '@floorhand/contract/constants';

const pickDefaults = { include: ['open', 'released'], assign: 'picking', picked: 'picked' };

/** Site data that exists before an admin saves any: the spec's defaults (section 9). */
export const SITE_DATA_DEFAULTS: Record<string, Record<string, Record<string, unknown>>> = {
  conf: {
    client: {},
    app_settings: {
      labor: { ...LABOR_DEFAULTS },
      stockPick: { sos: pickDefaults, sms: pickDefaults, rst: pickDefaults, wos: pickDefaults, mos: pickDefaults },
      stockAdjust: { clearDstLoc: STOCK_ADJUST_CLEAR_DST_LOC_DEFAULT, reasons: ['Damaged', 'Found', 'Lost', 'Correction'] },
      custom: { certSource: [] },
      labels: { stockLabels: [], pickLabels: [], orderTravellerLabels: [], locLabel: [], staffLabel: [] },
    },
  },
  brand: {
    brand: {
      siteName: 'Floorhand',
      title: 'Floorhand',
      colors: {
        primary: '#1f6f8b',
        secondary: '#26a69a',
        accent: '#9c27b0',
        dark: '#1d1d1d',
        positive: '#21ba45',
        negative: '#c10015',
        info: '#31ccec',
        warning: '#f2c037',
        headFg: '#ffffff',
        headBg: '#1f6f8b',
        clickPrimary: '#1f6f8b',
        clickSecondary: '#26a69a',
      },
    },
  },
};

/** Site data anyone may read before logging in. */
export const PUBLIC_SITE_DATA: ReadonlyArray<readonly [string, string]> = [
  ['conf', 'client'],
  ['brand', 'brand'],
];
