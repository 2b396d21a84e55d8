import { queryOptions } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

// The orders admin (Stock Picking, "Orders"): list, read, save and cancel orders. Its keys start with
// 'picking', so a save refreshes the pick list too, and ordersChanged refreshes this list.

export const orderListQuery = (args: CallArgs<'order/list'>) =>
  queryOptions({ queryKey: [...pickingKeys.all, 'orders', args] as const, queryFn: () => call('order/list', args) });
