import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { useTranslation } from 'react-i18next';
import { call } from '../../../lib/api.ts';
import { currentPersonId, sendOrQueue, useOutbox, type Sent } from '../../../lib/offline/outbox.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { rememberTask, withQueued, type ShownEntry } from '../utils/queued-labor.ts';
import { laborKeys } from './keys.ts';

type Current = CallResponse<'labor/current'>;

/** What the worker runs now; refreshed when the page regains focus and every minute (another device may have stopped it). */
export const currentLaborQuery = () =>
  queryOptions({
    queryKey: laborKeys.current,
    queryFn: () => call('labor/current', {}, { quietUnreachable: true }),
    refetchInterval: 60_000,
  });

export const useCurrentLabor = () => useQuery(currentLaborQuery());

/**
 * A start or a stop: sent, and the answer (the worker's new state) put into the cache at once; or,
 * when the server cannot be reached, kept in the outbox (issue 27) with the device's time, and the
 * screen shows it from there (useRunning) until the replay's refresh.
 */
function useLaborChange<P extends 'labor/start' | 'labor/stop'>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    // Not paused while the device is offline: sendOrQueue decides (the outbox takes it).
    networkMode: 'always',
    mutationFn: ({ label, ...args }: CallArgs<P> & { label: string }) =>
      sendOrQueue(path, args as unknown as CallArgs<P>, { label }) as Promise<Sent<P>>,
    onSuccess: (sent) => {
      if (sent.queued) return;
      const res = sent.res as CallResponse<'labor/current'>;
      qc.setQueryData<Current>(laborKeys.current, (old) => ({
        ...old,
        running: res.running,
        serverTime: res.serverTime,
        settings: res.settings ?? old?.settings,
      }));
      void qc.invalidateQueries({ queryKey: laborKeys.reports });
    },
    onError: () => void qc.invalidateQueries({ queryKey: laborKeys.current }),
  });
}

/** The person labor is booked for on this device now: the kiosk's worker, else the account. */
const usePerson = (): string | null => {
  const kiosk = useSessionStore((s) => s.user?.id);
  const account = useAuthStore((s) => s.user?.id);
  return kiosk ?? account ?? currentPersonId();
};

/** What the worker runs: the server's answer (or the cached one, offline) with their queued starts and stops. */
export function useRunning(): { current: ReturnType<typeof useCurrentLabor>; running: ShownEntry[] } {
  const { t } = useTranslation();
  const current = useCurrentLabor();
  const items = useOutbox((s) => s.items);
  const person = usePerson();
  const server = current.data?.running ?? [];
  for (const e of server) rememberTask(e);
  return { current, running: withQueued(server, items, person, t('Checked by the server when the connection returns')) };
}

export const useStartLabor = () => useLaborChange('labor/start');

export const useStopLabor = () => useLaborChange('labor/stop');
