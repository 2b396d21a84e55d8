import { useMemo, useState } from 'react';
import { Badge, Button, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconArrowLeft, IconBan, IconEdit, IconPlus, IconPrinter } from '@tabler/icons-react';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { ORDER_CANCELLED, type OrderHeader, type OrderType } from '@floorhand/contract/orders';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { CsvTransfer } from '../../../components/ui/csv-transfer.tsx';
import { orderHeaderColumns } from '../../../components/ui/order-columns.tsx';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { orderListQuery } from '../api/list-orders.ts';
import { useCancelOrder } from '../api/save-order.ts';
import { travellerOf } from '../api/get-traveller.ts';
import { KNOWN_STATUSES } from '../utils/order-statuses.ts';
import { printOrDownload } from '../../../lib/label-printing.ts';
import { OrderEditor } from './order-editor.tsx';

/** Rows the list asks for; the "more rows" hint says when there are more (narrow the filters). */
const LIST_ROWS = 200;

/**
 * The orders admin of Stock Picking (`/stockPick?manage=orders`, for roles with `stockPick.orders`):
 * the organisation's orders filtered by type, status and number; create, edit (header and lines) and
 * cancel; CSV import and export (one row per line). A chunk of its own: pickers never load it.
 */
export function OrdersAdmin({ onBack }: { onBack(): void }) {
  const { t } = useTranslation();
  const [type, setType] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [number] = useDebouncedValue(search.trim(), 300);
  const [editing, setEditing] = useState<OrderHeader | 'new' | null>(null);
  const cancel = useCancelOrder();
  const args = {
    ...(type ? { type: type as OrderType } : {}),
    ...(status ? { status } : {}),
    ...(number ? { number } : {}),
    limit: LIST_ROWS,
  };
  const q = useQuery(orderListQuery(args));
  const orders = q.data?.orders ?? [];

  const onCancel = async (o: OrderHeader) => {
    const answer = await dialogs.confirm({
      type: 'warn',
      title: t('Cancel order'),
      message: t(
        "Cancel order '{{number}}'? Its picked stock goes back to the locations it was picked from; the order can no longer be picked or changed.",
        { number: o.number },
      ),
      neg: t('Keep the order'),
      pos: t('Cancel order'),
    });
    if (answer !== 'pos') return;
    try {
      await cancel.mutateAsync({ orderId: o._id, idempotencyKey: crypto.randomUUID() });
      notifications.show({ color: 'green', message: t('Order {{number}} cancelled', { number: o.number }) });
    } catch {
      // The error dialog has said why (shipped stock, cancelled already).
    }
  };

  const columns = useMemo<DataColumn<OrderHeader>[]>(() => {
    const head = orderHeaderColumns<OrderHeader>(t);
    return [
      head.number,
      head.type,
      {
        id: 'status',
        header: t('Status'),
        cell: (o) => (
          <Badge color={o.status === ORDER_CANCELLED ? 'red.9' : 'dark'} variant={o.status === ORDER_CANCELLED ? 'filled' : 'outline'}>
            <span translate="no">{o.status}</span>
          </Badge>
        ),
        sortValue: (o) => o.status,
      },
      { id: 'warehouse', header: t('Warehouse'), cell: (o) => o.warehouse, sortValue: (o) => o.warehouse },
      head.customer,
      head.due,
      { id: 'priority', header: t('Priority'), cell: (o) => o.priority, sortValue: (o) => o.priority },
      { id: 'lines', header: t('Lines done'), cell: (o) => `${o.doneLineCount} / ${o.lineCount}`, sortValue: (o) => o.lineCount },
    ];
  }, [t]);
  const actions = useMemo<RowAction<OrderHeader>[]>(
    () => [
      {
        id: 'edit',
        label: () => t('Edit'),
        ariaLabel: (o) => t('Edit order {{number}}', { number: o.number }),
        icon: <IconEdit size={18} />,
        onClick: setEditing,
        allowed: (o) => o.status !== ORDER_CANCELLED,
        testId: 'order-edit',
      },
      {
        id: 'cancel',
        label: () => t('Cancel'),
        ariaLabel: (o) => t('Cancel order {{number}}', { number: o.number }),
        icon: <IconBan size={18} />,
        onClick: (o) => void onCancel(o),
        allowed: (o) => o.status !== ORDER_CANCELLED,
        testId: 'order-cancel',
      },
      {
        // The order traveller label: on this device's printer, or a PDF without one (the error dialog says why a print failed).
        id: 'traveller',
        label: () => t('Traveller'),
        ariaLabel: (o) => t('Print the traveller of order {{number}}', { number: o.number }),
        icon: <IconPrinter size={18} />,
        onClick: (o) =>
          void travellerOf(o)
            .then((source) => printOrDownload({ kind: 'orderTraveller', source }))
            .catch(() => undefined),
        allowed: (o) => o.status !== ORDER_CANCELLED,
        testId: 'order-traveller',
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  return (
    <Stack gap="sm" maw={1400} data-testid="orders-admin">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Button variant="default" leftSection={<IconArrowLeft size={20} />} onClick={onBack} data-testid="orders-admin-back">
            {t('Pick list')}
          </Button>
          <Title order={2} size="h3">
            {t('Orders')}
          </Title>
        </Group>
        <Group gap="xs">
          <Button leftSection={<IconPlus size={20} />} onClick={() => setEditing('new')} data-testid="order-new">
            {t('New order')}
          </Button>
          <CsvTransfer entity="orders" />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <Select
          label={t('Order type')}
          placeholder={t('All')}
          clearable
          data={ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
          value={type}
          onChange={setType}
          data-testid="orders-filter-type"
        />
        <Select
          label={t('Status')}
          placeholder={t('All')}
          clearable
          data={[...KNOWN_STATUSES]}
          value={status}
          onChange={setStatus}
          data-testid="orders-filter-status"
        />
        <TextInput
          label={t('Order number')}
          placeholder={t('Start of the number')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          data-testid="orders-filter-number"
        />
      </SimpleGrid>
      <DataTable
        rows={orders}
        columns={columns}
        actions={actions}
        actionsHeader={t('Actions')}
        rowKey={(o) => o._id}
        rowAttrs={(o) => ({ 'data-testid': 'order-row', 'data-number': o.number })}
        loading={q.isPending}
        empty={<Text c="dimmed">{t('No order matches.')}</Text>}
        maxRows={LIST_ROWS}
        more={q.data?.more}
        moreHint={t('Only the first {{n}} orders are shown: narrow the filters.', { n: LIST_ROWS })}
        testId="orders-list"
      />
      {editing && <OrderEditor orderId={editing === 'new' ? null : editing._id} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
