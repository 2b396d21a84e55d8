import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../lib/offline/connection.ts';

/** Orange dark enough for 4.5:1 with white (Mantine's orange 9 gives 3.9:1, axe-core: serious). */
export const QUEUED_ORANGE = '#a53d00';

/** Whether the server answers now: writes outside the outbox (OFFLINE_CALLS) need it. */
export const useOnline = (): boolean => useConnection((s) => s.state === 'online');

/** Orange: this change is in the device's outbox, sent when the connection returns (issue 27). Readable at 360, it wraps. */
export function QueuedBadge({ testId = 'queued-badge' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={QUEUED_ORANGE} variant="filled" h="auto" py={4} maw="100%" styles={{ label: { whiteSpace: 'normal', textTransform: 'none' } }} style={{ flexShrink: 0 }} data-testid={testId}>
      {t('Queued — sent when the connection returns')}
    </Badge>
  );
}

/** Says why a button is disabled while the server cannot be reached: "Needs the server: ship when back online". */
export function NeedsServer({ children, testId = 'needs-server-note' }: { children: string; testId?: string }) {
  return (
    <Text size="sm" c={QUEUED_ORANGE} fw={600} data-testid={testId}>
      {children}
    </Text>
  );
}
