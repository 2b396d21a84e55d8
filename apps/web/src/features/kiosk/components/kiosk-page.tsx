import { useRef, useState } from 'react';
import { Alert, Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconListDetails } from '@tabler/icons-react';
import type { CallArgs } from '@floorhand/contract/api';
import { BadgeEntry } from '../../../components/scanning/badge-entry.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { closeKioskSession } from '../../../lib/session.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { readFeedback, refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { kioskTimeout, startKioskSession } from '../api/start-kiosk.ts';

/**
 * The shared kiosk's start page: a worker scans a badge (anywhere on the page) or types badge and
 * PIN; the session becomes theirs and the work pages their rights allow open. No list of staff.
 */
export function KioskPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const timeoutMinutes = useMachineStore((s) => s.kioskSessionTimeout);
  const held = useAuthStore((s) => !!s.humanToken);
  const user = useSessionStore((s) => s.user);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const start = (args: Omit<CallArgs<'kiosk/start'>, 'timeoutMinutes'>) => {
    queue.current = queue.current.then(async () => {
      setBusy(true);
      setProblem(null);
      try {
        const person = await startKioskSession({ ...args, timeoutMinutes: kioskTimeout(timeoutMinutes) });
        if (person) {
          readFeedback();
          await navigate({ to: '/tasks' });
        }
      } catch (e) {
        refusedFeedback();
        setProblem(e instanceof ApiError ? e.err.message : t('The kiosk could not reach the server. Try again.'));
      } finally {
        setBusy(false);
      }
    });
  };
  useScans((scan) => start({ badge: scan.text, entry: 'scan' }));

  if (held && user) {
    return (
      <Center mih="60vh">
        <Stack align="center">
          <Title order={2} data-testid="kiosk-title">
            {t('Kiosk')}
          </Title>
          <Text size="lg" data-testid="kiosk-person">
            {t('Signed in as {{name}}', { name: `${user.firstName} ${user.surnames}` })}
          </Text>
          <Group>
            <Button size="lg" leftSection={<IconListDetails size={22} />} onClick={() => void navigate({ to: '/tasks' })}>
              {t('Tasks')}
            </Button>
            <Button size="lg" variant="default" onClick={() => void closeKioskSession()}>
              {t('Done')}
            </Button>
          </Group>
        </Stack>
      </Center>
    );
  }

  return (
    <Center mih="60vh">
      <Stack align="center" w="100%" maw={480}>
        <Title order={2} data-testid="kiosk-title">
          {t('Kiosk')}
        </Title>
        <Text size="lg">{t('Scan your badge to start.')}</Text>
        <div aria-live="polite" style={{ width: '100%' }}>
          {busy && <Text ta="center">{t('One moment…')}</Text>}
          {problem && (
            <Alert color="red" variant="light" title={t('Not signed in')} data-testid="kiosk-error">
              {problem}
            </Alert>
          )}
        </div>
        <BadgeEntry testIdPrefix="kiosk" submitLabel={t('Start')} onTyped={(badge, pin) => start({ badge, entry: 'typed', pin })} />
      </Stack>
    </Center>
  );
}
