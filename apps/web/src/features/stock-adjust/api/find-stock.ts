import { queryOptions, useQuery } from '@tanstack/react-query';
import { groupRecords } from '@floorhand/contract/stock';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

/** Candidates when the value is not a stock id: the records a lookup of it finds (a location, a part). */
export const CANDIDATES_MAX = 50;

export const findStockQuery = (value: string) => {
  const args = { value, maxRows: CANDIDATES_MAX };
  return queryOptions({
    queryKey: inventoryKeys.lookup(args),
    queryFn: () => call('stock/lookup', args),
    select: (r) => ({ records: (r.groups ?? []).flatMap(groupRecords), more: !!r.more, blind: r.blind ?? [] }),
  });
};

export const useFindStock = (value: string, enabled: boolean) => useQuery({ ...findStockQuery(value), enabled: enabled && value !== '' });
