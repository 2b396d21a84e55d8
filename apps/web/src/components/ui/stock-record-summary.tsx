import type { ReactNode } from 'react';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StockRecord } from '@floorhand/contract/stock';
import { showQty } from '../../lib/inventory-format.ts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="md" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

export interface StockRecordSummaryProps {
  stock: StockRecord;
  /** Something to put beside the stock id (e.g. a "new" badge). */
  badge?: ReactNode;
}

/** One stock record as a label would show it: stock id, item, place, quantity and the record's details. */
export function StockRecordSummary({ stock, badge }: StockRecordSummaryProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="stock-summary" data-stock-id={stock.stockId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={700} size="xl" ff="monospace" data-testid="stock-summary-id">
              {stock.stockId}
            </Text>
            {badge}
          </Group>
          <Text fw={600}>{stock.partNumber}</Text>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {stock.description}
          </Text>
        </div>
        <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
          <Text fw={700} size="xl" data-testid="stock-summary-qty">
            {showQty(stock.quantity)}
          </Text>
          <Text size="sm" c="dimmed">
            {stock.uom}
          </Text>
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={4}>
        <Field label={t('Location')}>
          <span data-testid="stock-summary-location">{`${stock.warehouse} / ${stock.location}`}</span>
        </Field>
        <Field label={t('Condition')}>{stock.conditionCode ?? '—'}</Field>
        {stock.lot && <Field label={t('Lot')}>{stock.lot}</Field>}
        {stock.serial && <Field label={t('Serial')}>{stock.serial}</Field>}
        <Field label={t('Received')}>{stock.receivedDate ?? '—'}</Field>
        {stock.certSource && <Field label={t('Certificate')}>{stock.certSource}</Field>}
        {stock.department && <Field label={t('Department')}>{stock.department}</Field>}
      </SimpleGrid>
      {stock.quantity === 0 && (
        <Badge color="dark" variant="light">
          {t('No quantity left')}
        </Badge>
      )}
    </Stack>
  );
}
