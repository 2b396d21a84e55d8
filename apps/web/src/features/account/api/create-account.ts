import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type CreateAccountInput = CallArgs<'admin/account/create'>;

/** Creates an account; refreshes the accounts and the roles. */
export function useCreateAccount(opts: CallMutationOptions<'admin/account/create'> = {}) {
  return useCallMutation('admin/account/create', { ...opts, invalidate: [adminKeys.accounts(), adminKeys.roles] });
}
