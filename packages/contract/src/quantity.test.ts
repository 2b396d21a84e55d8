import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QTY_MAX_UNITS, QTY_MESSAGES, formatQty, parseQty, qtyNumber, wholeUnitsOnly } from './quantity.ts';
import { wholeUnitsMessage } from './stock-rules.ts';

const units = (value: unknown) => {
  const r = parseQty(value);
  return r.ok ? r.units : r.message;
};

describe('parseQty', () => {
  it.each([
    [1, 10000n],
    [0, 0n],
    [-0, 0n],
    [12.5, 125000n],
    [0.0001, 1n],
    [-3, -30000n],
    ['7', 70000n],
    [' 1.2300 ', 12300n],
    ['.5', 5000n],
    ['5.', 50000n],
    ['+2', 20000n],
    ['1e3', 10000000n],
    ['1.5E-2', 150n],
    [99_999_999_999.9999, QTY_MAX_UNITS],
    ['99999999999.9999', QTY_MAX_UNITS],
  ])('reads %j', (value, expected) => {
    expect(units(value)).toBe(expected);
  });

  it.each([
    [Number.NaN, QTY_MESSAGES.number],
    [Number.POSITIVE_INFINITY, QTY_MESSAGES.number],
    ['1e309', QTY_MESSAGES.number],
    ['', QTY_MESSAGES.number],
    ['abc', QTY_MESSAGES.number],
    ['0x10', QTY_MESSAGES.number],
    ['1,5', QTY_MESSAGES.number],
    [null, QTY_MESSAGES.number],
    [true, QTY_MESSAGES.number],
    [0.00001, QTY_MESSAGES.scale],
    [1e-7, QTY_MESSAGES.scale],
    ['1.00001', QTY_MESSAGES.scale],
    [0.1 + 0.2, QTY_MESSAGES.scale],
    [1e15, QTY_MESSAGES.max],
    ['100000000000', QTY_MESSAGES.max],
    ['-100000000000', QTY_MESSAGES.max],
  ])('refuses %j: %s', (value, message) => {
    expect(units(value)).toBe(message);
  });

  it('round-trips through text and number for every value of four decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -QTY_MAX_UNITS, max: QTY_MAX_UNITS }), (u) => {
        expect(units(formatQty(u))).toBe(u);
        expect(units(qtyNumber(u))).toBe(u);
      }),
    );
  });

  it('writes canonical text', () => {
    expect([125000n, -30000n, 0n, 1n, 10000000n].map(formatQty)).toEqual(['12.5', '-3', '0', '0.0001', '1000']);
  });
});

describe('withDecimalPoint', () => {
  it('reads a lone decimal comma as a point where the locale uses one, and only there', async () => {
    const { withDecimalPoint } = await import('./quantity.ts');
    expect(withDecimalPoint('1,5', ',')).toBe('1.5');
    expect(withDecimalPoint(' -0,25 ', ',')).toBe('-0.25');
    expect(withDecimalPoint(',5', ',')).toBe('.5');
    expect(withDecimalPoint('1,5', '.')).toBe('1,5');
    expect(withDecimalPoint('1.234,5', ',')).toBe('1.234,5');
    expect(withDecimalPoint('1,2,3', ',')).toBe('1,2,3');
  });
});

describe('withDecimalSeparator', () => {
  it('writes canonical decimal text with the screen separator, never grouping thousands, and reads back the same', async () => {
    const { withDecimalPoint, withDecimalSeparator, formatQty } = await import('./quantity.ts');
    expect(withDecimalSeparator('2.5', ',')).toBe('2,5');
    expect(withDecimalSeparator('-1234567.0001', ',')).toBe('-1234567,0001');
    expect(withDecimalSeparator('12', ',')).toBe('12');
    expect(withDecimalSeparator('2.5', '.')).toBe('2.5');
    const text = formatQty(12_345n);
    expect(withDecimalPoint(withDecimalSeparator(text, ','), ',')).toBe(text);
  });
});

describe('whole units only', () => {
  it('flags EA and other counted units, in any case, and nothing else', () => {
    expect(wholeUnitsOnly('EA')).toBe(true);
    expect(wholeUnitsOnly(' ea ')).toBe(true);
    expect(wholeUnitsOnly('box')).toBe(true);
    expect(wholeUnitsOnly('KG')).toBe(false);
    expect(wholeUnitsOnly('')).toBe(false);
    expect(wholeUnitsOnly(null)).toBe(false);
    expect(wholeUnitsOnly('constructor')).toBe(false);
    expect(wholeUnitsOnly('__proto__')).toBe(false);
  });

  it('refuses a fraction of an each, allows whole numbers and fractions of a kilogram', () => {
    expect(wholeUnitsMessage('EA', 15000n)).toBe('must be a whole number: EA is counted in whole units');
    expect(wholeUnitsMessage('ea', -5000n)).toBe('must be a whole number: EA is counted in whole units');
    expect(wholeUnitsMessage('EA', 20000n)).toBeUndefined();
    expect(wholeUnitsMessage('EA', -30000n)).toBeUndefined();
    expect(wholeUnitsMessage('KG', 15000n)).toBeUndefined();
  });
});
