import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type PairWorkstationInput = CallArgs<'admin/workstation/pair'>;

/** Pairs a device by the code it shows; refreshes the workstation list. */
export function usePairWorkstation(opts: CallMutationOptions<'admin/workstation/pair'> = {}) {
  return useCallMutation('admin/workstation/pair', { ...opts, invalidate: [adminKeys.workstations] });
}
