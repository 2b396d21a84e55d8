/*
 * Long CPU work in slices: a loop over a large input (a CSV import's million rows) calls `pace()`
 * now and then; once PACE_MS have passed since the last pause it waits for setImmediate, so the
 * requests that arrived meanwhile (and their I/O) are served before it goes on. Cheap when no pause
 * is due. Nothing about the work's result changes, only when it runs.
 */
import { setImmediate as immediate } from 'node:timers/promises';

/** The longest slice of work between two pauses, in ms. */
export const PACE_MS = 8;

/** A pacer: `await pace()` pauses once `budgetMs` of work have passed since the last pause. */
export function pacer(budgetMs = PACE_MS): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < budgetMs) return;
    await immediate();
    last = performance.now();
  };
}
