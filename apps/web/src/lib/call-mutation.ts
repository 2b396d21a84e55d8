import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { call } from './api.ts';

// The query keys of the administration data (shared by the account and admin features and the site
// data the stock screens read) and the mutation helper every admin change uses: it refreshes the
// lists it changes; errors open the error dialog (the request helper).

export const adminKeys = {
  all: ['admin'] as const,
  me: ['account', 'me'] as const,
  accounts: (q?: { search: string; includeInactive: boolean; page: number }) =>
    q ? (['admin', 'accounts', q] as const) : (['admin', 'accounts'] as const),
  roles: ['admin', 'roles'] as const,
  featureAccess: ['admin', 'featureAccess'] as const,
  workstations: ['admin', 'workstations'] as const,
  sites: ['admin', 'sites'] as const,
  audit: (q?: { offset: number; entity: string | null }) => (q ? (['admin', 'audit', q] as const) : (['admin', 'audit'] as const)),
  siteData: (section: string, dataId: string) => ['siteData', section, dataId] as const,
};

/** What a feature's mutation hook takes from its screen: the notification and what to do with the answer. */
export type CallMutationOptions<P extends CallPath> = { done?: string; onSuccess?: (res: CallResponse<P>) => void };

/**
 * A mutation of one call that refreshes the given queries (and the audit log, which every admin change
 * writes to) and shows `done` as a notification.
 */
export function useCallMutation<P extends CallPath>(
  path: P,
  opts: { invalidate: QueryKey[]; done?: string; onSuccess?: (res: CallResponse<P>) => void },
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args),
    onSuccess: async (res) => {
      opts.onSuccess?.(res);
      if (opts.done) notifications.show({ message: opts.done, color: 'green', autoClose: NOTIFICATION_TIMEOUT_MS });
      await Promise.all([...opts.invalidate, adminKeys.audit()].map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
  });
}
