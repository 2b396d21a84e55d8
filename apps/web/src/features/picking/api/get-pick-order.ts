import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

/** An order to pick by its number (a scanned traveller or a link); a number nobody uses is an answer, not an error dialog. */
export const pickOrderQuery = (number: string) =>
  queryOptions({
    queryKey: pickingKeys.order(number),
    queryFn: () => call('pick/order', { number }, { suppress: /^(ERR_NOT_FOUND)$/, quietUnreachable: true }),
    retry: false,
  });
