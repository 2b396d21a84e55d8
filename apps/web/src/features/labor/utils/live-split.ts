import { batchShares, type LaborEntry } from '@floorhand/contract/labor';

/** Whole epoch seconds of an ISO time. */
export const epochSecs = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/**
 * The live split of the worker's running batch at `nowSecs` (server time): the contract's
 * batchShares over the batch's running entries, as the server books them at a stop. Entries the
 * batch already stopped are not on the screen; their seconds are settled (docs/labor.md).
 */
export function liveShares(running: readonly LaborEntry[], nowSecs: number): Map<string, number> {
  return batchShares(running.map((e) => ({ id: e.id, from: epochSecs(e.countedFrom), to: Math.max(nowSecs, epochSecs(e.countedFrom)) })));
}

/** The elapsed seconds of the batch: from its earliest counted start to now. */
export function batchElapsed(running: readonly LaborEntry[], nowSecs: number): number {
  if (running.length === 0) return 0;
  return Math.max(0, nowSecs - Math.min(...running.map((e) => epochSecs(e.countedFrom))));
}
