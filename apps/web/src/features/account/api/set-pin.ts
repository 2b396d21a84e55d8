import { useCallMutation, type CallMutationOptions } from '../../../lib/call-mutation.ts';

/** A timeclockAdmin or an admin sets or clears a worker's badge PIN (timeclock/setPin; the server keeps only its hash). */
export function useSetPin(opts: CallMutationOptions<'timeclock/setPin'> = {}) {
  return useCallMutation('timeclock/setPin', { ...opts, invalidate: [] });
}
