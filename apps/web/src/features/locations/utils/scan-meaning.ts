import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * What a scan means on Locations (docs/scanning.md). The scan router brings every scan here whatever
 * has the focus; this table decides.
 *
 * | state                                  | scan     | meaning                                                          |
 * |----------------------------------------|----------|------------------------------------------------------------------|
 * | the location editor open               | anything | refused: save or cancel the location first (nothing typed in it) |
 * | the list, a location's stock shown too | anything | searched for; exactly one location with that code opens its stock |
 */
export type LocationsScanState = {
  /** The location in the editor while it is open: its code, or '' for a new one. */
  editing: string | null;
};

export type LocationsScanMeaning = { kind: 'search' } | Refused;

export const SAVE_LOCATION_FIRST = tk('Save or cancel the location first');
export const SAVE_THIS_LOCATION_FIRST = tk('Save or cancel the location {{code}} first');

export function locationsScanMeaning(state: LocationsScanState): LocationsScanMeaning {
  if (state.editing === null) return { kind: 'search' };
  return state.editing === '' ? refused(SAVE_LOCATION_FIRST) : refused(SAVE_THIS_LOCATION_FIRST, { code: state.editing });
}
