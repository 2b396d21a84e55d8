// The web features' API files (this one is the example in docs/architecture.md): a feature's server calls
// live only in its api/ folder, one file per operation (or a read with the writes that refresh it), named
// for what it does (get-…, list-…, save-…, change-…). Each holds the call, its query options and its hook
// together; a mutation refreshes (invalidates) what it changes. The feature's own query keys, and the live
// events that refresh them, are in api/keys.ts. Components and hooks never import call() from lib/api.ts.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { ApiError } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';
import { sendOrQueue, type Sent } from '../../../lib/offline/outbox.ts';

type ChangePath = 'stock/adjust' | 'stock/move' | 'stock/split';
type StockGet = CallResponse<'stock/get'>;

/** A change to send: its arguments and what the worker did, in words (the outbox lists it by that). */
export interface StockChangeRequest<P extends ChangePath> {
  args: CallArgs<P>;
  label: string;
}

/**
 * A change of one stock record, sent or queued (lib/offline/outbox.ts: the server cannot be reached,
 * or earlier changes still wait). A sent change's record replaces the cached one at once (the screen
 * shows the new quantity without waiting); then the record, the one split off, every lookup and every
 * location are refetched. A queued one changes nothing in the cache: the app refetches everything
 * once the outbox has replayed it. A refusal for a stale revision (409) refetches the record too.
 */
function useStockChange<P extends ChangePath>(path: P) {
  const qc = useQueryClient();
  const refresh = (stockIds: string[]) =>
    Promise.all([
      ...stockIds.map((id) => qc.invalidateQueries({ queryKey: inventoryKeys.stock(id) })),
      qc.invalidateQueries({ queryKey: inventoryKeys.lookups }),
      qc.invalidateQueries({ queryKey: inventoryKeys.locationLists }),
      qc.invalidateQueries({ queryKey: ['inventory', 'location'] }),
    ]);
  return useMutation({
    // Run with the device offline too (the default pauses it): sendOrQueue queues it then.
    networkMode: 'always',
    mutationFn: ({ args, label }: StockChangeRequest<P>): Promise<Sent<P>> => sendOrQueue(path, args, { label }),
    onSuccess: async (sent) => {
      if (sent.queued) return;
      const res = sent.res as CallResponse<ChangePath>;
      const stock = res.stock;
      if (stock) qc.setQueryData<StockGet>(inventoryKeys.stock(stock.stockId), (old) => (old ? { ...old, stock } : old));
      await refresh([stock?.stockId, res.newStock?.stockId].filter((id): id is string => !!id));
    },
    onError: async (error, { args }) => {
      if (error instanceof ApiError && error.status === 409) await refresh([args.stockId]);
    },
  });
}

export const useAdjustStock = () => useStockChange('stock/adjust');
export const useMoveStock = () => useStockChange('stock/move');
export const useSplitStock = () => useStockChange('stock/split');
