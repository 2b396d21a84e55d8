import { useEffect } from 'react';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { realtime } from '../../../lib/session.ts';

export const shippingKeys = {
  all: ['shipping'] as const,
  board: (args: CallArgs<'ship/board'>) => ['shipping', 'board', args] as const,
  order: (number: string) => ['shipping', 'order', number] as const,
};

export const boardQuery = (args: CallArgs<'ship/board'>) =>
  queryOptions({ queryKey: shippingKeys.board(args), queryFn: () => call('ship/board', args, { quietUnreachable: true }) });

export const shipOrderQuery = (number: string) =>
  queryOptions({
    queryKey: shippingKeys.order(number),
    queryFn: () => call('ship/order', { number }, { suppress: /^(ERR_NOT_FOUND)$/, quietUnreachable: true }),
    retry: false,
  });

/** Picks, packs and shipments on other devices: the open shipping screens refetch (ordersChanged). */
export function useShippingRefresh(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.on('ordersChanged', () => void qc.invalidateQueries({ queryKey: shippingKeys.all }));
    return () => void off();
  }, [qc]);
}

/** Refusals the pack screen shows itself in the error dialog, then readies the scan field. */
export const SHIP_REFUSALS = /^(ERR_BAD_INPUT|ERR_CONFLICT|ERR_NOT_FOUND)$/;

type ShipPath = 'package/save' | 'package/pack' | 'package/unpack' | 'ship/confirm' | 'order/issue';

export function useShipCall<P extends ShipPath>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, { suppress: SHIP_REFUSALS }) as Promise<CallResponse<P>>,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: shippingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]),
  });
}
