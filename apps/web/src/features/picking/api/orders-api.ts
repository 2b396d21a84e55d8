import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './picking-api.ts';

// The orders admin (Stock Picking, "Orders"): list, read, save and cancel orders. Its keys start with
// 'picking', so a save refreshes the pick list too, and ordersChanged refreshes this list.

export const orderListQuery = (args: CallArgs<'order/list'>) =>
  queryOptions({ queryKey: [...pickingKeys.all, 'orders', args] as const, queryFn: () => call('order/list', args) });

export const orderQuery = (orderId: string) =>
  queryOptions({ queryKey: [...pickingKeys.all, 'order-admin', orderId] as const, queryFn: () => call('order/get', { orderId }) });

/** Saving or cancelling an order; afterwards every picking screen refetches. */
export function useSaveOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'order/save'>) => call('order/save', args),
    onSettled: () => qc.invalidateQueries({ queryKey: pickingKeys.all }),
  });
}

export function useCancelOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'order/cancel'>) => call('order/cancel', args),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: pickingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]),
  });
}
