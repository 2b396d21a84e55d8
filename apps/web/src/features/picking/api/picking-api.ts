import { useEffect } from 'react';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { PACK_PICK_MAX_ROWS } from '@floorhand/contract/constants';
import type { TaskKind } from '@floorhand/contract/labor';
import { call } from '../../../lib/api.ts';
import { realtime } from '../../../lib/session.ts';
import { hasOperations, travellerSource, type TravellerOrder } from '../utils/traveller.ts';

/** Query keys of the picking screens: every one starts with 'picking', so one invalidation refreshes them all. */
export const pickingKeys = {
  all: ['picking'] as const,
  list: (args: CallArgs<'pick/list'>) => ['picking', 'list', args] as const,
  order: (ref: string) => ['picking', 'order', ref] as const,
};

export const pickListQuery = (args: CallArgs<'pick/list'>) =>
  queryOptions({ queryKey: pickingKeys.list(args), queryFn: () => call('pick/list', args) });

/** An order to pick by its number (a scanned traveller or a link); a number nobody uses is an answer, not an error dialog. */
export const pickOrderQuery = (number: string) =>
  queryOptions({
    queryKey: pickingKeys.order(number),
    queryFn: () => call('pick/order', { number }, { suppress: /^(ERR_NOT_FOUND)$/, quietUnreachable: true }),
    retry: false,
  });

/** Claims, picks and statuses change on other handhelds: every open picking screen refetches (ordersChanged). */
export function useOrdersChangedRefresh(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.on('ordersChanged', () => void qc.invalidateQueries({ queryKey: pickingKeys.all }));
    return () => void off();
  }, [qc]);
}

type PickPath = 'pick/claim' | 'pick/release' | 'pick/confirm' | 'pick/short' | 'pick/skip' | 'pick/unpick' | 'pick/reportDiscrepancy';

/** Refusals the picking screen shows itself (the spec's error dialog, awaited, then the scan field again). */
export const PICK_REFUSALS = /^(ERR_BAD_INPUT|ERR_CONFLICT|ERR_NOT_FOUND)$/;

/** A pick write; afterwards the picking screens and the inventory screens refetch (whatever the answer). */
export function usePickCall<P extends PickPath>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, { suppress: PICK_REFUSALS }) as Promise<CallResponse<P>>,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: pickingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]),
  });
}

/**
 * What an order's traveller prints: for a work, manufacturing or routing order its active operations
 * (task/list by the exact order number and kind), one label each; otherwise (or without tasks) one
 * label with the order number. A refusal of task/list has shown its dialog and is thrown (never a
 * traveller with the wrong barcode).
 */
export async function travellerOf(order: TravellerOrder): Promise<ReturnType<typeof travellerSource>> {
  if (!hasOperations(order)) return travellerSource(order);
  const { tasks } = await call('task/list', {
    orderNumber: order.number,
    kind: order.type as TaskKind,
    active: true,
    limit: PACK_PICK_MAX_ROWS,
  });
  return travellerSource(order, tasks ?? []);
}
