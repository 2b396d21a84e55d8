import { useEffect } from 'react';
import { Affix, Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconDoorExit } from '@tabler/icons-react';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { closeKioskSession } from '../../../lib/session.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { looksLikeBadge } from '@floorhand/contract/kiosk';
import { ApiError } from '../../../lib/api.ts';
import { refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { scanBus } from '../../../lib/scanning/scan-bus.ts';
import { kioskTimeout, switchKioskWorker } from '../api/start-kiosk.ts';
import { useIdle } from '../hooks/use-idle.ts';

/**
 * While a worker has the kiosk (human token held): a "Done" button on every page, and the
 * kioskSessionTimeout of the machine settings. Either ends the session on the server and returns to
 * the kiosk page. A badge scanned on any page meanwhile switches the kiosk to that worker (the open
 * session ends) before any screen sees the scan; a code that only looks like a badge goes on to the
 * screen.
 */
export function KioskSessionBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const held = useAuthStore((s) => !!s.humanToken);
  const user = useSessionStore((s) => s.user);
  const minutes = useMachineStore((s) => s.kioskSessionTimeout);
  const done = () => void closeKioskSession().then(() => navigate({ to: '/kiosk', replace: true }));
  useIdle(held, Math.max(1, minutes) * 60_000, done);
  useEffect(() => {
    if (!held) return;
    scanBus.setInterceptor((scan) => {
      if (!looksLikeBadge(scan.text.trim())) return false;
      void switchKioskWorker({ badge: scan.text.trim(), entry: 'scan', timeoutMinutes: kioskTimeout(minutes) }).then(
        (switched) => {
          if (switched) void navigate({ to: '/tasks', replace: true });
          else scanBus.toScreens(scan);
        },
        (e: unknown) => {
          refusedFeedback();
          notifications.show({
            id: 'kiosk-switch',
            color: 'red',
            message: e instanceof ApiError ? e.err.message : t('The kiosk could not reach the server. Try again.'),
          });
        },
      );
      return true;
    });
    return () => scanBus.setInterceptor(null);
  }, [held, minutes, navigate, t]);
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
