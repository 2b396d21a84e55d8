import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

/** The signed-in account as it sees itself. */
export const getMe = () => call('account/me/get', {});

export const meQuery = () => queryOptions({ queryKey: adminKeys.me, queryFn: getMe });

export const useMe = () => useQuery(meQuery());
