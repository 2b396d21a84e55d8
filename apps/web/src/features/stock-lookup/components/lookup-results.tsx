import { ActionIcon, Button, Group, Paper, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import type { LookupRecord } from '@floorhand/contract/stock';
import { showQty } from '../../../lib/inventory-format.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import type { ItemSection } from '../utils/lookup.ts';

export interface LookupResultsProps {
  items: ItemSection[];
  onDetail(stockId: string): void;
  onAdjust(stockId: string): void;
}

const details = (r: LookupRecord) => [r.conditionCode, r.lot && `Lot ${r.lot}`, r.serial && `S/N ${r.serial}`, r.receivedDate].filter(Boolean).join(' · ');

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

/** Desktop: one table per item, a heading row per location, a row per stock record. */
function ItemTable({ item, onDetail, onAdjust }: { item: ItemSection } & Omit<LookupResultsProps, 'items'>) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto">
      <Table highlightOnHover verticalSpacing={6} miw={640}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Stock id')}</Table.Th>
            <Table.Th ta="right">{t('Quantity')}</Table.Th>
            <Table.Th>{t('Condition')}</Table.Th>
            <Table.Th>{t('Lot / serial')}</Table.Th>
            <Table.Th>{t('Received')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {item.locations.map((g) => [
            <Table.Tr key={`${g.locationId}-head`} bg="var(--mantine-color-gray-0)" data-testid="location-group">
              <Table.Td colSpan={6}>
                <Group gap="xs">
                  <Text fw={600}>{`${g.warehouse} / ${g.location}`}</Text>
                  <Text size="sm" c="dimmed">
                    {showQty(g.quantity, g.uom)}
                  </Text>
                </Group>
              </Table.Td>
            </Table.Tr>,
            ...g.records.map((r) => (
              <Table.Tr key={r.stockId} data-testid="stock-row" data-stock-id={r.stockId} style={{ cursor: 'pointer', opacity: r.quantity === 0 ? 0.6 : 1 }} onClick={() => onDetail(r.stockId)}>
                <Table.Td>
                  {/* The row is clickable; the id is the keyboard's way in. */}
                  <UnstyledButton ff="monospace" fw={600} aria-label={t('Details of {{stockId}}', { stockId: r.stockId })}>
                    {r.stockId}
                  </UnstyledButton>
                </Table.Td>
                <Table.Td ta="right" data-testid="stock-row-qty">
                  {showQty(r.quantity)}
                </Table.Td>
                <Table.Td>{r.conditionCode ?? '—'}</Table.Td>
                <Table.Td>{r.serial ? `S/N ${r.serial}` : (r.lot ?? '—')}</Table.Td>
                <Table.Td>{r.receivedDate ?? '—'}</Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconAdjustmentsHorizontal size={16} />}
                    onClick={(e) => {
                      e.stopPropagation();
                      onAdjust(r.stockId);
                    }}
                    data-testid="stock-row-adjust"
                  >
                    {t('Adjust')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            )),
          ])}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** Handhelds: the same as cards; a record line opens its detail, the icon beside it Stock Adjust. */
function ItemCards({ item, onDetail, onAdjust }: { item: ItemSection } & Omit<LookupResultsProps, 'items'>) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      {item.locations.map((g) => (
        <Stack key={g.locationId} gap={4} data-testid="location-group">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600} size="sm">{`${g.warehouse} / ${g.location}`}</Text>
            <Text size="sm" c="dimmed">
              {showQty(g.quantity, g.uom)}
            </Text>
          </Group>
          {g.records.map((r) => (
            <Group key={r.stockId} gap={4} wrap="nowrap" data-testid="stock-row" data-stock-id={r.stockId} style={{ opacity: r.quantity === 0 ? 0.6 : 1 }}>
              <UnstyledButton onClick={() => onDetail(r.stockId)} style={{ flex: 1, minWidth: 0, minHeight: 44 }} px={6} aria-label={t('Details of {{stockId}}', { stockId: r.stockId })}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text ff="monospace" fw={600} size="sm">
                    {r.stockId}
                  </Text>
                  <Text fw={600} size="sm" data-testid="stock-row-qty">
                    {showQty(r.quantity)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {details(r) || '—'}
                </Text>
              </UnstyledButton>
              <ActionIcon size={44} variant="light" onClick={() => onAdjust(r.stockId)} aria-label={t('Adjust {{stockId}}', { stockId: r.stockId })} data-testid="stock-row-adjust">
                <IconAdjustmentsHorizontal size={22} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

/** A lookup's stock grouped by item and location. */
export function LookupResults({ items, onDetail, onAdjust }: LookupResultsProps) {
  const narrow = useNarrow();
  const Records = narrow ? ItemCards : ItemTable;
  return (
    <Stack gap="sm" data-testid="lookup-results">
      {items.map((item) => (
        <Paper key={item.itemId} withBorder p="sm" data-testid="item-section" data-part={item.partNumber}>
          <Stack gap="xs">
            <ItemHeader item={item} />
            <Records item={item} onDetail={onDetail} onAdjust={onAdjust} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
