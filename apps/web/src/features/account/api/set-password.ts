import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type SetPasswordInput = CallArgs<'admin/account/setPassword'>;

/** An admin sets an account's password; refreshes the accounts. */
export function useSetPassword(opts: CallMutationOptions<'admin/account/setPassword'> = {}) {
  return useCallMutation('admin/account/setPassword', { ...opts, invalidate: [adminKeys.accounts()] });
}
