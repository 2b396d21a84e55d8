import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

/** A location with what it holds (records above zero, by part number). */
export const locationQuery = (warehouse: string, code: string) =>
  queryOptions({ queryKey: inventoryKeys.location(warehouse, code), queryFn: () => call('location/get', { warehouse, code }) });

export const useLocationDetail = (ref: { warehouse: string; code: string } | null) =>
  useQuery({ ...locationQuery(ref?.warehouse ?? '', ref?.code ?? ''), enabled: !!ref });
