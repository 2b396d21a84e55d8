import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

export const orderQuery = (orderId: string) =>
  queryOptions({ queryKey: [...pickingKeys.all, 'order-admin', orderId] as const, queryFn: () => call('order/get', { orderId }) });
