import { Badge, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../../lib/offline/connection.ts';

/** Orange dark enough for 4.5:1 with white (Mantine's orange 9 gives 3.9:1, axe-core: serious). */
export const QUEUED_ORANGE = '#a53d00';

/** Whether the server answers now: writes outside the outbox (OFFLINE_CALLS) need it. */
export const useOnline = (): boolean => useConnection((s) => s.state === 'online');

/**
 * Orange: this change is in the device's outbox, sent when the connection returns (issue 27). Short
 * on the row ("Queued", beside the stock id at 360); the whole sentence is its title and what a
 * screen reader says.
 */
export function QueuedBadge({ testId = 'queued-badge' }: { testId?: string }) {
  const { t } = useTranslation();
  const why = t('Queued — sent when the connection returns');
  return (
    <Badge color={QUEUED_ORANGE} variant="filled" style={{ flexShrink: 0 }} title={why} data-testid={testId}>
      <span aria-hidden>{t('Queued')}</span>
      <VisuallyHidden>{why}</VisuallyHidden>
    </Badge>
  );
}

/**
 * Says why a button is disabled while the server cannot be reached: "Needs the server: ship when back
 * online". In orange's text colour of the scheme (dark orange on white, light orange on the dark page).
 */
export function NeedsServer({ children, testId = 'needs-server-note' }: { children: string; testId?: string }) {
  return (
    <Text size="sm" c="orange" fw={600} data-testid={testId}>
      {children}
    </Text>
  );
}
