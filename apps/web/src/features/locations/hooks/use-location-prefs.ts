import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/** The location session preferences (spec): filterWarehouse, filterActive (only active ones) and lookupVal (the search). */
export const LOCATION_PREFS = {
  filterWarehouse: pref.text(),
  filterActive: pref.bool(true),
  lookupVal: pref.text(''),
};
export type LocationPrefs = PrefsOf<typeof LOCATION_PREFS>;

export const useLocationPrefs = () => usePrefs('location', LOCATION_PREFS);
