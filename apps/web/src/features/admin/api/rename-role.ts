import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type RenameRoleInput = CallArgs<'admin/role/rename'>;

/** Renames a role; refreshes the roles, the accounts that hold it and the feature access grid. */
export function useRenameRole(opts: CallMutationOptions<'admin/role/rename'> = {}) {
  return useCallMutation('admin/role/rename', { ...opts, invalidate: [adminKeys.roles, adminKeys.accounts(), adminKeys.featureAccess] });
}
