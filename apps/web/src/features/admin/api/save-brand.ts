import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type SaveBrandInput = CallArgs<'admin/brand/put'>;

/** Saves the brand; refreshes it. */
export function useSaveBrand(opts: CallMutationOptions<'admin/brand/put'> = {}) {
  return useCallMutation('admin/brand/put', { ...opts, invalidate: [adminKeys.siteData('brand', 'brand')] });
}
