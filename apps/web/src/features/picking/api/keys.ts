import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { realtime } from '../../../lib/session.ts';

/** Query keys of the picking screens: every one starts with 'picking', so one invalidation refreshes them all. */
export const pickingKeys = {
  all: ['picking'] as const,
  list: (args: CallArgs<'pick/list'>) => ['picking', 'list', args] as const,
  order: (ref: string) => ['picking', 'order', ref] as const,
};

/** Claims, picks and statuses change on other handhelds: every open picking screen refetches (ordersChanged). */
export function useOrdersChangedRefresh(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.on('ordersChanged', () => void qc.invalidateQueries({ queryKey: pickingKeys.all }));
    return () => void off();
  }, [qc]);
}
