import { lazy, Suspense, useEffect, type MouseEvent } from 'react';
import { ActionIcon, AppShell, Burger, Group, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { UI_BREAKPOINTS } from '@floorhand/contract/constants';
import { Link, Outlet, useMatches, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconHome } from '@tabler/icons-react';
import { isAuthenticated, useAuthStore } from '../lib/auth-store.ts';
import { useSessionStore } from '../lib/session-store.ts';
import { useSiteStore } from '../lib/site-store.ts';
import { useBrandHead } from '../lib/brand-assets.ts';
import { ScanIcon } from '../components/ui/work-areas.tsx';
import { zxingReaderWasmUrl } from '../lib/scanning/decoder-wasm-url.ts';
import { useMachineStore } from '../lib/machine-store.ts';
import { scanNotRead, scansNotRead } from '../lib/scanning/feedback.ts';
import { attachKeyboardWedge } from '../lib/scanning/keyboard-wedge.ts';
import { scanBus } from '../lib/scanning/scan-bus.ts';
import { closeScannerOnPageChange, openScanner } from '../lib/scanning/scanner-store.ts';
import { useDialogStore } from '../components/dialogs/dialog-store.ts';
import { attachConnectionEvents } from '../lib/offline/connection.ts';
import { startOutbox } from '../lib/offline/outbox.ts';
import { ConnectionIndicator } from '../components/offline/connection-indicator.tsx';
import { NeedsServerBanner } from '../components/offline/needs-server.tsx';
import { ScreenSaver } from './screen-saver.tsx';
import { UpdateBanner } from './update-banner.tsx';
import { Watermark } from './watermark.tsx';
import './shell.css';

/** The id of the page's main content, where the skip link sends focus. */
const MAIN_CONTENT_ID = 'main-content';

/** Moves focus to the main content (the skip link's target): the next Tab is the page's first control. */
function skipToContent(e: MouseEvent<HTMLAnchorElement>) {
  // Not the browser's own jump to #main-content: the router would read the hash as a navigation.
  e.preventDefault();
  const main = document.getElementById(MAIN_CONTENT_ID);
  main?.focus();
  main?.scrollIntoView({ block: 'start' });
}

// What the login page does without loads when first needed, each a chunk of its own: the account
// menu and the navigation once logged in, the dialogs once logged in or with the first one opened.
const UserMenu = lazy(() => import('./user-menu.tsx').then((m) => ({ default: m.UserMenu })));
const WorkAreaNav = lazy(() => import('./work-area-nav.tsx').then((m) => ({ default: m.WorkAreaNav })));
// A worker's kiosk session: the Done button and the inactivity timeout (a chunk loaded only then).
const KioskSessionBar = lazy(() =>
  import('../features/kiosk/components/kiosk-session-bar.tsx').then((m) => ({ default: m.KioskSessionBar })),
);
const DialogHost = lazy(() => import('../components/dialogs/dialog-host.tsx').then((m) => ({ default: m.DialogHost })));

// The camera scanner and its decoder load once logged in (not on the login page), the decoder's .wasm
// from our origin.
const ScannerOverlay = lazy(async () => {
  const [{ ScannerOverlay }, { configureWasm }] = await Promise.all([
    import('../components/scanning/scanner-overlay.tsx'),
    import('../lib/scanning/decoder.ts'),
  ]);
  configureWasm(zxingReaderWasmUrl);
  return { default: ScannerOverlay };
});

/** The one application shell: header, navigation of the visible work areas, router view, overlays. */
export function Shell() {
  const { t } = useTranslation();
  const [navOpen, nav] = useDisclosure(false);
  const matches = useMatches();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const authed = useAuthStore((s) => isAuthenticated(s));
  const hasUser = useAuthStore((s) => !!s.user);
  const anyDialog = useDialogStore((s) => s.open.length > 0);
  const perms = useSessionStore((s) => s.perms);
  const humanHeld = useAuthStore((s) => !!s.humanToken);
  const brand = useSiteStore((s) => s.brand);
  useBrandHead();
  const title = [...matches].reverse().find((m) => m.staticData.title)?.staticData.title;
  const kioskSession = !!perms?.kioskAcct;
  const showNav = authed && !kioskSession && !perms?.timeclockAcct;
  // The mobile menu closes when the page changes.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => nav.close(), [pathname]);
  // Scanning everywhere: one keyboard-wedge router (a scan reaches the screen whatever has focus), and the scanner overlay closes when the page changes.
  const wedgePrefix = useMachineStore((s) => s.barcode.wedgePrefix);
  useEffect(
    () => attachKeyboardWedge(window, scanBus.publish, { onBroken: scanNotRead, prefix: wedgePrefix, onPerson: scanBus.forgetRepeats }),
    [wedgePrefix],
  );
  useEffect(() => closeScannerOnPageChange(pathname), [pathname]);
  // The connection's state and the outbox: what was queued is sent as soon as the server answers (issue 27).
  useEffect(() => attachConnectionEvents(), []);
  useEffect(() => (authed ? startOutbox() : undefined), [authed]);
  // A scan on a page that reads none is said to be unread, not looked up later by the next work screen.
  useEffect(() => {
    scanBus.setUnread(scansNotRead);
    return () => scanBus.setUnread(null);
  }, []);
  // A password set by an admin is temporary: My account, to choose one's own, before any other page.
  const mustChangePassword = useAuthStore((s) => !!s.mustChangePassword);
  const navigate = useNavigate();
  useEffect(() => {
    if (authed && mustChangePassword && !perms?.kioskAcct && !perms?.timeclockAcct && pathname !== '/userAcct')
      void navigate({ to: '/userAcct', replace: true });
  }, [authed, mustChangePassword, perms, pathname, navigate]);
  useEffect(() => {
    document.title = [title ? t(title) : undefined, brand.title ?? 'Floorhand'].filter(Boolean).join(' · ');
  }, [title, brand.title, t]);
  const navOnScreen = useMediaQuery(`(min-width: ${UI_BREAKPOINTS.md / 16}em)`, true, { getInitialValueInEffect: false });
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={showNav ? { width: 260, breakpoint: 'md', collapsed: { mobile: !navOpen, desktop: false } } : undefined}
      padding="md"
    >
      {/* First in Tab order on every page: past the header and the navigation to the page itself. */}
      <a href={`#${MAIN_CONTENT_ID}`} className="fh-skip-link" onClick={skipToContent} data-testid="skip-link">
        {t('Skip to content')}
      </a>
      <AppShell.Header bg={brand.colors?.headBg ?? 'var(--mantine-color-brand-6)'} c={brand.colors?.headFg ?? 'white'}>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {showNav && (
              <Burger
                opened={navOpen}
                onClick={nav.toggle}
                hiddenFrom="md"
                color="currentColor"
                aria-label={t('Menu')}
                size="md"
                data-testid="nav-burger"
              />
            )}
            {authed && (
              <ActionIcon component={Link} to="/home" variant="transparent" c="inherit" size={44} aria-label={t('Home')} visibleFrom="sm">
                <IconHome size={24} />
              </ActionIcon>
            )}
            <Title order={1} fz={{ base: 18, sm: 22 }} c="inherit" lineClamp={1} data-testid="page-title">
              {title ? t(title) : (brand.siteName ?? 'Floorhand')}
            </Title>
          </Group>
          <Group gap={0} wrap="nowrap">
            {authed && <ConnectionIndicator />}
            {authed && (
              <ActionIcon
                variant="transparent"
                c="inherit"
                size={44}
                aria-label={t('Scan')}
                data-testid="header-scan"
                onClick={() => openScanner()}
              >
                <ScanIcon size={28} />
              </ActionIcon>
            )}
            {hasUser && (
              <Suspense fallback={null}>
                <UserMenu />
              </Suspense>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      {showNav && (
        // Off screen on a handheld until the menu opens: inert, so Tab does not walk into it.
        <AppShell.Navbar p="xs" inert={!navOnScreen && !navOpen}>
          <Suspense fallback={null}>
            <WorkAreaNav pathname={pathname} />
          </Suspense>
        </AppShell.Navbar>
      )}
      <AppShell.Main pb="xs" id={MAIN_CONTENT_ID} tabIndex={-1} className="fh-main">
        <UpdateBanner />
        {authed && <NeedsServerBanner pathname={pathname} />}
        <Outlet />
        <Watermark />
      </AppShell.Main>
      {authed && (
        <Suspense fallback={null}>
          <ScannerOverlay />
        </Suspense>
      )}
      {authed && humanHeld && (
        <Suspense fallback={null}>
          <KioskSessionBar />
        </Suspense>
      )}
      {/* Mounted once logged in, so its chunk is there before the first dialog (Camera missing, a
          refusal): a dialog that waits for a download can miss the Escape meant for it. */}
      {(anyDialog || authed) && (
        <Suspense fallback={null}>
          <DialogHost />
        </Suspense>
      )}
      <ScreenSaver />
    </AppShell>
  );
}
