import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type CreateRoleInput = CallArgs<'admin/role/create'>;

/** Creates a role; refreshes the roles and the feature access grid. */
export function useCreateRole(opts: CallMutationOptions<'admin/role/create'> = {}) {
  return useCallMutation('admin/role/create', { ...opts, invalidate: [adminKeys.roles, adminKeys.featureAccess] });
}
