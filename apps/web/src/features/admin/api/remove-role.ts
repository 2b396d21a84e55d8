import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type RemoveRoleInput = CallArgs<'admin/role/remove'>;

/** Removes a role; refreshes the roles, the accounts that held it and the feature access grid. */
export function useRemoveRole(opts: CallMutationOptions<'admin/role/remove'> = {}) {
  return useCallMutation('admin/role/remove', { ...opts, invalidate: [adminKeys.roles, adminKeys.accounts(), adminKeys.featureAccess] });
}
