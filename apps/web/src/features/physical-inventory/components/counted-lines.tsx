import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CounterLine } from '@floorhand/contract/counts';
import { showQty } from '../../../lib/inventory-format.ts';

/** Lines of the location drawn at most: a handheld lists the newest. */
const LINES_SHOWN = 50;

/**
 * The lines counted in the scanned location, the worker's queued counts first (marked Queued); with
 * `syscm` the expected quantity beside each (the server sends none on a blind sheet).
 */
export function CountedLines({ lines, syscm }: { lines: Array<CounterLine & { queued?: true }>; syscm: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="pi-lines">
      {lines.length > LINES_SHOWN && (
        <Text size="sm" data-testid="pi-lines-count">
          {t('{{n}} lines counted here; the newest {{shown}} are shown', { n: lines.length, shown: LINES_SHOWN })}
        </Text>
      )}
      {lines.slice(0, LINES_SHOWN).map((l) => (
        <Paper
          key={l.lineId}
          withBorder
          p="xs"
          data-testid="pi-line"
          data-stock={l.stockId ?? ''}
          data-queued={l.queued ? 'true' : undefined}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {l.stockId ?? l.partNumber}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={1}>
                {[l.partNumber, l.description, l.lot, l.serial].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
            <Group gap={6} wrap="nowrap">
              {l.queued && (
                <Badge color="orange" variant="filled" data-testid="pi-line-queued" title={t('Queued — sent when the connection returns')}>
                  {t('Queued')}
                </Badge>
              )}
              {l.found && <Badge color="grape">{t('found')}</Badge>}
              {l.status === 'recount' && <Badge color="orange">{t('recount')}</Badge>}
              {syscm && l.expected !== undefined && (
                <Text size="sm" c="dimmed" data-testid="pi-expected">
                  {t('exp. {{qty}}', { qty: showQty(l.expected) })}
                </Text>
              )}
              <Text fw={700} data-testid="pi-my-count">
                {l.myCount === null ? '—' : showQty(l.myCount)}
              </Text>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
