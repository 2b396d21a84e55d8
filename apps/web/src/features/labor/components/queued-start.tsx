import { Badge, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A task whose start waits in the outbox (issue 27): said so, with the start time of the device's clock. */
export function QueuedStart({ startedAt }: { startedAt: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid="labor-queued">
      <Badge color="orange" variant="filled" size="lg" style={{ whiteSpace: 'normal', height: 'auto' }}>
        {t('Queued — sent when the connection returns')}
      </Badge>
      <Text size="sm" data-testid="labor-queued-start">
        {t('Started at {{time}} (this device’s clock)', { time: new Date(startedAt).toLocaleTimeString() })}
      </Text>
    </Stack>
  );
}
