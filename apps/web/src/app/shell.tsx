import { useEffect } from 'react';
import { ActionIcon, AppShell, Burger, Group, Menu, NavLink, ScrollArea, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { UI_BREAKPOINTS } from '@floorhand/contract/constants';
import { Link, Outlet, useMatches, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconLogout, IconSettings, IconUserCircle, IconUsers, IconShieldLock, IconHome } from '@tabler/icons-react';
import { isAdmin } from '@floorhand/contract/perms';
import { fullName, isAuthenticated, useAuthStore } from '../lib/auth-store.ts';
import { logout } from '../lib/session.ts';
import { useSessionStore } from '../lib/session-store.ts';
import { useSiteStore } from '../lib/site-store.ts';
import { useBrandHead } from '../lib/brand-assets.ts';
import { ScanIcon, visibleWorkAreas } from '../components/ui/work-areas.tsx';
import { configureWasm } from '../lib/scanning/decoder.ts';
import { zxingReaderWasmUrl } from '../lib/scanning/decoder-wasm-url.ts';
import { attachKeyboardWedge } from '../lib/scanning/keyboard-wedge.ts';
import { scanBus } from '../lib/scanning/scan-bus.ts';
import { ScannerOverlay } from '../components/scanning/scanner-overlay.tsx';
import { closeScanner, openScanner } from '../lib/scanning/scanner-store.ts';
import { DialogHost } from '../components/dialogs/dialog-host.tsx';
import { ScreenSaver } from './screen-saver.tsx';
import { Watermark } from './watermark.tsx';

function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthStore((s) => s.user);
  const perms = useSessionStore((s) => s.perms);
  if (!user) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('Account menu')} data-testid="user-menu" style={{ minHeight: 44, minWidth: 44 }}>
          <Group gap={6} wrap="nowrap">
            <IconUserCircle size={28} />
            <Text size="sm" visibleFrom="sm" c="inherit">
              {fullName(user)}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{fullName(user)}</Menu.Label>
        <Menu.Item leftSection={<IconUserCircle size={18} />} onClick={() => void navigate({ to: '/userAcct' })}>
          {t('Accounts')}
        </Menu.Item>
        {perms && isAdmin(perms) && (
          <>
            <Menu.Item leftSection={<IconUsers size={18} />} onClick={() => void navigate({ to: '/userRoles' })}>
              {t('Account Roles')}
            </Menu.Item>
            <Menu.Item leftSection={<IconShieldLock size={18} />} onClick={() => void navigate({ to: '/featureAccess' })}>
              {t('Feature Access')}
            </Menu.Item>
          </>
        )}
        <Menu.Item leftSection={<IconSettings size={18} />} onClick={() => void navigate({ to: '/appSettings' })}>
          {t('App Settings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={18} />} onClick={() => void logout()} data-testid="logout">
          {t('Log out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The one application shell: header, navigation of the visible work areas, router view, overlays. */
export function Shell() {
  const { t } = useTranslation();
  const [navOpen, nav] = useDisclosure(false);
  const matches = useMatches();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const authed = useAuthStore((s) => isAuthenticated(s));
  const features = useSessionStore((s) => s.featureAccess);
  const perms = useSessionStore((s) => s.perms);
  const brand = useSiteStore((s) => s.brand);
  useBrandHead();
  const title = [...matches].reverse().find((m) => m.staticData.title)?.staticData.title;
  const kioskSession = !!perms?.kioskAcct;
  const showNav = authed && !kioskSession && !perms?.timeclockAcct;
  // The mobile menu closes when the page changes.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => nav.close(), [pathname]);
  // Scanning everywhere: the decoder's .wasm from our origin, one keyboard-wedge listener, and the
  // scanner overlay closes when the page changes.
  useEffect(() => {
    configureWasm(zxingReaderWasmUrl);
    return attachKeyboardWedge(window, scanBus.publish);
  }, []);
  useEffect(() => closeScanner(), [pathname]);
  // A password set by an admin is temporary: My account, to choose one's own, before any other page.
  const mustChangePassword = useAuthStore((s) => !!s.mustChangePassword);
  const navigate = useNavigate();
  useEffect(() => {
    if (authed && mustChangePassword && !perms?.kioskAcct && !perms?.timeclockAcct && pathname !== '/userAcct') void navigate({ to: '/userAcct', replace: true });
  }, [authed, mustChangePassword, perms, pathname, navigate]);
  useEffect(() => {
    document.title = [title ? t(title) : undefined, brand.title ?? 'Floorhand'].filter(Boolean).join(' · ');
  }, [title, brand.title, t]);
  const menu = visibleWorkAreas(features, perms);
  const navOnScreen = useMediaQuery(`(min-width: ${UI_BREAKPOINTS.md / 16}em)`, true, { getInitialValueInEffect: false });
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={showNav ? { width: 260, breakpoint: 'md', collapsed: { mobile: !navOpen, desktop: false } } : undefined}
      padding="md"
    >
      <AppShell.Header bg={brand.colors?.headBg ?? 'var(--mantine-color-brand-6)'} c={brand.colors?.headFg ?? 'white'}>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {showNav && <Burger opened={navOpen} onClick={nav.toggle} hiddenFrom="md" color="currentColor" aria-label={t('Menu')} size="md" />}
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
            {authed && (
              <ActionIcon variant="transparent" c="inherit" size={44} aria-label={t('Scan')} data-testid="header-scan" onClick={() => openScanner()}>
                <ScanIcon size={28} />
              </ActionIcon>
            )}
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      {showNav && (
        // Off screen on a handheld until the menu opens: inert, so Tab does not walk into it.
        <AppShell.Navbar p="xs" inert={!navOnScreen && !navOpen}>
          <ScrollArea>
            {menu.map((w) => (
              <NavLink
                key={w.feature}
                component={Link}
                to={w.path}
                label={t(w.title)}
                leftSection={<w.icon size={22} />}
                active={pathname.startsWith(w.path)}
                style={{ minHeight: 44 }}
              />
            ))}
          </ScrollArea>
        </AppShell.Navbar>
      )}
      <AppShell.Main pb="xs">
        <Outlet />
        <Watermark />
      </AppShell.Main>
      <ScannerOverlay />
      <DialogHost />
      <ScreenSaver />
    </AppShell>
  );
}
