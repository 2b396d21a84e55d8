import { formatHours } from '@floorhand/contract/labor';
import { showDecimal } from '../../../lib/inventory-format.ts';

/** Seconds as hours with the site's decimals (contract formatHours), in the screen's separator: "1,25" in Spanish. */
export const showHours = (seconds: number, displayScale: number): string => showDecimal(formatHours(seconds, displayScale));
