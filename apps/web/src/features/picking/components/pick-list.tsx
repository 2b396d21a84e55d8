import { useMemo } from 'react';
import { Badge, Group, Select, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { PACK_PICK_MAX_ROWS } from '@floorhand/contract/constants';
import type { OrderHeader, OrderType, PICK_SORTS } from '@floorhand/contract/orders';
import { orderHeaderColumns } from '../../../components/ui/order-columns.tsx';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { activeFilterCount, FilterFold } from '../../../components/ui/filter-fold.tsx';
import { SortDirectionSelect } from '../../../components/ui/sort-direction-select.tsx';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { pickListQuery } from '../api/list-picks.ts';
import { useStockPickPrefs } from '../hooks/use-pick-prefs.ts';
import { tk } from '@floorhand/contract/i18n';

const SORT_LABELS = [
  ['dueDate', tk('Due date')],
  ['priority', tk('Priority')],
  ['number', tk('Order number')],
  ['type', tk('Order type')],
] as const;

export interface PickListProps {
  onOpen(order: OrderHeader): void;
}

/** Who holds an order: "You", another picker's name, or nobody. */
function Holder({ order }: { order: OrderHeader }) {
  const { t } = useTranslation();
  // The session's user: on a kiosk, the worker whose badge opened it (not the kiosk account).
  const me = useSessionStore((s) => s.user?.id);
  if (!order.claimedBy)
    return (
      <Text size="sm" c="dimmed">
        {t('Free')}
      </Text>
    );
  return (
    <Badge
      color={order.claimedBy.id === me ? 'dark' : 'gray.7'}
      variant={order.claimedBy.id === me ? 'outline' : 'filled'}
      data-testid="order-holder"
    >
      {order.claimedBy.id === me ? t('You') : order.claimedBy.name}
    </Badge>
  );
}

/** The orders to pick, with the preferences' filters; a row or card opens the order. */
export function PickList({ onOpen }: PickListProps) {
  const { t } = useTranslation();
  // The filters and sort are the stockPick session preferences: they survive a reload (spec section 3).
  const [prefs, setPrefs] = useStockPickPrefs();
  const warehouse = prefs.filterWarehouse;
  const type = prefs.filterOrderType || null;
  const warehouses = useWarehouses();
  const args = {
    ...(warehouse ? { warehouse } : {}),
    ...(type ? { type: type as OrderType } : {}),
    sort: prefs.sort,
    desc: prefs.sortDesc,
  };
  const q = useQuery(pickListQuery(args));
  const orders = q.data?.orders ?? [];
  const columns = useMemo<DataColumn<OrderHeader>[]>(() => {
    const head = orderHeaderColumns<OrderHeader>(t);
    return [
      head.number,
      head.type,
      head.customer,
      head.due,
      {
        id: 'lines',
        header: t('Lines done'),
        cell: (o) => `${o.doneLineCount} / ${o.lineCount}`,
        sortValue: (o) => o.lineCount - o.doneLineCount,
      },
      { id: 'status', header: t('Status'), cell: (o) => <span translate="no">{o.status}</span>, sortValue: (o) => o.status },
      { id: 'holder', header: t('Picker'), cell: (o) => <Holder order={o} />, sortValue: (o) => o.claimedBy?.name },
    ];
  }, [t]);
  return (
    <Stack gap="sm">
      {/* On a handheld the orders come first: the filters and sort fold behind one button. */}
      <FilterFold active={activeFilterCount([warehouse, type])} testId="pick-filters-toggle">
        <SimpleGrid cols={2} spacing="xs" data-testid="pick-filters">
          <Select
            label={t('Warehouse')}
            placeholder={t('All')}
            clearable
            data={(warehouses.data ?? []).map((w) => w.code)}
            value={warehouse}
            onChange={(v) => setPrefs({ filterWarehouse: v })}
            data-testid="pick-filter-warehouse"
          />
          <Select
            label={t('Order type')}
            placeholder={t('All')}
            clearable
            data={ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
            value={type}
            onChange={(v) => setPrefs({ filterOrderType: (v ?? '') as OrderType | '' })}
            data-testid="pick-filter-type"
          />
          <Select
            label={t('Sort by')}
            allowDeselect={false}
            data={SORT_LABELS.map(([value, label]) => ({ value, label: t(label) }))}
            value={prefs.sort}
            onChange={(v) => v && setPrefs({ sort: v as (typeof PICK_SORTS)[number] })}
            data-testid="pick-sort"
          />
          <SortDirectionSelect desc={prefs.sortDesc} onChange={(sortDesc) => setPrefs({ sortDesc })} testId="pick-sort-direction" />
        </SimpleGrid>
      </FilterFold>
      <DataTable
        rows={orders}
        columns={columns}
        rowKey={(o) => o._id}
        rowAttrs={(o) => ({ 'data-testid': 'pick-order-row', 'data-number': o.number })}
        onRowClick={onOpen}
        loading={q.isPending}
        empty={<Text c="dimmed">{t('No order is waiting to be picked.')}</Text>}
        maxRows={PACK_PICK_MAX_ROWS}
        more={q.data?.more}
        testId="pick-list"
        renderCard={(o) => (
          <UnstyledButton
            onClick={() => onOpen(o)}
            style={{ width: '100%', minHeight: 44 }}
            data-testid="pick-order-card"
            data-number={o.number}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700} ff="monospace" truncate>
                {o.number}
              </Text>
              <Holder order={o} />
            </Group>
            <Text size="sm" truncate>
              {[o.type.toUpperCase(), o.customer, o.dueDate].filter(Boolean).join(' · ')}
            </Text>
            <Text size="sm">
              {t('Lines done: {{done}} / {{all}} · {{status}}', { done: o.doneLineCount, all: o.lineCount, status: o.status })}
            </Text>
          </UnstyledButton>
        )}
      />
    </Stack>
  );
}
