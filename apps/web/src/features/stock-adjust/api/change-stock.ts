import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { ApiError, call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

type ChangePath = 'stock/adjust' | 'stock/move' | 'stock/split';
type StockGet = CallResponse<'stock/get'>;

/**
 * A change of one stock record. The answer's record replaces the cached one at once (the screen shows
 * the new quantity without waiting); then the record, the one split off, every lookup and every
 * location are refetched. A refusal for a stale revision (409) refetches the record too.
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
    mutationFn: (args: CallArgs<P>) => call(path, args) as Promise<CallResponse<P>>,
    onSuccess: async (res) => {
      const stock = res.stock;
      if (stock) qc.setQueryData<StockGet>(inventoryKeys.stock(stock.stockId), (old) => (old ? { ...old, stock } : old));
      await refresh([stock?.stockId, res.newStock?.stockId].filter((id): id is string => !!id));
    },
    onError: async (error, args) => {
      if (error instanceof ApiError && error.status === 409) await refresh([args.stockId]);
    },
  });
}

export const useAdjustStock = () => useStockChange('stock/adjust');
export const useMoveStock = () => useStockChange('stock/move');
export const useSplitStock = () => useStockChange('stock/split');
