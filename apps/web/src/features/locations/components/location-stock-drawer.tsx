import { useMemo } from 'react';
import { ActionIcon, Alert, Badge, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { showQty } from '../../../lib/inventory-format.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { useLocationDetail } from '../api/get-location.ts';

type LocationStock = NonNullable<NonNullable<ReturnType<typeof useLocationDetail>['data']>['stock']>[number];

export interface LocationStockDrawerProps {
  location: { warehouse: string; code: string } | null;
  onClose(): void;
}

/** What a location holds: its stock records (quantity above zero), each a step from Stock Adjust. */
export function LocationStockDrawer({ location, onClose }: LocationStockDrawerProps) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const navigate = useNavigate();
  const q = useLocationDetail(location);
  const loc = q.data?.location;
  const stock = q.data?.stock ?? [];
  const adjust = (stockId: string) => void navigate({ href: `/stockAdjust/${encodeURIComponent(stockId)}` });
  const adjustButton = (r: LocationStock, size: number) => (
    <ActionIcon size={size} variant="light" onClick={() => adjust(r.stockId)} aria-label={t('Adjust {{stockId}}', { stockId: r.stockId })}>
      <IconAdjustmentsHorizontal size={size > 40 ? 22 : 20} />
    </ActionIcon>
  );
  const columns = useMemo<DataColumn<LocationStock>[]>(
    () => [
      { id: 'stockId', header: t('Stock id'), cell: (r) => r.stockId, sortValue: (r) => r.stockId, tdProps: { ff: 'monospace' } },
      { id: 'part', header: t('Part number'), cell: (r) => r.partNumber, sortValue: (r) => r.partNumber },
      { id: 'description', header: t('Description'), cell: (r) => r.description, sortValue: (r) => r.description },
      { id: 'qty', header: t('Quantity'), cell: (r) => showQty(r.quantity, r.uom), sortValue: (r) => r.quantity, align: 'right' },
      { id: 'condition', header: t('Condition'), cell: (r) => r.conditionCode ?? '—', sortValue: (r) => r.conditionCode },
    ],
    [t],
  );
  const actions: RowAction<LocationStock>[] = [
    { id: 'adjust', label: () => t('Adjust'), onClick: (r) => adjust(r.stockId), render: (r) => adjustButton(r, 36) },
  ];

  return (
    <Drawer
      opened={!!location}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      // The drawer's title is its heading (an h2): plain text in it, not a heading inside a heading.
      title={
        <Text component="span" fw={700} fz="h3">
          {location ? `${location.warehouse} / ${location.code}` : ''}
        </Text>
      }
      data-testid="location-stock"
    >
      {q.isPending && <Loader />}
      {loc && (
        <Stack gap="sm">
          <Group gap="xs">
            <Text>{loc.description || '—'}</Text>
            <Badge variant="light">{loc.type}</Badge>
            {!loc.active && <Badge color="gray.7">{t('Inactive')}</Badge>}
          </Group>
          <Text size="sm" c="dimmed" data-testid="location-counts">
            {t('Records: {{records}} · items: {{items}}', { records: loc.counts?.records ?? 0, items: loc.counts?.items ?? 0 })}
          </Text>
          {stock.length === 0 && <Alert color="dark">{t('This location holds no stock.')}</Alert>}
          {stock.length > 0 && (
            <DataTable
              rows={stock}
              columns={columns}
              rowKey={(r) => r.stockId}
              rowAttrs={() => ({ 'data-testid': 'location-stock-row' })}
              actions={actions}
              tableProps={{ striped: true, verticalSpacing: 6 }}
              maxRows={INVENTORY_MAX_ROWS}
              more={q.data?.more ?? false}
              renderCard={(r) => (
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Text ff="monospace" fw={600} size="sm">
                      {r.stockId}
                    </Text>
                    <Text size="sm" truncate>{`${r.partNumber} · ${r.description}`}</Text>
                  </div>
                  <Text fw={600} size="sm" style={{ flexShrink: 0 }}>
                    {showQty(r.quantity, r.uom)}
                  </Text>
                  {adjustButton(r, 44)}
                </Group>
              )}
            />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
