import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type UpdateMeInput = CallArgs<'account/me/update'>;

/** Saves the signed-in account's own profile; refreshes it. */
export function useUpdateMe(opts: CallMutationOptions<'account/me/update'> = {}) {
  return useCallMutation('account/me/update', { ...opts, invalidate: [adminKeys.me] });
}
