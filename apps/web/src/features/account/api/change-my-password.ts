import type { CallArgs } from '@floorhand/contract/api';
import { useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type ChangeMyPasswordInput = CallArgs<'account/me/changePassword'>;

/** Changes the signed-in account's own password (nothing cached changes). */
export function useChangeMyPassword(opts: CallMutationOptions<'account/me/changePassword'> = {}) {
  return useCallMutation('account/me/changePassword', { ...opts, invalidate: [] });
}
