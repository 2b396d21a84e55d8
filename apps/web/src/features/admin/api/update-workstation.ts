import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type UpdateWorkstationInput = CallArgs<'admin/workstation/update'>;

/** Authorises a workstation as time clock or kiosk (or adds one); refreshes the workstation list. */
export function useUpdateWorkstation(opts: CallMutationOptions<'admin/workstation/update'> = {}) {
  return useCallMutation('admin/workstation/update', { ...opts, invalidate: [adminKeys.workstations] });
}
