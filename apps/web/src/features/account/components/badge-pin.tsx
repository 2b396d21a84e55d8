import { useState } from 'react';
import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconTrash } from '@tabler/icons-react';
import { pinSchema } from '@floorhand/contract/timeclock';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { useSetPin } from '../api/set-pin.ts';

/**
 * The badge PIN of a worker, set or cleared by an admin in the account editor (docs/timeclock.md):
 * a typed badge at the time clock or the kiosk needs it. Whether a PIN is set is never shown (the
 * server keeps only its hash); setting one replaces the old one.
 */
export function BadgePin({ accountId, userName }: { accountId: string; userName: string }) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const save = useSetPin({ done: t('The badge PIN is set'), onSuccess: () => setPin('') });
  const clear = useSetPin({ done: t('The badge PIN is cleared') });
  const problem = pin && !pinSchema.safeParse(pin).success ? t('4 to 8 digits') : undefined;
  return (
    <Stack gap="xs" data-testid="badge-pin">
      <Text size="sm" c="dimmed">
        {t('Needed when {{name}} types their badge at the time clock or a kiosk instead of scanning it.', { name: userName })}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (pin && !problem) save.mutate({ accountId, pin });
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <PasswordInput
            label={t('New badge PIN')}
            autoComplete="off"
            inputMode="numeric"
            visibilityToggleButtonProps={{ 'aria-label': t('Show or hide the PIN') }}
            maxLength={8}
            value={pin}
            error={problem}
            onChange={(e) => setPin(e.currentTarget.value.replace(/\D/g, ''))}
            style={{ flex: 1, minWidth: 160 }}
            data-testid="badge-pin-input"
          />
          <Button
            type="submit"
            variant="light"
            size="md"
            disabled={!pin || !!problem}
            loading={save.isPending}
            data-testid="badge-pin-save"
          >
            {t('Set PIN')}
          </Button>
          <Button
            variant="default"
            size="md"
            leftSection={<IconTrash size={18} />}
            loading={clear.isPending}
            data-testid="badge-pin-clear"
            onClick={async () => {
              const ok = await dialogs.confirm({
                type: 'warn',
                title: t('Clear badge PIN'),
                message: t('{{name}} can then only scan their badge, not type it.', { name: userName }),
                neg: t('Cancel'),
                pos: t('Clear'),
              });
              if (ok === 'pos') clear.mutate({ accountId, pin: null });
            }}
          >
            {t('Clear PIN')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
