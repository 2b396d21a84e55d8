import { ORDER_CANCELLED } from '@floorhand/contract/orders';
import { ORDER_ISSUED, ORDER_PART_ISSUED, ORDER_PART_SHIPPED, ORDER_SHIPPED } from '@floorhand/contract/shipping';
import { APP_SETTINGS_DEFAULTS } from '@floorhand/contract/site-admin';

/** The statuses an order can have: the app settings' defaults, shipping's and cancelled. */
export const KNOWN_STATUSES: readonly string[] = [
  ...new Set([
    ...Object.values(APP_SETTINGS_DEFAULTS.stockPick).flatMap((s) => [...s.include, ...s.assign, ...s.picked]),
    ORDER_SHIPPED,
    ORDER_PART_SHIPPED,
    ORDER_ISSUED,
    ORDER_PART_ISSUED,
    ORDER_CANCELLED,
  ]),
];
