import { useCallback, useMemo } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Movement, MovementType } from '@floorhand/contract/stock';
import { showQty, showTimestamp } from '../../lib/inventory-format.ts';
import { DataTable, type DataColumn } from './data-table.tsx';
import { tk } from '@floorhand/contract/i18n';

const TYPE_LABELS: Record<MovementType, string> = {
  receive: tk('Received'),
  adjust: tk('Adjusted'),
  move: tk('Moved'),
  split: tk('Split'),
  pick: tk('Picked'),
  unpick: tk('Unpicked'),
  pack: tk('Packed'),
  ship: tk('Shipped'),
  issue: tk('Issued'),
  count: tk('Counted'),
};
const TYPE_COLORS: Partial<Record<MovementType, string>> = {
  receive: 'green',
  adjust: 'orange',
  move: 'blue',
  split: 'grape',
  count: 'cyan',
  ship: 'gray',
};

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

const typeBadge = (m: Movement, label: string) => (
  <Badge color={TYPE_COLORS[m.type] ?? 'gray'} variant="light">
    {label}
  </Badge>
);

/** A stock record's ledger, newest first: a table on desktops, a list on handhelds. */
export function MovementHistory({ movements, more }: MovementHistoryProps) {
  const { t } = useTranslation();
  const note = useCallback(
    (m: Movement) => [m.reason, m.relatedStockId ? t('with {{stockId}}', { stockId: m.relatedStockId }) : null].filter(Boolean).join(' · '),
    [t],
  );
  const columns = useMemo<DataColumn<Movement>[]>(
    () => [
      { id: 'ts', header: t('When'), cell: (m) => showTimestamp(m.ts), tdProps: { style: { whiteSpace: 'nowrap' } } },
      { id: 'type', header: t('What'), cell: (m) => typeBadge(m, t(TYPE_LABELS[m.type])) },
      { id: 'delta', header: t('Change'), cell: (m) => signed(m.qtyDelta), align: 'right' },
      { id: 'after', header: t('After'), cell: (m) => showQty(m.qtyAfter), align: 'right' },
      { id: 'where', header: t('Where'), cell: route },
      { id: 'note', header: t('Note'), cell: note },
      { id: 'by', header: t('By'), cell: (m) => m.userName ?? m.user },
    ],
    [t, note],
  );
  if (movements.length === 0) return <Text c="dimmed">{t('No movements yet.')}</Text>;
  return (
    <Stack gap="xs" data-testid="movement-history">
      <DataTable
        rows={movements}
        columns={columns}
        rowKey={(m) => m.id}
        rowAttrs={(m) => ({ 'data-testid': 'movement-row', 'data-type': m.type })}
        tableProps={{ striped: true, verticalSpacing: 6, highlightOnHover: false }}
        more={more ?? false}
        moreHint={t('Older movements are not shown.')}
        renderCard={(m) => (
          <>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              {typeBadge(m, t(TYPE_LABELS[m.type]))}
              <Text fw={600} size="sm">
                {signed(m.qtyDelta)} → {showQty(m.qtyAfter)}
              </Text>
            </Group>
            <Text size="sm">{route(m)}</Text>
            {note(m) && <Text size="sm">{note(m)}</Text>}
            <Text size="xs" c="dimmed">
              {showTimestamp(m.ts)} · {m.userName ?? m.user}
            </Text>
          </>
        )}
      />
    </Stack>
  );
}
