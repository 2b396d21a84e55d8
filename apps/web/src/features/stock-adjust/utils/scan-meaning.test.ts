import { describe, expect, it } from 'vitest';
import { adjustScanMeaning, CONFIRM_QTY_FIRST, isTyped, proposedQty } from './scan-meaning.ts';

describe('what a scan means on Stock Adjust', () => {
  const record = { kind: 'record', stockId: 'S1', waitsForDest: false, typed: false } as const;

  it('opens a record when none is open, or when nothing is typed in the open one', () => {
    expect(adjustScanMeaning({ kind: 'none' }, false)).toEqual({ kind: 'open' });
    expect(adjustScanMeaning({ kind: 'none' }, true)).toEqual({ kind: 'open' });
    expect(adjustScanMeaning(record, false)).toEqual({ kind: 'open' });
    expect(adjustScanMeaning(record, true)).toEqual({ kind: 'open' });
  });

  it('with a quantity typed and not confirmed, refuses scans and typed ids alike: nothing is lost', () => {
    const typed = { ...record, typed: true };
    expect(adjustScanMeaning(typed, false)).toEqual({ kind: 'refused', message: CONFIRM_QTY_FIRST, params: { stockId: 'S1' } });
    expect(adjustScanMeaning(typed, true)).toEqual({ kind: 'refused', message: CONFIRM_QTY_FIRST, params: { stockId: 'S1' } });
  });

  it('while Move waits for its destination, a scan is the destination, a quantity typed or not', () => {
    expect(adjustScanMeaning({ ...record, waitsForDest: true }, false)).toEqual({ kind: 'destination' });
    expect(adjustScanMeaning({ ...record, waitsForDest: true, typed: true }, false)).toEqual({ kind: 'destination' });
  });

  it('while Move waits, an id typed in the Stock id field is a record, unless a quantity is typed', () => {
    expect(adjustScanMeaning({ ...record, waitsForDest: true }, true)).toEqual({ kind: 'open' });
    expect(adjustScanMeaning({ ...record, waitsForDest: true, typed: true }, true)).toMatchObject({ kind: 'refused' });
  });
});

describe('the quantity prompt', () => {
  it('proposes the record quantity for Set to, nothing for add, remove, move and split', () => {
    expect(proposedQty('adjust', true, 12.5)).toEqual({ text: '12.5', proposed: '12.5' });
    expect(proposedQty('adjust', false, 12.5)).toEqual({ text: '', proposed: '' });
    expect(proposedQty('move', true, 12.5)).toEqual({ text: '', proposed: '' });
    expect(proposedQty('split', false, 12.5)).toEqual({ text: '', proposed: '' });
  });

  it('counts as typed only what differs from the proposal and is not empty', () => {
    expect(isTyped({ text: '', proposed: '' })).toBe(false);
    expect(isTyped({ text: '  ', proposed: '' })).toBe(false);
    expect(isTyped({ text: '12', proposed: '12' })).toBe(false);
    expect(isTyped({ text: '', proposed: '12' })).toBe(false);
    expect(isTyped({ text: '7', proposed: '' })).toBe(true);
    expect(isTyped({ text: '7', proposed: '12' })).toBe(true);
  });
});
