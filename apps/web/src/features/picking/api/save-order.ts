import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

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
