import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect, type ParsedLocation } from '@tanstack/react-router';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { tk } from '@floorhand/contract/i18n';
import { WorkAreasContext } from '../components/ui/work-areas.tsx';
import { readGuardInput } from './guard-input.ts';
import {
  adminGuard,
  appSettingsGuard,
  clockOnlyRedirect,
  homeRedirect,
  kioskGuard,
  userAcctGuard,
  workPageGuard,
  type GuardInput,
  type GuardResult,
} from './guards.ts';
import { timekeeperGuard } from './guards.ts';
import { RouteLoading } from './route-loading.tsx';
import { Shell } from './shell.tsx';
import { WORK_AREA_REGISTRY } from './work-areas.tsx';
import { isAuthenticated } from '../lib/auth-store.ts';
import { logout, setNavigateToRoot } from '../lib/session.ts';
import { usePendingRoute } from '../lib/session-store.ts';
import { LandingPage } from '../features/landing/components/landing-page.tsx';

// Every page but the login page is a chunk of its own, loaded on the first visit (RouteLoading shows
// if that takes a while); the registry's work areas name theirs in app/work-areas.tsx.
const TasksPage = lazyRouteComponent(() => import('../features/tasks/components/tasks-page.tsx'), 'TasksPage');
const WorkAreaPage = lazyRouteComponent(() => import('../features/tasks/components/work-area-page.tsx'), 'WorkAreaPage');
const UserAcctPage = lazyRouteComponent(() => import('../features/account/components/user-acct-page.tsx'), 'UserAcctPage');
const RolesPage = lazyRouteComponent(() => import('../features/admin/components/roles-page.tsx'), 'RolesPage');
const FeatureAccessPage = lazyRouteComponent(() => import('../features/admin/components/feature-access-page.tsx'), 'FeatureAccessPage');
const KioskPage = lazyRouteComponent(() => import('../features/kiosk/components/kiosk-page.tsx'), 'KioskPage');
const PunchCorrectionsPage = lazyRouteComponent(
  () => import('../features/timeclock/components/punch-corrections-page.tsx'),
  'PunchCorrectionsPage',
);
const LinkBackPage = lazyRouteComponent(() => import('../features/landing/components/link-back-page.tsx'), 'LinkBackPage');
// App Settings with the site administration section inside: both chunks load before the page shows.
const AppSettings = lazyRouteComponent(async () => {
  const [{ AppSettingsPage }, { AppSettingsAdmin }] = await Promise.all([
    import('../features/settings/components/app-settings-page.tsx'),
    import('../features/admin/components/app-settings-admin.tsx'),
  ]);
  return { default: () => <AppSettingsPage siteSection={<AppSettingsAdmin />} /> };
});

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
    const input = readGuardInput();
    const result = clockOnlyRedirect(input, location.pathname) ?? check(input);
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

// The shell, with the registry handed to the features that list work areas (tasks menu, feature access).
const rootRoute = createRootRoute({
  component: () => (
    <WorkAreasContext value={WORK_AREA_REGISTRY}>
      <Shell />
    </WorkAreasContext>
  ),
});

// entrance and landing share the root path: logged in goes home, otherwise the login page shows.
const entrance = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    if (isAuthenticated()) throw redirect({ to: '/home' });
  },
  component: () => <LandingPage onLoggedIn={(to) => router.navigate({ href: to })} />,
});

const home = createRoute({ getParentRoute: () => rootRoute, path: '/home', beforeLoad: enforce(homeRedirect) });

const kiosk = createRoute({ getParentRoute: () => rootRoute, path: '/kiosk', beforeLoad: enforce(kioskGuard), component: KioskPage });

const tasks = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tasks',
  staticData: { title: tk('Tasks') },
  beforeLoad: enforce((g) => workPageGuard(g)),
  component: TasksPage,
});

/**
 * The work areas' routes, from the registry: the work pages' guard (as tasks, plus the area's
 * feature) unless the area names its own, its title, and its page or the placeholder until its
 * screens exist.
 */
const workAreas = WORK_AREA_REGISTRY.map((w) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: w.lookupVal ? `${w.path}/{-$lookupVal}` : w.path,
    staticData: { title: w.title, feature: w.feature },
    beforeLoad: enforce(w.guard ?? ((g) => workPageGuard(g, w.feature))),
    component: w.page ?? WorkAreaPage,
  }),
);

const userAcct = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userAcct',
  staticData: { title: tk('Accounts') },
  beforeLoad: enforce(userAcctGuard),
  component: UserAcctPage,
});
const userRoles = createRoute({
  getParentRoute: () => rootRoute,
  path: '/userRoles',
  staticData: { title: tk('Account Roles') },
  beforeLoad: enforce(adminGuard),
  component: RolesPage,
});
const featureAccess = createRoute({
  getParentRoute: () => rootRoute,
  path: '/featureAccess',
  staticData: { title: tk('Feature Access') },
  beforeLoad: enforce(adminGuard),
  component: FeatureAccessPage,
});
const appSettings = createRoute({
  getParentRoute: () => rootRoute,
  path: '/appSettings',
  staticData: { title: tk('App Settings') },
  beforeLoad: enforce(appSettingsGuard),
  component: AppSettings,
});
const punchCorrections = createRoute({
  getParentRoute: () => rootRoute,
  path: '/punches',
  staticData: { title: tk('Punch Corrections') },
  beforeLoad: enforce(timekeeperGuard),
  component: PunchCorrectionsPage,
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
  kiosk,
  tasks,
  ...workAreas,
  userAcct,
  userRoles,
  featureAccess,
  appSettings,
  punchCorrections,
  linkBack,
  anyOther,
]);

export const router = createRouter({ routeTree, defaultPreload: false, scrollRestoration: true, defaultPendingComponent: RouteLoading });

setNavigateToRoot(() => router.navigate({ to: '/' }));
