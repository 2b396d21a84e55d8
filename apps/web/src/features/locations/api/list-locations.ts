import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

export const LOCATIONS_PAGE_SIZE = 100;

export interface LocationFilter {
  warehouse?: string;
  /** true: active ones only; absent: all. */
  active?: boolean;
  search?: string;
}

/** Locations by warehouse and code, a page at a time ("Show more"). */
export const locationsQuery = (filter: LocationFilter) =>
  infiniteQueryOptions({
    queryKey: inventoryKeys.locations(filter),
    queryFn: ({ pageParam }) => call('location/list', { ...filter, offset: pageParam, limit: LOCATIONS_PAGE_SIZE }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.more ? pages.length * LOCATIONS_PAGE_SIZE : undefined),
    placeholderData: keepPreviousData,
  });

export const useLocations = (filter: LocationFilter) => useInfiniteQuery(locationsQuery(filter));
