import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { shippingKeys } from './keys.ts';

/** Refusals the pack screen shows itself in the error dialog, then readies the scan field. */
export const SHIP_REFUSALS = /^(ERR_BAD_INPUT|ERR_CONFLICT|ERR_NOT_FOUND)$/;

type ShipPath = 'package/save' | 'package/pack' | 'package/unpack' | 'ship/confirm' | 'order/issue';

export function useShipCall<P extends ShipPath>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, { suppress: SHIP_REFUSALS }) as Promise<CallResponse<P>>,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: shippingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]),
  });
}
