import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './api.ts';
import { adminKeys } from './call-mutation.ts';

/** The site's roles: edited on the Roles screen, offered in the account editor. */
export const listRoles = () => call('admin/role/list', {});

export const rolesQuery = () => queryOptions({ queryKey: adminKeys.roles, queryFn: listRoles });

export const useRoles = () => useQuery(rolesQuery());
