import { describe, expect, it } from 'vitest';
import { CONFIRM_COUNT_FIRST, countScanMeaning, labelAnswer, LOCATION_FIRST, NEEDS_QTY, oneMore } from './scan-meaning.ts';

describe('what a scan means on the counting screen', () => {
  it('with the quantity prompt open: the same label is one more unit, anything else is refused (never typed)', () => {
    const open = { location: 'A-01-1', prompt: 'S000123' };
    expect(countScanMeaning(open, 'S000123', false)).toEqual({ kind: 'oneMore' });
    expect(countScanMeaning(open, '96385074', false)).toEqual({
      kind: 'refused',
      message: CONFIRM_COUNT_FIRST,
      params: { text: '96385074', label: 'S000123' },
    });
    expect(countScanMeaning(open, 'A-01-2', true)).toMatchObject({ kind: 'refused' });
  });

  it('without a prompt: a location of the sheet is the location step; a label needs a location first', () => {
    expect(countScanMeaning({ location: null, prompt: null }, 'A-01-1', true)).toEqual({ kind: 'location' });
    expect(countScanMeaning({ location: null, prompt: null }, 'S1', false)).toEqual({
      kind: 'refused',
      message: LOCATION_FIRST,
      params: { text: 'S1' },
    });
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

describe("the server's answer to a label scan (issue 25)", () => {
  it("a location that is not on the sheet is refused with the server's words, never the found-stock form", () => {
    const message = "The location 'A-03-1' is not on the count sheet CS000012";
    expect(labelAnswer(message)).toEqual({ kind: 'refused', message });
  });

  it("an item's barcode opens the found-stock form filled with its part number; an unknown label opens it empty", () => {
    const message = "'4006381333931' is the barcode of part 'P-100': none is expected here; give the quantity to record it as found stock";
    expect(labelAnswer(message, JSON.stringify({ found: { partNumber: 'P-100' } }))).toEqual({
      kind: 'found',
      note: message,
      partNumber: 'P-100',
      serial: '',
    });
    expect(
      labelAnswer("The serial 'SN1' is on hand in more than one item: give its part number", JSON.stringify({ found: { serial: 'SN1' } })),
    ).toMatchObject({
      kind: 'found',
      partNumber: '',
      serial: 'SN1',
    });
    expect(labelAnswer("No stock record 'X9' exists: give its part number to record it as found stock")).toEqual({
      kind: 'found',
      note: null,
      partNumber: '',
      serial: '',
    });
  });

  it('a stock label without a quantity asks for it; a detail that is no hint (a refused post) is no found stock', () => {
    expect(labelAnswer(NEEDS_QTY)).toEqual({ kind: 'quantity' });
    expect(labelAnswer('1 line cannot be posted; the first: S1: x', JSON.stringify({ invalid: [] }))).toMatchObject({ kind: 'refused' });
    expect(labelAnswer('bad', '{not json')).toMatchObject({ kind: 'refused' });
  });
});

describe('a refused label scan read in any language (issue 29)', () => {
  it('reads what is asked from the detail, not from the words', () => {
    expect(labelAnswer('Indica la cantidad contada', '{"ask":"qty"}')).toEqual({ kind: 'quantity' });
    expect(labelAnswer("No existe el registro de existencias 'X'", '{"ask":"partNumber"}')).toEqual({
      kind: 'found',
      note: null,
      partNumber: '',
      serial: '',
    });
    expect(labelAnswer('Otra cosa', '{"ask":"nothing"}')).toEqual({ kind: 'refused', message: 'Otra cosa' });
  });
});
