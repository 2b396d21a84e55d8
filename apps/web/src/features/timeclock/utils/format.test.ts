import { describe, expect, it } from 'vitest';
import { clockTime, dayTime, fromLocalInput, toLocalInput } from './format.ts';

describe('clock time formats', () => {
  it('round-trips the field text to the minute', () => {
    const d = new Date(2026, 10, 24, 17, 2, 33);
    const v = toLocalInput(d);
    expect(v).toBe('2026-11-24 17:02');
    expect(Date.parse(fromLocalInput(v)!)).toBe(new Date(2026, 10, 24, 17, 2).getTime());
    expect(Date.parse(fromLocalInput('2026-11-24T17:02')!)).toBe(new Date(2026, 10, 24, 17, 2).getTime());
  });
  it('refuses what is not a time, or not a real one', () => {
    for (const v of ['', 'tomorrow', '11/24/2026 5:02 PM', '2026-02-30 10:00', '2026-11-24 24:00', '2026-11-24 7:02'])
      expect(fromLocalInput(v), v).toBeNull();
  });
  it('says hours and minutes on 24 hours, and the day with the date', () => {
    expect(clockTime(new Date(2026, 0, 1, 17, 2).toISOString())).toBe('17:02');
    expect(clockTime(new Date(2026, 0, 1, 7, 5).toISOString())).toBe('07:05');
    expect(dayTime(new Date(2026, 10, 23, 7, 58).toISOString())).toBe('Mon 2026-11-23 07:58');
  });
});
