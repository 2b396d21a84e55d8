import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { realtime } from '../../../lib/session.ts';

export const shippingKeys = {
  all: ['shipping'] as const,
  board: (args: CallArgs<'ship/board'>) => ['shipping', 'board', args] as const,
  order: (number: string) => ['shipping', 'order', number] as const,
};

/** Picks, packs and shipments on other devices: the open shipping screens refetch (ordersChanged). */
export function useShippingRefresh(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.on('ordersChanged', () => void qc.invalidateQueries({ queryKey: shippingKeys.all }));
    return () => void off();
  }, [qc]);
}
