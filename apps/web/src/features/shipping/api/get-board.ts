import { queryOptions } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { shippingKeys } from './keys.ts';

export const boardQuery = (args: CallArgs<'ship/board'>) =>
  queryOptions({ queryKey: shippingKeys.board(args), queryFn: () => call('ship/board', args, { quietUnreachable: true }) });
