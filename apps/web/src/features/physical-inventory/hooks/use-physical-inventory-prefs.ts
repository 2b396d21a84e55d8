import { pref, usePrefs, type PrefsOf } from '../../../lib/prefs.ts';

/**
 * The physicalInventory session preferences (spec section 3): syscm shows the system quantity (off:
 * new sheets are blind), fromDate / sheet / warehouse / filterSheetOpen / filterSheetSelf filter the
 * sheet list, adjustWithCount posts each count at once, allowSwsgt1 flags a serial counted above 1
 * for review instead of refusing it.
 */
export const PHYSICAL_INVENTORY_PREFS = {
  syscm: pref.bool(false),
  fromDate: pref.text(null),
  sheet: pref.text(null),
  warehouse: pref.text(null),
  filterSheetOpen: pref.bool(true),
  filterSheetSelf: pref.bool(false),
  adjustWithCount: pref.bool(false),
  allowSwsgt1: pref.bool(false),
};
export type PhysicalInventoryPrefs = PrefsOf<typeof PHYSICAL_INVENTORY_PREFS>;

export const usePhysicalInventoryPrefs = () => usePrefs('physicalInventory', PHYSICAL_INVENTORY_PREFS);
