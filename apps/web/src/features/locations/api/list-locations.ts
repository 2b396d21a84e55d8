import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

export const LOCATIONS_PAGE_SIZE = 100;

export interface LocationFilter {
  warehouse?: string;
  /** true: active ones only; absent: all. */
  active?: boolean;
  search?: string;
}

/** Locations by warehouse and code, a page of LOCATIONS_PAGE_SIZE from `offset` (the shared Pager). */
export const locationsQuery = (filter: LocationFilter, offset: number) =>
  queryOptions({
    queryKey: inventoryKeys.locations({ ...filter, offset }),
    queryFn: () => call('location/list', { ...filter, offset, limit: LOCATIONS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

export const useLocations = (filter: LocationFilter, offset: number) => useQuery(locationsQuery(filter, offset));
