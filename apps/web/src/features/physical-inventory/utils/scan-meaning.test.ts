import { describe, expect, it } from 'vitest';
import { CONFIRM_COUNT_FIRST, countScanMeaning, LOCATION_FIRST, oneMore } from './scan-meaning.ts';

describe('what a scan means on the counting screen', () => {
  it('with the quantity prompt open: the same label is one more unit, anything else is refused (never typed)', () => {
    const open = { location: 'A-01-1', prompt: 'S000123' };
    expect(countScanMeaning(open, 'S000123', false)).toEqual({ kind: 'oneMore' });
    expect(countScanMeaning(open, '96385074', false)).toEqual({ kind: 'refused', message: CONFIRM_COUNT_FIRST, params: { text: '96385074', label: 'S000123' } });
    expect(countScanMeaning(open, 'A-01-2', true)).toMatchObject({ kind: 'refused' });
  });

  it('without a prompt: a location of the sheet is the location step; a label needs a location first', () => {
    expect(countScanMeaning({ location: null, prompt: null }, 'A-01-1', true)).toEqual({ kind: 'location' });
    expect(countScanMeaning({ location: null, prompt: null }, 'S1', false)).toEqual({ kind: 'refused', message: LOCATION_FIRST, params: { text: 'S1' } });
    expect(countScanMeaning({ location: 'A-01-1', prompt: null }, 'S1', false)).toEqual({ kind: 'label' });
    expect(countScanMeaning({ location: 'A-01-1', prompt: null }, 'A-01-2', true)).toEqual({ kind: 'location' });
  });

  it('counts one more unit from what the field holds; the scan that opened the prompt was the first', () => {
    expect(oneMore('1')).toBe('2');
    expect(oneMore('')).toBe('2');
    expect(oneMore(' 7 ')).toBe('8');
    expect(oneMore('2.5')).toBeUndefined();
  });
});
