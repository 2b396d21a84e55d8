import { Text } from '@mantine/core';
import type { OrderHeader } from '@floorhand/contract/orders';
import type { DataColumn } from './data-table.tsx';

/** What an order row of any list shows in its head: the pick list, the pack board, the orders admin. */
export type OrderHead = Pick<OrderHeader, 'number' | 'type' | 'customer' | 'dueDate'>;

/**
 * The order columns the order lists share (number, type, customer, due), by name so a list puts its
 * own columns between them. Callers build them inside their `useMemo`.
 */
export function orderHeaderColumns<T extends OrderHead>(t: (key: string) => string) {
  const number: DataColumn<T> = {
    id: 'number',
    header: t('Order'),
    cell: (o) => (
      <Text fw={700} ff="monospace">
        {o.number}
      </Text>
    ),
    sortValue: (o) => o.number,
    card: 'title',
  };
  const type: DataColumn<T> = { id: 'type', header: t('Type'), cell: (o) => o.type.toUpperCase(), sortValue: (o) => o.type };
  const customer: DataColumn<T> = { id: 'customer', header: t('Customer'), cell: (o) => o.customer ?? '', sortValue: (o) => o.customer };
  const due: DataColumn<T> = { id: 'due', header: t('Due'), cell: (o) => o.dueDate ?? '', sortValue: (o) => o.dueDate };
  return { number, type, customer, due };
}
