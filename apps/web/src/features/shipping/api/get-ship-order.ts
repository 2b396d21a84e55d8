import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { shippingKeys } from './keys.ts';

export const shipOrderQuery = (number: string) =>
  queryOptions({
    queryKey: shippingKeys.order(number),
    queryFn: () => call('ship/order', { number }, { suppress: /^(ERR_NOT_FOUND)$/, quietUnreachable: true }),
    retry: false,
  });
