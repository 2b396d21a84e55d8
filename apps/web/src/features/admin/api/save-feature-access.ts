import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type SaveFeatureAccessInput = CallArgs<'admin/featureAccess/put'>;

/** Saves the feature access grid; refreshes it. */
export function useSaveFeatureAccess(opts: CallMutationOptions<'admin/featureAccess/put'> = {}) {
  return useCallMutation('admin/featureAccess/put', { ...opts, invalidate: [adminKeys.featureAccess] });
}
