import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

export const ACCOUNTS_PAGE_SIZE = 25;

export interface AccountsQuery {
  search: string;
  includeInactive: boolean;
  page: number;
}

/** One page of the site's accounts, filtered by a search text. */
export const listAccounts = (q: AccountsQuery) =>
  call('admin/account/list', {
    search: q.search || undefined,
    includeInactive: q.includeInactive,
    offset: q.page * ACCOUNTS_PAGE_SIZE,
    limit: ACCOUNTS_PAGE_SIZE,
  });

export const accountsQuery = (q: AccountsQuery) =>
  queryOptions({ queryKey: adminKeys.accounts(q), queryFn: () => listAccounts(q), placeholderData: keepPreviousData });

export const useAccounts = (q: AccountsQuery) => useQuery(accountsQuery(q));
