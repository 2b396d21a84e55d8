import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

/** The sites whose perms the admin manages (every site of the organisation for an organisation admin). */
export const listSites = () => call('admin/site/list', {});

export const sitesQuery = () => queryOptions({ queryKey: adminKeys.sites, queryFn: listSites, staleTime: 5 * 60_000 });

export const useSites = () => useQuery(sitesQuery());
