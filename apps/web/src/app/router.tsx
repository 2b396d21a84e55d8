import { createRootRoute, createRoute, createRouter, redirect, type ParsedLocation } from '@tanstack/react-router';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { readGuardInput } from './guard-input.ts';
import { adminGuard, appSettingsGuard, homeRedirect, kioskGuard, timeclockGuard, userAcctGuard, workPageGuard, type GuardInput, type GuardResult } from './guards.ts';
import { Shell } from './shell.tsx';
import { isAuthenticated } from '../lib/auth-store.ts';
import { logout, setNavigateToRoot } from '../lib/session.ts';
import { usePendingRoute } from '../lib/session-store.ts';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { TasksPage } from '../features/tasks/components/tasks-page.tsx';
import { WorkAreaPage } from '../features/tasks/components/work-area-page.tsx';
import { StockLookupPage } from '../features/stock-lookup/components/stock-lookup-page.tsx';
import { StockAdjustPage } from '../features/stock-adjust/components/stock-adjust-page.tsx';
import { LocationsPage } from '../features/locations/components/locations-page.tsx';
import { AppSettingsPage } from '../features/settings/components/app-settings-page.tsx';
import { AppSettingsAdmin } from '../features/admin/components/app-settings-admin.tsx';
import { UserAcctPage } from '../features/account/components/user-acct-page.tsx';
import { RolesPage } from '../features/admin/components/roles-page.tsx';
import { FeatureAccessPage } from '../features/admin/components/feature-access-page.tsx';
import { TimeclockPage } from '../features/timeclock/components/timeclock-page.tsx';
import { KioskPage } from '../features/kiosk/components/kiosk-page.tsx';
import { LinkBackPage } from '../features/landing/components/link-back-page.tsx';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: string;
    feature?: string;
  }
  interface Register {
    router: typeof router;
  }
}

/** Applies a guard's verdict: allow, send to landing with a pending route, redirect, or block. */
function enforce(check: (g: GuardInput) => GuardResult) {
  return ({ location }: { location: ParsedLocation }) => {
    const result = check(readGuardInput());
    switch (result.kind) {
      case 'allow':
        return;
      case 'login':
        usePendingRoute.getState().set(location.href);
        throw redirect({ to: '/' });
      case 'redirect':
        if (result.dialog) void dialogs.info({ title: result.dialog.title, message: result.dialog.message, type: 'warn' });
        if (result.logout) void logout({ navigate: false });
        throw redirect({ href: result.to });
      case 'block': {
        void dialogs.info({ title: result.dialog.title, message: result.dialog.message, type: 'warn' });
        const prev = router.state.resolvedLocation;
        throw redirect({ href: prev && prev.href !== location.href ? prev.href : '/home' });
      }
    }
  };
}

const rootRoute = createRootRoute({ component: Shell });

// entrance and landing share the root path: logged in goes home, otherwise the login page shows.
const entrance = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    if (isAuthenticated()) throw redirect({ to: '/home' });
  },
  component: LandingPage,
});

const home = createRoute({ getParentRoute: () => rootRoute, path: '/home', beforeLoad: enforce(homeRedirect) });

const timeclock = createRoute({
  getParentRoute: () => rootRoute,
  path: '/timeclock',
  staticData: { title: 'Time-Clock' },
  beforeLoad: enforce(timeclockGuard),
  component: TimeclockPage,
});

const kiosk = createRoute({ getParentRoute: () => rootRoute, path: '/kiosk', beforeLoad: enforce(kioskGuard), component: KioskPage });

const tasks = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tasks',
  staticData: { title: 'Tasks' },
  beforeLoad: enforce((g) => workPageGuard(g)),
  component: TasksPage,
});

/** A work page: same guards as tasks, plus its feature's visibility; the placeholder until its screens exist. */
function workPage(path: string, title: string, feature: string, component: typeof WorkAreaPage = WorkAreaPage) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    staticData: { title, feature },
    beforeLoad: enforce((g) => workPageGuard(g, feature)),
    component,
  });
}

const singleTask = workPage('/singleTask', 'Single Task Labor', 'singleTask');
const batchTask = workPage('/batchTask', 'Batch Task Labor', 'batchTask');
const shipping = workPage('/shipping/{-$lookupVal}', 'Shipping', 'shipping');
const stockPick = workPage('/stockPick/{-$lookupVal}', 'Stock Picking', 'stockPick');
const stockLookup = workPage('/stockLookup', 'Stock Lookup', 'stockLookup', StockLookupPage);
const stockAdjust = workPage('/stockAdjust/{-$lookupVal}', 'Stock Adjust', 'stockAdjust', StockAdjustPage);
const physicalInventory = workPage('/physicalInventory', 'Physical Inventory', 'physicalInventory');
const location = workPage('/location', 'Locations', 'location', LocationsPage);
const labelPrinter = workPage('/labelPrinter', 'Label Printers', 'labelPrinter');

const userAcct = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userAcct',
  staticData: { title: 'Accounts' },
  beforeLoad: enforce(userAcctGuard),
  component: UserAcctPage,
});
const userRoles = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userRoles',
  staticData: { title: 'Account Roles' },
  beforeLoad: enforce(adminGuard),
  component: RolesPage,
});
const featureAccess = createRoute({
  getParentRoute: () => rootRoute,
  path: '/featureAccess',
  staticData: { title: 'Feature Access' },
  beforeLoad: enforce(adminGuard),
  component: FeatureAccessPage,
});
const appSettings = createRoute({
  getParentRoute: () => rootRoute,
  path: '/appSettings',
  staticData: { title: 'App Settings' },
  beforeLoad: enforce(appSettingsGuard),
  component: () => <AppSettingsPage siteSection={<AppSettingsAdmin />} />,
});
const linkBack = createRoute({ getParentRoute: () => rootRoute, path: '/linkBack/$op/$pkg', component: LinkBackPage });

// Any other path redirects to entrance.
const anyOther = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/' });
  },
});

const routeTree = rootRoute.addChildren([
  entrance,
  home,
  timeclock,
  kiosk,
  tasks,
  singleTask,
  batchTask,
  shipping,
  stockPick,
  stockLookup,
  stockAdjust,
  physicalInventory,
  location,
  labelPrinter,
  userAcct,
  userRoles,
  featureAccess,
  appSettings,
  linkBack,
  anyOther,
]);

export const router = createRouter({ routeTree, defaultPreload: false, scrollRestoration: true });

setNavigateToRoot(() => void router.navigate({ to: '/' }));
