import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCloudUpload } from '@tabler/icons-react';
import type { OutboxItem } from '../../../lib/offline/replay.ts';

/**
 * A change of the open record that waits in the outbox: said in place of the forms, which come back
 * once it is sent (the record is refetched then, with the revision the server gave it).
 */
export function QueuedChange({ item }: { item: OutboxItem }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      variant="outline"
      icon={<IconCloudUpload />}
      title={item.state === 'signIn' ? t('Waiting for its person to sign in again') : t('Queued — sent when the connection returns')}
      data-testid="adjust-queued"
      data-state={item.state}
    >
      <Stack gap={4}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {item.label}
        </Text>
        <Text size="sm">{t('Wait until it is sent before changing this record again. Scan the next record meanwhile.')}</Text>
      </Stack>
    </Alert>
  );
}
