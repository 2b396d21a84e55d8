import { Badge } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useReadConnection } from '../../lib/offline-cache/connection.ts';

/** The time an answer was fetched, on 24 hours with seconds. */
export const fetchedAtText = (at: number): string => dayjs(at).format('HH:mm:ss');

/**
 * "Offline — as of 14:03:27": shown beside data read from the cache while the server cannot be
 * reached (issue 27 item 4), so a worker knows how old what they read is. Nothing while online or
 * before anything was fetched. A badge in the flow of the screen: it never covers the scan field.
 */
export function FetchedAt({ at, testId = 'fetched-at' }: { at: number | undefined; testId?: string }) {
  const { t } = useTranslation();
  const connection = useReadConnection();
  if (connection === 'online' || !at) return null;
  return (
    <Badge
      color="yellow.4"
      variant="filled"
      autoContrast
      size="lg"
      radius="sm"
      leftSection={<IconCloudOff size={16} aria-hidden />}
      data-testid={testId}
      role="status"
      styles={{
        root: { textTransform: 'none', alignSelf: 'flex-start', maxWidth: '100%', height: 'auto', minHeight: 28 },
        label: { whiteSpace: 'normal' },
      }}
    >
      {t('Offline — as of {{time}}', { time: fetchedAtText(at) })}
    </Badge>
  );
}
