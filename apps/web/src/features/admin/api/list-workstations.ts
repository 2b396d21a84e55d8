import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

/** The site's workstations (devices with a key). */
export const listWorkstations = () => call('admin/workstation/list', {});

export const workstationsQuery = () => queryOptions({ queryKey: adminKeys.workstations, queryFn: listWorkstations });

export const useWorkstations = () => useQuery(workstationsQuery());
