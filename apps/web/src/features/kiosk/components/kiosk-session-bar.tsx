import { Affix, Button } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconDoorExit } from '@tabler/icons-react';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { closeKioskSession } from '../../../lib/session.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useIdle } from '../hooks/use-idle.ts';

/**
 * While a worker has the kiosk (human token held): a "Done" button on every page, and the
 * kioskSessionTimeout of the machine settings. Either ends the session on the server and returns to
 * the kiosk page.
 */
export function KioskSessionBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const held = useAuthStore((s) => !!s.humanToken);
  const user = useSessionStore((s) => s.user);
  const minutes = useMachineStore((s) => s.kioskSessionTimeout);
  const done = () => void closeKioskSession().then(() => navigate({ to: '/kiosk', replace: true }));
  useIdle(held, Math.max(1, minutes) * 60_000, done);
  if (!held) return null;
  return (
    <Affix position={{ bottom: 16, right: 16 }} zIndex={250}>
      <Button size="lg" color="dark" leftSection={<IconDoorExit size={22} />} onClick={done} data-testid="kiosk-done">
        {t('Done')}
        {user ? ` · ${user.firstName}` : ''}
      </Button>
    </Affix>
  );
}
