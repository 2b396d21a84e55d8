import { create } from 'zustand';
import type { QueryClient } from '@tanstack/react-query';
import { apiBase, ApiError } from '../api.ts';

// The connection as the read cache sees it, until the offline layer's connection store
// (lib/offline/) takes its place: 'offline' when the browser says so, 'reconnecting' when the browser
// is online but the server cannot be reached (a query failed with no answer at all), 'online' once a
// query has an answer again. While the server cannot be reached, /api/health is asked every few
// seconds, and the work area's queries are fetched again as soon as it answers.

export type ReadConnection = 'online' | 'offline' | 'reconnecting';

interface ConnectionState {
  browserOnline: boolean;
  unreachable: boolean;
}

const browserOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine);

export const useConnectionStore = create<ConnectionState>()(() => ({ browserOnline: browserOnline(), unreachable: false }));

export const connectionOf = (s: ConnectionState): ReadConnection => (!s.browserOnline ? 'offline' : s.unreachable ? 'reconnecting' : 'online');

/** The connection now: 'online', 'offline' or 'reconnecting'. */
export const useReadConnection = (): ReadConnection => useConnectionStore(connectionOf);

/** A call that got no answer at all (the network or the server is down): not a refusal. */
export const isUnreachable = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

export const PROBE_MS = 5_000;

/** Follows the browser's online events and the queries' answers; returns its undo (tests). */
export function watchConnection(qc: QueryClient): () => void {
  let probe: ReturnType<typeof setInterval> | null = null;
  const stopProbe = () => {
    if (probe) clearInterval(probe);
    probe = null;
  };
  const reachable = () => {
    if (!useConnectionStore.getState().unreachable) return;
    useConnectionStore.setState({ unreachable: false });
    stopProbe();
    void qc.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' || q.isStale() });
  };
  const startProbe = () => {
    if (probe) return;
    probe = setInterval(() => {
      if (!browserOnline()) return;
      fetch(`${apiBase()}/api/health`, { cache: 'no-store' })
        .then((r) => r.ok && reachable())
        .catch(() => undefined);
    }, PROBE_MS);
  };
  const unsubscribe = qc.getQueryCache().subscribe((e) => {
    if (e.type !== 'updated') return;
    if (e.action.type === 'error' && isUnreachable(e.action.error)) {
      if (!useConnectionStore.getState().unreachable) useConnectionStore.setState({ unreachable: true });
      startProbe();
    } else if (e.action.type === 'success') reachable();
  });
  const onOnline = () => useConnectionStore.setState({ browserOnline: true });
  const onOffline = () => useConnectionStore.setState({ browserOnline: false });
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  return () => {
    unsubscribe();
    stopProbe();
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
  };
}
