import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type ResetPasswordInput = CallArgs<'admin/account/resetPassword'>;

/** An admin gives an account a temporary password; refreshes the accounts. */
export function useResetPassword(opts: CallMutationOptions<'admin/account/resetPassword'> = {}) {
  return useCallMutation('admin/account/resetPassword', { ...opts, invalidate: [adminKeys.accounts()] });
}
