import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { APP_ID } from '@floorhand/contract/constants';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { apiBase, call, isTrustedHost } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { useSiteStore } from '../../../lib/site-store.ts';

export const laborKeys = {
  current: ['labor', 'current'] as const,
  task: (code: string) => ['labor', 'task', code] as const,
  reports: ['labor', 'report'] as const,
  report: (args: CallArgs<'labor/report'>) => ['labor', 'report', args] as const,
};

type Current = CallResponse<'labor/current'>;

/** What the worker runs now; refreshed when the page regains focus and every minute (another device may have stopped it). */
export const currentLaborQuery = () => queryOptions({ queryKey: laborKeys.current, queryFn: () => call('labor/current', {}), refetchInterval: 60_000 });
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

/** Downloads the labor entries of a period as CSV (labor/export answers text/csv, so it is fetched here with the request helper's token rules). */
export async function downloadLaborCsv(args: CallArgs<'labor/export'>): Promise<void> {
  const base = apiBase();
  const auth = useAuthStore.getState();
  const site = useSiteStore.getState();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth.authToken && isTrustedHost(new URL(base).hostname, site.trustedDomains)) headers.authorization = `Bearer ${auth.authToken}`;
  const body = { siteId: site.siteId ?? '', appId: APP_ID, orgId: auth.org?.id ?? '', ...args };
  let res: Response;
  try {
    res = await fetch(`${base}/api/labor/export`, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (e) {
    void dialogs.error({ code: ERR.generic, message: 'The server cannot be reached. Check the network connection and try again.', detail: String(e) });
    return;
  }
  if (!res.ok) {
    const json = (await res.json().catch(() => ({}))) as { err?: ServerErr };
    void dialogs.error(json.err ?? { code: ERR.generic, message: `The server answered ${res.status}` });
    return;
  }
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = `labor-${args.from}-${args.to}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Downloads the punches of the report's days (the time clock's export: every record, corrections
 * and what they replace, flagged `edited`), next to the labor entries. Days are the browser's.
 */
export async function downloadPunchesCsv(args: { from: string; to: string }): Promise<void> {
  const to = new Date(`${args.to}T00:00:00`);
  to.setDate(to.getDate() + 1);
  const { csv, fileName } = await call('timeclock/punches/export', { from: new Date(`${args.from}T00:00:00`).toISOString(), to: to.toISOString() });
  if (csv === undefined) return;
  const href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName ?? `punches-${args.from}-${args.to}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
