import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type UpdateAccountInput = CallArgs<'admin/account/update'>;

/** Saves an account; refreshes the accounts and the roles. */
export function useUpdateAccount(opts: CallMutationOptions<'admin/account/update'> = {}) {
  return useCallMutation('admin/account/update', { ...opts, invalidate: [adminKeys.accounts(), adminKeys.roles] });
}
