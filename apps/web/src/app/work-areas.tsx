import { lazyRouteComponent, type RouteComponent } from '@tanstack/react-router';
import {
  IconAdjustmentsHorizontal,
  IconBox,
  IconClipboardList,
  IconClock,
  IconListCheck,
  IconMapPin,
  IconPackageExport,
  IconPrinter,
  IconSearch,
  IconStack2,
} from '@tabler/icons-react';
import type { VisibleFeatures } from '@floorhand/contract/features';
import { tk } from '@floorhand/contract/i18n';
import type { UserPerms } from '@floorhand/contract/perms';
import { isWorkAreaVisible, type WorkAreaEntry } from '../components/ui/work-areas.tsx';
import { timeclockGuard, type GuardInput, type GuardResult } from './guards.ts';

export interface WorkAreaDef extends WorkAreaEntry {
  /** The route takes an optional value after the area's path (`/shipping/ORD123`), read by the page as `lookupVal`. */
  lookupVal?: true;
  /** The area's screens, a chunk of their own loaded on the first visit; the "coming soon" page until they exist. */
  page?: RouteComponent;
  /** Who may open it when not the work pages' rule (logged in, no kiosk session, the feature not hidden). */
  guard?: (g: GuardInput) => GuardResult;
}

/**
 * The work areas in menu order: the one registry from which the router's work-page routes and their
 * guards and titles, the tasks menu and the navigation are built. A new work area is one line here
 * (its name in the contract's WORK_AREAS) plus its feature folder.
 */
export const WORK_AREA_REGISTRY: readonly WorkAreaDef[] = [
  {
    feature: 'stockPick',
    path: '/stockPick',
    lookupVal: true,
    title: tk('Stock Picking'),
    description: tk('Pick order lines from their locations'),
    icon: IconListCheck,
    page: lazyRouteComponent(() => import('../features/picking/components/picking-page.tsx'), 'PickingPage'),
  },
  {
    feature: 'shipping',
    path: '/shipping',
    lookupVal: true,
    title: tk('Shipping'),
    description: tk('Pack picked orders and ship them'),
    icon: IconPackageExport,
    page: lazyRouteComponent(() => import('../features/shipping/components/shipping-page.tsx'), 'ShippingPage'),
  },
  {
    feature: 'stockLookup',
    path: '/stockLookup',
    title: tk('Stock Lookup'),
    description: tk('Find where stock is and how much'),
    icon: IconSearch,
    page: lazyRouteComponent(() => import('../features/stock-lookup/components/stock-lookup-page.tsx'), 'StockLookupPage'),
  },
  {
    feature: 'stockAdjust',
    path: '/stockAdjust',
    lookupVal: true,
    title: tk('Stock Adjust'),
    description: tk('Adjust, move and split stock'),
    icon: IconAdjustmentsHorizontal,
    page: lazyRouteComponent(() => import('../features/stock-adjust/components/stock-adjust-page.tsx'), 'StockAdjustPage'),
  },
  {
    feature: 'physicalInventory',
    path: '/physicalInventory',
    title: tk('Physical Inventory'),
    description: tk('Count stock on count sheets'),
    icon: IconClipboardList,
    page: lazyRouteComponent(
      () => import('../features/physical-inventory/components/physical-inventory-page.tsx'),
      'PhysicalInventoryPage',
    ),
  },
  {
    feature: 'location',
    path: '/location',
    title: tk('Locations'),
    description: tk('Warehouse locations and what they hold'),
    icon: IconMapPin,
    page: lazyRouteComponent(() => import('../features/locations/components/locations-page.tsx'), 'LocationsPage'),
  },
  {
    feature: 'labelPrinter',
    path: '/labelPrinter',
    title: tk('Label Printers'),
    description: tk('Printers and label printing'),
    icon: IconPrinter,
    page: lazyRouteComponent(() => import('../features/label-printer/components/label-printer-page.tsx'), 'LabelPrinterPage'),
  },
  {
    feature: 'singleTask',
    path: '/singleTask',
    title: tk('Single Task Labor'),
    description: tk('Start and stop work on one task'),
    icon: IconBox,
    page: lazyRouteComponent(() => import('../features/labor/components/single-task-page.tsx'), 'SingleTaskPage'),
  },
  {
    feature: 'batchTask',
    path: '/batchTask',
    title: tk('Batch Task Labor'),
    description: tk('Work on several tasks at once'),
    icon: IconStack2,
    page: lazyRouteComponent(() => import('../features/labor/components/batch-task-page.tsx'), 'BatchTaskPage'),
  },
  {
    feature: 'timeclock',
    path: '/timeclock',
    title: tk('Time-Clock'),
    description: tk('Punch in and out'),
    icon: IconClock,
    page: lazyRouteComponent(() => import('../features/timeclock/components/timeclock-page.tsx'), 'TimeclockPage'),
    guard: timeclockGuard,
  },
];

/** The work areas a session may open, in menu order. */
export const visibleWorkAreas = (features: VisibleFeatures | null, perms: UserPerms | null): WorkAreaDef[] =>
  WORK_AREA_REGISTRY.filter((w) => isWorkAreaVisible(w, features, perms));
