import { describe, expect, it } from 'vitest';
import { CONFIRM_PICK_FIRST, EVERY_LINE_PICKED, OPEN_LINES_HELD, PICK_SCANNED_ALREADY, pickScanMeaning } from './scan-meaning.ts';

describe('what a scan means on the pick screen', () => {
  it('is the location, then the stock, and never a quantity', () => {
    expect(pickScanMeaning({ kind: 'location' }, 'A-01-1')).toEqual({ kind: 'location' });
    expect(pickScanMeaning({ kind: 'stock', location: 'A-01-1' }, 'S1')).toEqual({ kind: 'stock', location: 'A-01-1' });
  });

  it('with the quantity prompt open, refuses every scan with what to do instead', () => {
    const step = { kind: 'qty', location: 'A-01-1', scan: 'S1' } as const;
    expect(pickScanMeaning(step, 'S1')).toEqual({ kind: 'refused', message: PICK_SCANNED_ALREADY, params: { label: 'S1' } });
    expect(pickScanMeaning(step, '2')).toEqual({ kind: 'refused', message: CONFIRM_PICK_FIRST, params: { label: 'S1' } });
  });

  it('with no line up for the picker, refuses every scan and says why (never a silent drop)', () => {
    expect(pickScanMeaning({ kind: 'location' }, 'A-01-1', 'picked')).toEqual({ kind: 'refused', message: EVERY_LINE_PICKED, params: {} });
    expect(pickScanMeaning({ kind: 'stock', location: 'A-01-1' }, 'S1', 'held')).toEqual({
      kind: 'refused',
      message: OPEN_LINES_HELD,
      params: {},
    });
  });
});
