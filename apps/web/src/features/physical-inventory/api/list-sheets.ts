import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { countKeys } from './keys.ts';

export const useSheets = (filters: CallArgs<'counts/sheet/list'>) =>
  useQuery({ queryKey: countKeys.sheets(filters), queryFn: () => call('counts/sheet/list', filters), placeholderData: keepPreviousData });
