import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { APP_SETTINGS_DEFAULTS, appSettingsSchema } from '@floorhand/contract/site-admin';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import type { CsvEntity } from '@floorhand/contract/inventory';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { siteDataQuery } from './admin-api.ts';
import { apiBase, call, isTrustedHost } from './api.ts';
import { useAuthStore } from './auth-store.ts';
import { realtime } from './session.ts';
import { useSiteStore } from './site-store.ts';

// What the inventory work areas (stock lookup, stock adjust, locations) share: the query keys (so a
// realtime stockChanged event refreshes every screen that shows stock), reference lists, one stock
// record, the stock-adjust app settings and the CSV download.

export const inventoryKeys = {
  all: ['inventory'] as const,
  lookups: ['inventory', 'lookup'] as const,
  lookup: (args: object) => ['inventory', 'lookup', args] as const,
  stock: (stockId: string) => ['inventory', 'stock', stockId] as const,
  locationLists: ['inventory', 'locations'] as const,
  locations: (args: object) => ['inventory', 'locations', args] as const,
  location: (warehouse: string, code: string) => ['inventory', 'location', warehouse, code] as const,
  warehouses: ['inventory', 'warehouses'] as const,
  codes: (type: CodeType) => ['inventory', 'codes', type] as const,
};

export interface StockChangedEvent {
  stockIds: string[];
  locationIds: string[];
}

/**
 * Whether a cached query shows something a stockChanged event touched. Lookups and location lists
 * are refreshed on any change (a record may have moved into what they match, and counts change);
 * a stock record or a location only when it is one of those named.
 */
export function isAffected(key: QueryKey, data: unknown, ev: StockChangedEvent): boolean {
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
    const off = realtime.on('stockChanged', (data) => {
      const ev = data as StockChangedEvent;
      void qc.invalidateQueries({ predicate: (q) => isAffected(q.queryKey, q.state.data, ev) });
    });
    return () => void off();
  }, [qc]);
}

export const warehousesQuery = () =>
  queryOptions({ queryKey: inventoryKeys.warehouses, queryFn: () => call('warehouse/list', {}), staleTime: 5 * 60_000, select: (r) => r.warehouses ?? [] });

export type CodeType = 'conditionCode' | 'department';
export interface CodeOption {
  value: string;
  label: string;
}

/** Active condition codes or departments (record layer) as select options "CODE – text". */
export const codesQuery = (type: CodeType) =>
  queryOptions({
    queryKey: inventoryKeys.codes(type),
    queryFn: () => call('record/list', { type, limit: 499 }),
    staleTime: 5 * 60_000,
    select: (r): CodeOption[] =>
      (r.records ?? [])
        .filter((rec) => rec.active !== false)
        .map((rec) => {
          const code = String(rec.code ?? rec._id);
          const text = rec.description ?? rec.name;
          return { value: code, label: typeof text === 'string' && text ? `${code} – ${text}` : code };
        }),
  });

export const useWarehouses = () => useQuery(warehousesQuery());
export const useCodes = (type: CodeType) => useQuery(codesQuery(type));

/** One stock record with its movement history. A missing or malformed id is an answer, not an error dialog. */
export const stockQuery = (stockId: string) =>
  queryOptions({
    queryKey: inventoryKeys.stock(stockId),
    queryFn: () => call('stock/get', { stockId }, { suppress: /^(ERR_NOT_FOUND|ERR_BAD_INPUT)$/ }),
    retry: false,
  });

export interface StockAdjustSettings {
  clearDstLoc: boolean;
  reasons: string[];
}

/** app_settings' stockAdjust section, or the defaults where it is missing or broken. */
export function readStockAdjustSettings(data: unknown): StockAdjustSettings {
  const raw = (data as { stockAdjust?: unknown } | undefined)?.stockAdjust;
  const parsed = appSettingsSchema.shape.stockAdjust.safeParse(raw);
  return parsed.success ? parsed.data : { ...APP_SETTINGS_DEFAULTS.stockAdjust };
}

export const useStockAdjustSettings = () => useQuery({ ...siteDataQuery('conf', 'app_settings'), select: (r) => readStockAdjustSettings(r.siteData?.data) });

/**
 * Downloads a CSV export. export/csv answers text/csv rather than JSON, so it is fetched here with
 * the request helper's rules for the token (trusted hosts only) instead of through `call`.
 */
export async function downloadCsv(entity: CsvEntity, warehouse?: string): Promise<void> {
  const base = apiBase();
  const url = new URL(`${base}/api/export/csv`);
  url.searchParams.set('entity', entity);
  if (warehouse) url.searchParams.set('warehouse', warehouse);
  const headers: Record<string, string> = {};
  const token = useAuthStore.getState().authToken;
  if (token && isTrustedHost(new URL(base).hostname, useSiteStore.getState().trustedDomains)) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { headers });
  } catch (e) {
    void dialogs.error({ code: ERR.generic, message: 'The server cannot be reached. Check the network connection and try again.', detail: String(e) });
    return;
  }
  if (!res.ok) {
    const json = (await res.json().catch(() => ({}))) as { err?: ServerErr };
    void dialogs.error(json.err ?? { code: ERR.generic, message: `The server answered ${res.status}` });
    return;
  }
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = `${entity}${warehouse ? `-${warehouse}` : ''}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
