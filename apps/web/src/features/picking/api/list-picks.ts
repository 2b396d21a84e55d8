import { queryOptions } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { pickingKeys } from './keys.ts';

export const pickListQuery = (args: CallArgs<'pick/list'>) =>
  queryOptions({ queryKey: pickingKeys.list(args), queryFn: () => call('pick/list', args) });
