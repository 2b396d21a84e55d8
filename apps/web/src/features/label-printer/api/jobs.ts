import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { labelKeys } from './keys.ts';

export const jobsQuery = () => queryOptions({ queryKey: labelKeys.jobs, queryFn: () => call('label/job/list', { limit: 50 }) });

export const useJobs = () => useQuery(jobsQuery());

function useJobMutation<P extends 'label/print' | 'label/job/reprint' | 'label/job/printRest'>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.jobs }),
  });
}

export const usePrint = () => useJobMutation('label/print');

export const useReprint = () => useJobMutation('label/job/reprint');

export const usePrintRest = () => useJobMutation('label/job/printRest');
