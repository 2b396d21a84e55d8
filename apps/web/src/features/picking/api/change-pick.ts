import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

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
