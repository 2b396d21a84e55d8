import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { call, callFile } from '../../../lib/api.ts';
import { saveFile } from '../../../lib/save-file.ts';

export const laborKeys = {
  current: ['labor', 'current'] as const,
  task: (code: string) => ['labor', 'task', code] as const,
  reports: ['labor', 'report'] as const,
  report: (args: CallArgs<'labor/report'>) => ['labor', 'report', args] as const,
};

type Current = CallResponse<'labor/current'>;

/** What the worker runs now; refreshed when the page regains focus and every minute (another device may have stopped it). */
export const currentLaborQuery = () => queryOptions({ queryKey: laborKeys.current, queryFn: () => call('labor/current', {}, { quietUnreachable: true }), refetchInterval: 60_000 });
export const useCurrentLabor = () => useQuery(currentLaborQuery());

/** A start or a stop: the answer is the worker's new state, put into the cache at once. */
function useLaborChange<P extends 'labor/start' | 'labor/stop'>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args) as Promise<CallResponse<P>>,
    onSuccess: (res) => {
      qc.setQueryData<Current>(laborKeys.current, (old) => ({ ...old, running: res.running, serverTime: res.serverTime, settings: res.settings ?? old?.settings }));
      void qc.invalidateQueries({ queryKey: laborKeys.reports });
    },
    onError: () => void qc.invalidateQueries({ queryKey: laborKeys.current }),
  });
}
export const useStartLabor = () => useLaborChange('labor/start');
export const useStopLabor = () => useLaborChange('labor/stop');

/** A task by code; an unknown code answers null (no error dialog: the screen says it). */
export const getTask = (taskCode: string) => call('task/get', { taskCode }, { suppress: /^ERR_NOT_FOUND$/ });

export const reportQuery = (args: CallArgs<'labor/report'>) => queryOptions({ queryKey: laborKeys.report(args), queryFn: () => call('labor/report', args), staleTime: 30_000 });
export const useLaborReport = (args: CallArgs<'labor/report'>, enabled = true) => useQuery({ ...reportQuery(args), enabled });

/** Downloads the labor entries of a period as CSV (labor/export answers text/csv); a refusal has shown its dialog and is thrown. */
export async function downloadLaborCsv(args: CallArgs<'labor/export'>): Promise<void> {
  saveFile(await callFile('labor/export', args), `labor-${args.from}-${args.to}.csv`);
}

