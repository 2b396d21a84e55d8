import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * What a scan means on the labor screens (docs/scanning.md). The scan router brings every scan here
 * whatever has the focus; these tables decide.
 *
 * Single task (the stop form shows, its Quantity done the prompt, while a task runs):
 *
 * | state                                          | scan     | meaning                                                   |
 * |------------------------------------------------|----------|-----------------------------------------------------------|
 * | no task running                                | anything | the task: looked up, its Start takes the focus            |
 * | task T running, its stop form as it opened     | anything | the task: its Start stops T (as before)                   |
 * | task T running, a quantity typed or Complete ticked | anything | refused: stop T first, or clear the stop form (Escape) |
 *
 * Starting another task stops T without what its stop form holds, so a scan never leads there while
 * the worker has begun to fill it in.
 *
 * Batch task (a task's stop form, opened by its Stop button, is the prompt):
 *
 * | state                      | scan     | meaning                                   |
 * |----------------------------|----------|-------------------------------------------|
 * | no stop form open          | anything | the task joins the batch                  |
 * | stop form of T open        | anything | refused: stop T first, or cancel          |
 *
 * A task added while T is being stopped would share T's last seconds; the worker ends T first.
 */
export interface StopDraft {
  qty: string;
  complete: boolean;
}

export const EMPTY_STOP: StopDraft = { qty: '', complete: false };

export type SingleScanMeaning = { kind: 'task' } | Refused;
export type BatchScanMeaning = { kind: 'add' } | Refused;

export const STOP_OR_CLEAR_FIRST = tk('Stop {{task}} first, or clear its stop form (Escape)');
export const STOP_OR_CANCEL_FIRST = tk('Stop {{task}} first, or cancel');

/** `running`: the running task's code and its stop form, if a task runs. */
export function singleScanMeaning(running: { task: string; stop: StopDraft } | null): SingleScanMeaning {
  if (running && (running.stop.qty.trim() !== '' || running.stop.complete)) return refused(STOP_OR_CLEAR_FIRST, { task: running.task });
  return { kind: 'task' };
}

/** `stopping`: the code of the task whose stop form is open, if one is. */
export function batchScanMeaning(stopping: string | null): BatchScanMeaning {
  if (stopping !== null) return refused(STOP_OR_CANCEL_FIRST, { task: stopping });
  return { kind: 'add' };
}
