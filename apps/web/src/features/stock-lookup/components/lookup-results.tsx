import { useMemo } from 'react';
import { ActionIcon, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import type { LookupGroup, LookupRecord } from '@floorhand/contract/stock';
import type { Translate } from '@floorhand/contract/i18n';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { showQty } from '../../../lib/inventory-format.ts';
import type { ItemSection } from '../utils/lookup.ts';

export interface LookupResultsProps {
  items: ItemSection[];
  onDetail(stockId: string): void;
  onAdjust(stockId: string): void;
}

const details = (r: LookupRecord, t: Translate) =>
  [r.conditionCode, r.lot && t('Lot {{lot}}', { lot: r.lot }), r.serial && t('S/N {{serial}}', { serial: r.serial }), r.receivedDate]
    .filter(Boolean)
    .join(' · ');

function ItemHeader({ item }: { item: ItemSection }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <div style={{ minWidth: 0 }}>
        <Text fw={700} data-testid="item-part">
          {item.partNumber}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {item.description}
        </Text>
      </div>
      <div style={{ textAlign: 'right', flexShrink: 0 }}>
        <Text fw={700} data-testid="item-qty">
          {showQty(item.quantity, item.uom)}
        </Text>
        <Text size="xs" c="dimmed">
          {t('Records: {{n}}', { n: item.records })}
        </Text>
      </div>
    </Group>
  );
}

/** The heading of a location group: where the records lie and how much is there. */
function LocationHeading({ group }: { group: LookupGroup }) {
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="nowrap"
      px={6}
      py={4}
      bg="var(--mantine-color-default-hover)"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <Text fw={600} size="sm">{`${group.warehouse} / ${group.location}`}</Text>
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {showQty(group.quantity, group.uom)}
      </Text>
    </Group>
  );
}

/**
 * An item's stock records, one DataTable per location group under its heading: a table on desktops
 * (fixed column widths, so the tables of one item line up) and cards on handhelds. A row opens the
 * record's detail (its stock id is the keyboard's way in); Adjust opens Stock Adjust. No column
 * sorting: the lookup's own sort (a filter preference) orders the groups and records.
 */
function ItemRecords({ item, onDetail, onAdjust }: { item: ItemSection } & Omit<LookupResultsProps, 'items'>) {
  const { t } = useTranslation();
  const columns = useMemo<DataColumn<LookupRecord>[]>(
    () => [
      {
        id: 'stockId',
        header: t('Stock id'),
        width: '22%',
        cell: (r) => (
          <UnstyledButton ff="monospace" fw={600} aria-label={t('Details of {{stockId}}', { stockId: r.stockId })}>
            {r.stockId}
          </UnstyledButton>
        ),
      },
      {
        id: 'qty',
        header: t('Quantity'),
        width: '14%',
        align: 'right',
        cell: (r) => showQty(r.quantity),
        tdProps: { 'data-testid': 'stock-row-qty' },
      },
      { id: 'condition', header: t('Condition'), width: '14%', cell: (r) => r.conditionCode ?? '—' },
      {
        id: 'lotSerial',
        header: t('Lot / serial'),
        width: '18%',
        cell: (r) => (r.serial ? `S/N ${r.serial}` : (r.lot ?? '—')),
        tdProps: { style: { overflowWrap: 'anywhere' } },
      },
      { id: 'received', header: t('Received'), width: '14%', cell: (r) => r.receivedDate ?? '—' },
    ],
    [t],
  );
  const actions = useMemo<RowAction<LookupRecord>[]>(
    () => [
      {
        id: 'adjust',
        label: () => t('Adjust'),
        icon: <IconAdjustmentsHorizontal size={16} />,
        onClick: (r) => onAdjust(r.stockId),
        testId: 'stock-row-adjust',
      },
    ],
    [t, onAdjust],
  );
  const card = (r: LookupRecord) => (
    <Group gap={4} wrap="nowrap">
      <UnstyledButton
        onClick={() => onDetail(r.stockId)}
        style={{ flex: 1, minWidth: 0, minHeight: 44 }}
        px={6}
        aria-label={t('Details of {{stockId}}', { stockId: r.stockId })}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text ff="monospace" fw={600} size="sm">
            {r.stockId}
          </Text>
          <Text fw={600} size="sm" data-testid="stock-row-qty">
            {showQty(r.quantity)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {details(r, t) || '—'}
        </Text>
      </UnstyledButton>
      <ActionIcon
        size={44}
        variant="light"
        onClick={() => onAdjust(r.stockId)}
        aria-label={t('Adjust {{stockId}}', { stockId: r.stockId })}
        data-testid="stock-row-adjust"
      >
        <IconAdjustmentsHorizontal size={22} />
      </ActionIcon>
    </Group>
  );
  return (
    <Stack gap="xs">
      {item.locations.map((g) => (
        <Stack key={g.locationId} gap={4} data-testid="location-group">
          <LocationHeading group={g} />
          <DataTable
            rows={g.records}
            columns={columns}
            rowKey={(r) => r.stockId}
            rowAttrs={(r) => ({ 'data-testid': 'stock-row', 'data-stock-id': r.stockId })}
            rowStyle={(r) => (r.quantity === 0 ? { opacity: 0.6 } : undefined)}
            onRowClick={(r) => onDetail(r.stockId)}
            actions={actions}
            renderCard={card}
            tableProps={{ verticalSpacing: 6, miw: 640, layout: 'fixed' }}
          />
        </Stack>
      ))}
    </Stack>
  );
}

/** A lookup's stock grouped by item and location. */
export function LookupResults({ items, onDetail, onAdjust }: LookupResultsProps) {
  return (
    <Stack gap="sm" data-testid="lookup-results">
      {items.map((item) => (
        <Paper key={item.itemId} withBorder p="sm" data-testid="item-section" data-part={item.partNumber}>
          <Stack gap="xs">
            <ItemHeader item={item} />
            <ItemRecords item={item} onDetail={onDetail} onAdjust={onAdjust} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
