import { Button, Group, Paper, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAppUpdate } from '../lib/pwa.ts';

/**
 * "Update ready — reload": a new version of the app is installed and waits (lib/pwa.ts). Shown above
 * the page, never over it; the version changes only when the worker presses Reload, so a task in
 * progress is never interrupted by it.
 */
export function UpdateBanner() {
  const { t } = useTranslation();
  const ready = useAppUpdate((s) => s.ready);
  const apply = useAppUpdate((s) => s.apply);
  // The live region is there from the start, so a screen reader announces the notice when it appears.
  return (
    <div role="status">
      {ready && (
        <Paper withBorder radius="sm" px="sm" py={6} mb="sm" bg="var(--mantine-primary-color-light)" data-testid="update-banner">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              {t('Update ready — reload')}
            </Text>
            <Button size="sm" mih={44} leftSection={<IconRefresh size={18} />} onClick={apply} data-testid="update-reload">
              {t('Reload')}
            </Button>
          </Group>
        </Paper>
      )}
    </div>
  );
}
