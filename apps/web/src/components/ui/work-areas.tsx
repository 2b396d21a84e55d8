import type { ComponentType } from 'react';
import {
  IconBarcode,
  IconBox,
  IconClipboardList,
  IconClock,
  IconListCheck,
  IconMapPin,
  IconPackageExport,
  IconPrinter,
  IconSearch,
  IconAdjustmentsHorizontal,
  IconStack2,
} from '@tabler/icons-react';
import type { VisibleFeatures, WorkArea } from '@floorhand/contract/features';
import { isAdmin, type UserPerms } from '@floorhand/contract/perms';

export interface WorkAreaEntry {
  feature: WorkArea;
  path: string;
  title: string;
  description: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
}

/** The work areas in menu order: one registry for the tasks menu, the navigation and the guards' titles. */
export const WORK_AREA_MENU: WorkAreaEntry[] = [
  { feature: 'stockPick', path: '/stockPick', title: 'Stock Picking', description: 'Pick order lines from their locations', icon: IconListCheck },
  { feature: 'shipping', path: '/shipping', title: 'Shipping', description: 'Pack picked orders and ship them', icon: IconPackageExport },
  { feature: 'stockLookup', path: '/stockLookup', title: 'Stock Lookup', description: 'Find where stock is and how much', icon: IconSearch },
  { feature: 'stockAdjust', path: '/stockAdjust', title: 'Stock Adjust', description: 'Adjust, move and split stock', icon: IconAdjustmentsHorizontal },
  { feature: 'physicalInventory', path: '/physicalInventory', title: 'Physical Inventory', description: 'Count stock on count sheets', icon: IconClipboardList },
  { feature: 'location', path: '/location', title: 'Locations', description: 'Warehouse locations and what they hold', icon: IconMapPin },
  { feature: 'labelPrinter', path: '/labelPrinter', title: 'Label Printers', description: 'Printers and label printing', icon: IconPrinter },
  { feature: 'singleTask', path: '/singleTask', title: 'Single Task Labor', description: 'Start and stop work on one task', icon: IconBox },
  { feature: 'batchTask', path: '/batchTask', title: 'Batch Task Labor', description: 'Work on several tasks at once', icon: IconStack2 },
  { feature: 'timeclock', path: '/timeclock', title: 'Time-Clock', description: 'Punch in and out', icon: IconClock },
];

export const ScanIcon = IconBarcode;

/** The work areas a session may open: its visible features, and the time clock only for timeclock accounts and admins. */
export const visibleWorkAreas = (features: VisibleFeatures | null, perms: UserPerms | null): WorkAreaEntry[] =>
  WORK_AREA_MENU.filter((w) => features?.[w.feature] !== false && (w.feature !== 'timeclock' || (!!perms && (perms.timeclockAcct || isAdmin(perms)))));
