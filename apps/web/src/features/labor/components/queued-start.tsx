import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showTimestamp } from '../../../lib/inventory-format.ts';

/** A task whose start waits in the outbox (issue 27): said so, with the start time of the device's clock. */
export function QueuedStart({ startedAt }: { startedAt: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" p="xs" data-testid="labor-queued">
      <Text size="sm" fw={700}>
        {t('Queued — sent when the connection returns')}
      </Text>
      <Text size="sm" data-testid="labor-queued-start">
        {t('Started at {{time}} (this device’s clock)', { time: showTimestamp(startedAt) })}
      </Text>
    </Alert>
  );
}
