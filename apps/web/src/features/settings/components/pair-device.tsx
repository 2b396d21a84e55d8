import { useEffect, useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconLink } from '@tabler/icons-react';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { ApiError } from '../../../lib/api.ts';
import { claimPairing, startPairing } from '../api/pair-device.ts';
import { useMachineStore } from '../../../lib/machine-store.ts';

/** How often a device showing a code asks whether an admin entered it. */
export const PAIR_POLL_MS = 3000;

type Pairing = { code: string; expiresAt: number };

/**
 * Pairing (docs/admin.md, Workstations): this device shows a one-time code, an administrator enters
 * it on the Workstations page of any device, and this device receives the secret it keeps with its
 * id. Anyone signed in here may show a code; only an administrator can accept it.
 */
export function PairDevice() {
  const { t } = useTranslation();
  const ws = useMachineStore((s) => s.workstation);
  const save = useMachineStore((s) => s.save);
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const start = async () => {
    setProblem(null);
    const res = await startPairing(ws.id);
    if (res.code && res.expiresAt) setPairing({ code: res.code, expiresAt: Date.parse(res.expiresAt) });
  };

  useEffect(() => {
    if (!pairing) return;
    let stopped = false;
    const poll = async () => {
      if (Date.now() > pairing.expiresAt) {
        setPairing(null);
        return setProblem(t('The code has expired. Show a new one.'));
      }
      try {
        const res = await claimPairing(ws.id, pairing.code);
        if (stopped || !res.secret) return;
        save({ workstation: { ...useMachineStore.getState().workstation, secret: res.secret } });
        setPairing(null);
        const as = [res.workstation?.kiosk && t('kiosk'), res.workstation?.timeclock && t('time clock')].filter(Boolean).join(', ');
        notifications.show({
          message: as ? t('This device is paired: authorised as {{as}}.', { as }) : t('This device is paired.'),
          color: 'green',
          autoClose: NOTIFICATION_TIMEOUT_MS,
        });
      } catch (error) {
        if (stopped) return;
        setPairing(null);
        setProblem(error instanceof ApiError ? error.err.message : t('The pairing failed. Show a new code.'));
      }
    };
    const timer = setInterval(() => void poll(), PAIR_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pairing, save, t, ws.id]);

  return (
    <Stack gap="xs" data-testid="pair-device">
      <Text size="sm" data-testid="pair-state">
        {ws.secret
          ? t('This device holds its authorisation key.')
          : t('This device is not paired: a time clock or kiosk account cannot be used here until it is.')}
      </Text>
      {pairing ? (
        <Alert color="brand" title={t('Pairing code')}>
          <Stack gap={4}>
            <Text
              ff="monospace"
              fz={32}
              fw={700}
              lts={4}
              data-testid="pair-code"
              aria-label={t('Pairing code {{code}}', { code: pairing.code.split('').join(' ') })}
            >
              {pairing.code.slice(0, 3)} {pairing.code.slice(3)}
            </Text>
            <Text size="sm">
              {t(
                'An administrator enters this code under Feature Access, Workstations, on any device. This page waits for it (10 minutes).',
              )}
            </Text>
          </Stack>
        </Alert>
      ) : (
        <Group>
          <Button variant="default" leftSection={<IconLink size={20} />} onClick={() => void start()} data-testid="pair-start">
            {t('Pair this device')}
          </Button>
        </Group>
      )}
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
