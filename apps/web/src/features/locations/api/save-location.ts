import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

/** Lists and the location itself show what a save or deactivation changed. */
function useLocationMutation<P extends 'location/save' | 'location/deactivate'>(path: P, suppress?: RegExp) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, { suppress }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: inventoryKeys.locationLists }),
        qc.invalidateQueries({ queryKey: ['inventory', 'location'] }),
      ]),
  });
}

/** Field problems and duplicates show in the form itself, not in the error dialog. */
export const useSaveLocation = () => useLocationMutation('location/save', /^(ERR_BAD_INPUT|DUP)$/);
/** Refused (409) while the location holds stock: the error dialog says so. */
export const useDeactivateLocation = () => useLocationMutation('location/deactivate');
