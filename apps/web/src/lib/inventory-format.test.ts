import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from './i18n.ts';
import { readQtyInput, showDecimal, showQty, showTimestamp, sumQty } from './inventory-format.ts';

describe('inventory quantities', () => {
  it('shows canonical decimals, with the unit when given', () => {
    expect(showQty(12.5)).toBe('12.5');
    expect(showQty(3, 'EA')).toBe('3 EA');
    expect(showQty(-0.0001)).toBe('-0.0001');
    expect(showQty(0)).toBe('0');
  });

  it('sums exactly', () => {
    expect(sumQty([0.1, 0.2])).toBe(0.3);
    expect(sumQty([])).toBe(0);
    expect(sumQty([99999999999.9999, -0.9999])).toBe(99999999999);
  });

  it('reads typed quantities', () => {
    expect(readQtyInput('')).toEqual({ ok: false, message: 'must be provided' });
    expect(readQtyInput(' 2.5 ')).toEqual({ ok: true, units: 25_000n });
    expect(readQtyInput('1.23456').ok).toBe(false);
    expect(readQtyInput('abc').ok).toBe(false);
  });

  it('shows timestamps as year-month-day hour:minute:second', () => {
    expect(showTimestamp('2024-05-06T07:08:09')).toBe('2024-05-06 07:08:09');
    expect(showTimestamp('not a date')).toBe('not a date');
  });
});

describe("quantities in the screen's language", () => {
  afterEach(() => showLanguage('en'));

  it('reads 2,5 as 2.5 in Spanish, refuses the comma in English (1,500 could mean either), reads a point in both', async () => {
    expect(readQtyInput('2,5')).toMatchObject({ ok: false, message: 'must be a number' });
    expect(readQtyInput('1,500')).toMatchObject({ ok: false });
    await showLanguage('es');
    expect(readQtyInput('2,5')).toEqual({ ok: true, units: 25_000n });
    expect(readQtyInput(' -0,25 ')).toEqual({ ok: true, units: -2_500n });
    expect(readQtyInput('2.5')).toEqual({ ok: true, units: 25_000n });
    expect(readQtyInput('1.234,5').ok).toBe(false);
    expect(readQtyInput('1,23456')).toMatchObject({ ok: false, message: 'must have at most 4 decimal places' });
  });

  it('shows 2,5 in Spanish and 2.5 in English, thousands never grouped', async () => {
    expect(showQty(2.5, 'KG')).toBe('2.5 KG');
    await showLanguage('es');
    expect(showQty(2.5, 'KG')).toBe('2,5 KG');
    expect(showQty(1234567.125)).toBe('1234567,125');
    expect(showQty(-0.0001)).toBe('-0,0001');
    expect(showQty(3, 'EA')).toBe('3 EA');
    expect(showDecimal('1.5')).toBe('1,5');
    // What is shown is read back as it was.
    expect(readQtyInput(showQty(1234567.125))).toEqual({ ok: true, units: 12_345_671_250n });
  });

  it('takes a separator given in place of the screen language', () => {
    expect(readQtyInput('1,5', ',')).toEqual({ ok: true, units: 15000n });
    expect(readQtyInput('1,5', '.')).toMatchObject({ ok: false });
    expect(showQty(1.5, undefined, ',')).toBe('1,5');
  });
});
