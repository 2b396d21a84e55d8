import { describe, expect, it } from 'vitest';
import { readQtyInput, showQty, showTimestamp, sumQty } from './inventory-format.ts';

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

describe('typed quantities and the decimal comma', () => {
  it('reads 1,5 as 1.5 in a comma locale, refuses it in a point locale', async () => {
    const { readQtyInput, localeDecimalSeparator } = await import('./inventory-format.ts');
    expect(localeDecimalSeparator('de-DE')).toBe(',');
    expect(localeDecimalSeparator('en-US')).toBe('.');
    expect(readQtyInput('1,5', ',')).toEqual({ ok: true, units: 15000n });
    expect(readQtyInput('1,5', '.')).toMatchObject({ ok: false });
    expect(readQtyInput('2.5', ',')).toEqual({ ok: true, units: 25000n });
  });
});
