import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { laborKeys } from './keys.ts';

export const reportQuery = (args: CallArgs<'labor/report'>) =>
  queryOptions({ queryKey: laborKeys.report(args), queryFn: () => call('labor/report', args), staleTime: 30_000 });

export const useLaborReport = (args: CallArgs<'labor/report'>, enabled = true) => useQuery({ ...reportQuery(args), enabled });
