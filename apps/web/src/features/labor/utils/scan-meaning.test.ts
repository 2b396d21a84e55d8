import { describe, expect, it } from 'vitest';
import { batchScanMeaning, EMPTY_STOP, singleScanMeaning, STOP_OR_CANCEL_FIRST, STOP_OR_CLEAR_FIRST } from './scan-meaning.ts';

describe('what a scan means on the labor screens', () => {
  it('single task: a task, with nothing running or the stop form untouched', () => {
    expect(singleScanMeaning(null)).toEqual({ kind: 'task' });
    expect(singleScanMeaning({ task: 'T1', stop: EMPTY_STOP })).toEqual({ kind: 'task' });
    expect(singleScanMeaning({ task: 'T1', stop: { qty: '  ', complete: false } })).toEqual({ kind: 'task' });
  });

  it('single task: refused once the stop form holds a quantity or Complete (starting another task would lose it)', () => {
    const refusal = { kind: 'refused', message: STOP_OR_CLEAR_FIRST, params: { task: 'T1' } };
    expect(singleScanMeaning({ task: 'T1', stop: { qty: '7', complete: false } })).toEqual(refusal);
    expect(singleScanMeaning({ task: 'T1', stop: { qty: '', complete: true } })).toEqual(refusal);
  });

  it('batch: a task joins the batch, unless a stop form is open', () => {
    expect(batchScanMeaning(null)).toEqual({ kind: 'add' });
    expect(batchScanMeaning('T2')).toEqual({ kind: 'refused', message: STOP_OR_CANCEL_FIRST, params: { task: 'T2' } });
  });
});
