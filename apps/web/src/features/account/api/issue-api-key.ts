import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type IssueApiKeyInput = CallArgs<'admin/account/issueApiKey'>;

/** Issues a service account's API key; refreshes the accounts. */
export function useIssueApiKey(opts: CallMutationOptions<'admin/account/issueApiKey'> = {}) {
  return useCallMutation('admin/account/issueApiKey', { ...opts, invalidate: [adminKeys.accounts()] });
}
