import { PACK_PICK_MAX_ROWS } from '@floorhand/contract/constants';
import type { TaskKind } from '@floorhand/contract/labor';
import { call } from '../../../lib/api.ts';
import { hasOperations, travellerSource, type TravellerOrder } from '../utils/traveller.ts';

/**
 * What an order's traveller prints: for a work, manufacturing or routing order its active operations
 * (task/list by the exact order number and kind), one label each; otherwise (or without tasks) one
 * label with the order number. A refusal of task/list has shown its dialog and is thrown (never a
 * traveller with the wrong barcode).
 */
export async function travellerOf(order: TravellerOrder): Promise<ReturnType<typeof travellerSource>> {
  if (!hasOperations(order)) return travellerSource(order);
  const { tasks } = await call('task/list', {
    orderNumber: order.number,
    kind: order.type as TaskKind,
    active: true,
    limit: PACK_PICK_MAX_ROWS,
  });
  return travellerSource(order, tasks ?? []);
}
