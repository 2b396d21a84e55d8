import { APP_SETTINGS_DEFAULTS, BRAND_DEFAULTS } from '@floorhand/contract/site-admin';

/** Site data that exists before an admin saves any: the spec's defaults (section 9), declared in the contract. */
export const SITE_DATA_DEFAULTS: Record<string, Record<string, Record<string, unknown>>> = {
  conf: { client: {}, app_settings: APP_SETTINGS_DEFAULTS },
  brand: { brand: BRAND_DEFAULTS },
};

/** Site data anyone may read before logging in. */
export const PUBLIC_SITE_DATA: ReadonlyArray<readonly [string, string]> = [
  ['conf', 'client'],
  ['brand', 'brand'],
];
