import { Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconLogout, IconSettings, IconUserCircle, IconUsers, IconShieldLock } from '@tabler/icons-react';
import { IconClockEdit } from '@tabler/icons-react';
import { mayAdminister, mayCorrectPunches } from '@floorhand/contract/rights';
import { fullName, useAuthStore } from '../lib/auth-store.ts';
import { logout } from '../lib/session.ts';
import { currentPersonId, useOutbox } from '../lib/offline/outbox.ts';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { ColorSchemeItems } from './color-scheme-items.tsx';

/**
 * Logout, after a word when this person's actions still wait in the outbox: they are kept, and go
 * once the server answers, or (the server wanting them to sign in again) once they are back (issue 27).
 */
async function logoutWhenSent(t: (k: string, o?: Record<string, unknown>) => string): Promise<void> {
  const me = currentPersonId();
  const waiting = useOutbox.getState().items.filter((i) => i.person.accountId === me && i.state !== 'refused').length;
  if (waiting > 0) {
    const answer = await dialogs.confirm({
      type: 'warn',
      title: t('Actions waiting to be sent'),
      message: t(
        '{{count}} of your actions are still waiting to be sent. They are kept on this device; if you log out they may wait until you sign in here again.',
        { count: waiting },
      ),
      neg: t('Stay'),
      pos: t('Log out'),
      focus: 'neg',
    });
    if (answer !== 'pos') return;
  }
  await logout();
}
import { useSessionPerson, useSessionStore } from '../lib/session-store.ts';
import { readGuardInput } from './guard-input.ts';
import { clockOnly } from './guards.ts';

/** The account menu of the header: the account pages, administration for admins, log out. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The session's person: on a kiosk, the worker whose badge opened it (the header names them).
  const user = useSessionPerson();
  const perms = useSessionStore((s) => s.perms);
  // A worker's session on a kiosk (human token): no entries the rights table keeps from a kiosk.
  const throughKiosk = useAuthStore((s) => !!s.humanToken);
  // A time-clock-only device: the clock's settings (its camera) and log out, nothing else.
  const clockDevice = clockOnly(readGuardInput());
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
        {!clockDevice && (
          <Menu.Item
            leftSection={<IconUserCircle size={18} />}
            onClick={() => void navigate({ to: '/userAcct' })}
            data-testid="menu-accounts"
          >
            {t('Accounts')}
          </Menu.Item>
        )}
        {!clockDevice && perms && mayAdminister(perms, throughKiosk) && (
          <>
            <Menu.Item leftSection={<IconUsers size={18} />} onClick={() => void navigate({ to: '/userRoles' })}>
              {t('Account Roles')}
            </Menu.Item>
            <Menu.Item leftSection={<IconShieldLock size={18} />} onClick={() => void navigate({ to: '/featureAccess' })}>
              {t('Feature Access')}
            </Menu.Item>
          </>
        )}
        {!clockDevice && perms && mayCorrectPunches(perms, throughKiosk) && (
          <Menu.Item leftSection={<IconClockEdit size={18} />} onClick={() => void navigate({ to: '/punches' })} data-testid="menu-punches">
            {t('Punch Corrections')}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconSettings size={18} />} onClick={() => void navigate({ to: '/appSettings' })}>
          {t('App Settings')}
        </Menu.Item>
        <Menu.Divider />
        <ColorSchemeItems />
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={18} />} onClick={() => void logoutWhenSent(t)} data-testid="logout">
          {t('Log out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
