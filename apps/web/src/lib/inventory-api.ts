import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { CsvEntity } from '@floorhand/contract/csv-transfer';
import type { StockChanged } from '@floorhand/contract/realtime';
import { call, callFile } from './api.ts';
import { realtime } from './session.ts';
import { saveFile } from './save-file.ts';

// What the inventory work areas (stock lookup, stock adjust, locations) share: the query keys (so a
// realtime stockChanged event refreshes every screen that shows stock), the warehouses, one stock
// record and the CSV download. What only one work area reads lives in that feature's api/.

export const inventoryKeys = {
  all: ['inventory'] as const,
  lookups: ['inventory', 'lookup'] as const,
  lookup: (args: object) => ['inventory', 'lookup', args] as const,
  stock: (stockId: string) => ['inventory', 'stock', stockId] as const,
  locationLists: ['inventory', 'locations'] as const,
  locations: (args: object) => ['inventory', 'locations', args] as const,
  location: (warehouse: string, code: string) => ['inventory', 'location', warehouse, code] as const,
  warehouses: ['inventory', 'warehouses'] as const,
  codes: (type: string) => ['inventory', 'codes', type] as const,
};

/**
 * Whether a cached query shows something a stockChanged event touched. Lookups and location lists
 * are refreshed on any change (a record may have moved into what they match, and counts change);
 * a stock record or a location only when it is one of those named.
 */
export function isAffected(key: QueryKey, data: unknown, ev: StockChanged): boolean {
  if (key[0] !== 'inventory') return false;
  switch (key[1]) {
    case 'lookup':
    case 'locations':
      return true;
    case 'stock':
      return ev.stockIds.includes(String(key[2]));
    case 'location': {
      const id = (data as { location?: { _id?: string } } | undefined)?.location?._id;
      return id !== undefined && ev.locationIds.includes(id);
    }
    default:
      return false;
  }
}

/** Open screens refetch what another device (or this one) changed. */
export function useStockChangedRefresh(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const off = realtime.on('stockChanged', (ev) => {
      void qc.invalidateQueries({ predicate: (q) => isAffected(q.queryKey, q.state.data, ev) });
    });
    return () => void off();
  }, [qc]);
}

export const warehousesQuery = () =>
  queryOptions({
    queryKey: inventoryKeys.warehouses,
    queryFn: () => call('warehouse/list', {}),
    staleTime: 5 * 60_000,
    select: (r) => r.warehouses ?? [],
  });

export const useWarehouses = () => useQuery(warehousesQuery());

/** One stock record with its movement history. A missing or malformed id is an answer, not an error dialog. */
export const stockQuery = (stockId: string) =>
  queryOptions({
    queryKey: inventoryKeys.stock(stockId),
    queryFn: () => call('stock/get', { stockId }, { suppress: /^(ERR_NOT_FOUND|ERR_BAD_INPUT)$/ }),
    retry: false,
  });

/** Downloads a CSV export (export/csv answers text/csv); a refusal has shown its dialog and is thrown. */
export async function downloadCsv(entity: CsvEntity, warehouse?: string): Promise<void> {
  const blob = await callFile('export/csv', { entity, ...(warehouse ? { warehouse } : {}) });
  saveFile(blob, `${entity}${warehouse ? `-${warehouse}` : ''}.csv`);
}
