import type { QueryClient } from '@tanstack/react-query';
import { isUnreachable as unreachableStatus } from '@floorhand/contract/offline';
import { ApiError } from '../api.ts';
import { onServerReached, useConnection, type ConnectionState } from '../offline/connection.ts';

// The connection as the read cache sees it: the device's one connection state (lib/offline/connection.ts).

export type ReadConnection = ConnectionState;

/** The connection now: 'online', 'offline' or 'reconnecting'. */
export const useReadConnection = (): ReadConnection => useConnection((s) => s.state);

/** A call that got no answer from the application (the network or the server is down): not a refusal. */
export const noAnswer = (error: unknown): boolean => error instanceof ApiError && unreachableStatus(error.status);

/** When the server answers again, the work areas' reads that failed or went stale are fetched again; returns its undo. */
export function watchConnection(qc: QueryClient): () => void {
  return onServerReached(() => void qc.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' || q.isStale() }));
}
