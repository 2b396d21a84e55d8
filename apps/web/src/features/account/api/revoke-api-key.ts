import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type RevokeApiKeyInput = CallArgs<'admin/account/revokeApiKey'>;

/** Revokes a service account's API key; refreshes the accounts. */
export function useRevokeApiKey(opts: CallMutationOptions<'admin/account/revokeApiKey'> = {}) {
  return useCallMutation('admin/account/revokeApiKey', { ...opts, invalidate: [adminKeys.accounts()] });
}
