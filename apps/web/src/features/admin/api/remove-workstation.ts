import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type RemoveWorkstationInput = CallArgs<'admin/workstation/remove'>;

/** Removes a workstation; refreshes the workstation list. */
export function useRemoveWorkstation(opts: CallMutationOptions<'admin/workstation/remove'> = {}) {
  return useCallMutation('admin/workstation/remove', { ...opts, invalidate: [adminKeys.workstations] });
}
