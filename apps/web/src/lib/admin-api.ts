import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { call } from './api.ts';

// Queries and mutations of the administration calls, shared by the account and admin features.
// Every mutation refreshes the lists it changes; errors open the error dialog (the request helper).

export const adminKeys = {
  all: ['admin'] as const,
  me: ['account', 'me'] as const,
  accounts: (q?: { search: string; includeInactive: boolean; page: number }) => (q ? (['admin', 'accounts', q] as const) : (['admin', 'accounts'] as const)),
  roles: ['admin', 'roles'] as const,
  featureAccess: ['admin', 'featureAccess'] as const,
  workstations: ['admin', 'workstations'] as const,
  sites: ['admin', 'sites'] as const,
  audit: (q?: { offset: number; entity: string | null }) => (q ? (['admin', 'audit', q] as const) : (['admin', 'audit'] as const)),
  siteData: (section: string, dataId: string) => ['siteData', section, dataId] as const,
};

export const ACCOUNTS_PAGE_SIZE = 25;
export const AUDIT_PAGE_SIZE = 25;

export const meQuery = () => queryOptions({ queryKey: adminKeys.me, queryFn: () => call('account/me/get', {}) });

export const accountsQuery = (q: { search: string; includeInactive: boolean; page: number }) =>
  queryOptions({
    queryKey: adminKeys.accounts(q),
    queryFn: () => call('admin/account/list', { search: q.search || undefined, includeInactive: q.includeInactive, offset: q.page * ACCOUNTS_PAGE_SIZE, limit: ACCOUNTS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

export const rolesQuery = () => queryOptions({ queryKey: adminKeys.roles, queryFn: () => call('admin/role/list', {}) });
export const featureAccessQuery = () => queryOptions({ queryKey: adminKeys.featureAccess, queryFn: () => call('admin/featureAccess/get', {}) });
export const workstationsQuery = () => queryOptions({ queryKey: adminKeys.workstations, queryFn: () => call('admin/workstation/list', {}) });
export const auditQuery = (q: { offset: number; entity: string | null }) =>
  queryOptions({
    queryKey: adminKeys.audit(q),
    queryFn: () => call('admin/audit/list', { offset: q.offset, limit: AUDIT_PAGE_SIZE, entity: q.entity ?? undefined }),
    placeholderData: keepPreviousData,
  });
export const siteDataQuery = (section: 'conf' | 'brand', dataId: string) =>
  queryOptions({ queryKey: adminKeys.siteData(section, dataId), queryFn: () => call('site/getData', { section, dataId }), staleTime: 0 });

export const useRoles = () => useQuery(rolesQuery());
/** The sites whose perms the admin manages (every site of the organisation for an organisation admin). */
export const sitesQuery = () => queryOptions({ queryKey: adminKeys.sites, queryFn: () => call('admin/site/list', {}), staleTime: 5 * 60_000 });
export const useSites = () => useQuery(sitesQuery());

/**
 * A mutation of one call that refreshes the given queries (and the audit log, which every admin change
 * writes to) and shows `done` as a notification.
 */
export function useCallMutation<P extends CallPath>(path: P, opts: { invalidate: QueryKey[]; done?: string; onSuccess?: (res: CallResponse<P>) => void }) {
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
