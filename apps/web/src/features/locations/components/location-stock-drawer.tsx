import { ActionIcon, Alert, Badge, Drawer, Group, Loader, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { showQty } from '../../../lib/inventory-format.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { useLocationDetail } from '../api/get-location.ts';

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

  return (
    <Drawer
      opened={!!location}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'xl'}
      title={<Title order={3}>{location ? `${location.warehouse} / ${location.code}` : ''}</Title>}
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
          {stock.length > 0 && narrow && (
            <Stack gap={6}>
              {stock.map((r) => (
                <Paper key={r.stockId} withBorder p="xs" data-testid="location-stock-row">
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
                    <ActionIcon size={44} variant="light" onClick={() => adjust(r.stockId)} aria-label={t('Adjust {{stockId}}', { stockId: r.stockId })}>
                      <IconAdjustmentsHorizontal size={22} />
                    </ActionIcon>
                  </Group>
                </Paper>
              ))}
            </Stack>
          )}
          {stock.length > 0 && !narrow && (
            <ScrollArea type="auto">
              <Table striped highlightOnHover verticalSpacing={6}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('Stock id')}</Table.Th>
                    <Table.Th>{t('Part number')}</Table.Th>
                    <Table.Th>{t('Description')}</Table.Th>
                    <Table.Th ta="right">{t('Quantity')}</Table.Th>
                    <Table.Th>{t('Condition')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stock.map((r) => (
                    <Table.Tr key={r.stockId} data-testid="location-stock-row">
                      <Table.Td ff="monospace">{r.stockId}</Table.Td>
                      <Table.Td>{r.partNumber}</Table.Td>
                      <Table.Td>{r.description}</Table.Td>
                      <Table.Td ta="right">{showQty(r.quantity, r.uom)}</Table.Td>
                      <Table.Td>{r.conditionCode ?? '—'}</Table.Td>
                      <Table.Td ta="right">
                        <ActionIcon size={36} variant="light" onClick={() => adjust(r.stockId)} aria-label={t('Adjust {{stockId}}', { stockId: r.stockId })}>
                          <IconAdjustmentsHorizontal size={20} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          )}
          {q.data?.more && <Alert color="yellow">{t('Only the first {{max}} records are shown.', { max: INVENTORY_MAX_ROWS })}</Alert>}
        </Stack>
      )}
    </Drawer>
  );
}
