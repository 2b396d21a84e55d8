import { describe, expect, it } from 'vitest';
import { FirstRows } from './first-rows.ts';

describe('FirstRows', () => {
  it('answers the first row of a repeated key and remembers new ones, through growth', () => {
    const first = new FirstRows(4);
    const keys = Array.from({ length: 50_000 }, (_, i) => `MAIN\u0000L${String(i).padStart(7, '0')}`);
    keys.forEach((key, i) => expect(first.firstOrAdd(key, i + 2)).toBeUndefined());
    expect(first.size).toBe(keys.length);
    keys.forEach((key, i) => expect(first.firstOrAdd(key, 99_999)).toBe(i + 2));
    expect(first.size).toBe(keys.length);
  });

  it('tells keys apart that differ in one character, in case, in length or by a separator', () => {
    const first = new FirstRows();
    const keys = ['A', 'a', 'AB', 'BA', 'A\u0000B', 'AB\u0000', '\u0000AB', '', 'é', 'e\u0301', 'x'.repeat(1000), `${'x'.repeat(999)}y`];
    keys.forEach((key, i) => expect(first.firstOrAdd(key, i + 1), key).toBeUndefined());
    keys.forEach((key, i) => expect(first.firstOrAdd(key, 500), key).toBe(i + 1));
  });

  it('refuses row 0, which marks a free slot', () => {
    expect(() => new FirstRows().firstOrAdd('A', 0)).toThrow(RangeError);
  });
});
