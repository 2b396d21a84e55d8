import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

/** The site's feature access grid (role → feature → level). */
export const getFeatureAccess = () => call('admin/featureAccess/get', {});

export const featureAccessQuery = () => queryOptions({ queryKey: adminKeys.featureAccess, queryFn: getFeatureAccess });

export const useFeatureAccess = () => useQuery(featureAccessQuery());
