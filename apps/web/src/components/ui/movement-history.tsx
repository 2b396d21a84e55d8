import { Badge, Group, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Movement, MovementType } from '@floorhand/contract/stock';
import { showQty, showTimestamp } from '../../lib/inventory-format.ts';
import { useNarrow } from '../../lib/use-narrow.ts';

const TYPE_LABELS: Record<MovementType, string> = {
  receive: 'Received',
  adjust: 'Adjusted',
  move: 'Moved',
  split: 'Split',
  pick: 'Picked',
  unpick: 'Unpicked',
  pack: 'Packed',
  ship: 'Shipped',
  issue: 'Issued',
  count: 'Counted',
};
const TYPE_COLORS: Partial<Record<MovementType, string>> = { receive: 'green', adjust: 'orange', move: 'blue', split: 'grape', count: 'cyan', ship: 'gray' };

const signed = (n: number) => (n > 0 ? `+${showQty(n)}` : showQty(n));

function place(warehouse: string | null, location: string | null): string {
  return location ? `${warehouse ?? ''} / ${location}` : '';
}

/** Where a movement took the stock: "MAIN / A-01-1 → MAIN / B-02-3", or the one place it stayed in. */
function route(m: Movement): string {
  const from = place(m.fromWarehouse, m.fromLocation);
  const to = place(m.toWarehouse, m.toLocation);
  return from && to && from !== to ? `${from} → ${to}` : to || from;
}

export interface MovementHistoryProps {
  movements: Movement[];
  more?: boolean;
}

/** A stock record's ledger, newest first: a table on desktops, a list on handhelds. */
export function MovementHistory({ movements, more }: MovementHistoryProps) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  if (movements.length === 0) return <Text c="dimmed">{t('No movements yet.')}</Text>;
  const note = (m: Movement) => [m.reason, m.relatedStockId ? t('with {{stockId}}', { stockId: m.relatedStockId }) : null].filter(Boolean).join(' · ');
  return (
    <Stack gap="xs" data-testid="movement-history">
      {narrow ? (
        <Stack gap={6}>
          {movements.map((m) => (
            <Paper key={m.id} withBorder p="xs" data-testid="movement-row" data-type={m.type}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Badge color={TYPE_COLORS[m.type] ?? 'gray'} variant="light">
                  {t(TYPE_LABELS[m.type])}
                </Badge>
                <Text fw={600} size="sm">
                  {signed(m.qtyDelta)} → {showQty(m.qtyAfter)}
                </Text>
              </Group>
              <Text size="sm">{route(m)}</Text>
              {note(m) && <Text size="sm">{note(m)}</Text>}
              <Text size="xs" c="dimmed">
                {showTimestamp(m.ts)} · {m.userName ?? m.user}
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <ScrollArea type="auto">
          <Table verticalSpacing={6} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('What')}</Table.Th>
                <Table.Th ta="right">{t('Change')}</Table.Th>
                <Table.Th ta="right">{t('After')}</Table.Th>
                <Table.Th>{t('Where')}</Table.Th>
                <Table.Th>{t('Note')}</Table.Th>
                <Table.Th>{t('By')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {movements.map((m) => (
                <Table.Tr key={m.id} data-testid="movement-row" data-type={m.type}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{showTimestamp(m.ts)}</Table.Td>
                  <Table.Td>
                    <Badge color={TYPE_COLORS[m.type] ?? 'gray'} variant="light">
                      {t(TYPE_LABELS[m.type])}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{signed(m.qtyDelta)}</Table.Td>
                  <Table.Td ta="right">{showQty(m.qtyAfter)}</Table.Td>
                  <Table.Td>{route(m)}</Table.Td>
                  <Table.Td>{note(m)}</Table.Td>
                  <Table.Td>{m.userName ?? m.user}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {more && (
        <Text size="sm" c="dimmed">
          {t('Older movements are not shown.')}
        </Text>
      )}
    </Stack>
  );
}
