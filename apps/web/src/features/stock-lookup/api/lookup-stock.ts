import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';
import type { LookupArgs } from '../utils/lookup.ts';

export const lookupStock = (args: LookupArgs) => call('stock/lookup', args, { quietUnreachable: true });

/** A lookup is cached per value and filters; realtime stockChanged refreshes it (inventoryKeys.lookups). */
export const lookupQuery = (args: LookupArgs) =>
  queryOptions({ queryKey: inventoryKeys.lookup(args), queryFn: () => lookupStock(args), enabled: args.value !== '', staleTime: 10_000 });

export const useLookupStock = (args: LookupArgs) => useQuery(lookupQuery(args));
