import type { CallArgs } from '@floorhand/contract/api';
import { adminKeys, useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

export type SaveAppSettingsInput = CallArgs<'admin/appSettings/put'>;

/** Saves the site settings; refreshes them. */
export function useSaveAppSettings(opts: CallMutationOptions<'admin/appSettings/put'> = {}) {
  return useCallMutation('admin/appSettings/put', { ...opts, invalidate: [adminKeys.siteData('conf', 'app_settings')] });
}
