import { describe, expect, it } from 'vitest';
import { clockTime, fromLocalInput, toLocalInput } from './format.ts';

describe('clock time formats', () => {
  it('round-trips a datetime-local value to the minute', () => {
    const d = new Date(2026, 10, 24, 17, 2, 33);
    const v = toLocalInput(d);
    expect(v).toMatch(/^2026-11-24T17:02$/);
    expect(Date.parse(fromLocalInput(v)!)).toBe(new Date(2026, 10, 24, 17, 2).getTime());
  });
  it('refuses what is not a time', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
  });
  it('says hours and minutes on 24 hours', () => {
    expect(clockTime(new Date(2026, 0, 1, 17, 2).toISOString(), 'en-GB')).toBe('17:02');
  });
});
