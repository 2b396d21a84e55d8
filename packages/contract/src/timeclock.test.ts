import { describe, expect, it } from 'vitest';
import { beyondMaxShift, inFromEarlierShift, readTimeclockSettings, TIMECLOCK_SETTINGS_DEFAULTS } from './timeclock.ts';

// The missed-punch question's shift rule (docs/timeclock.md), at fixed times.
const utc = (s: string) => Date.parse(`${s}Z`);
const three = { shiftStarts: ['06:00', '14:00', '22:00'], maxShiftHours: 12, graceMinutes: 60 };

describe('inFromEarlierShift', () => {
  it('defaults: no starts, the maximum shift alone (13 h asks, 11 h does not)', () => {
    expect(inFromEarlierShift(utc('2026-11-23T17:00'), utc('2026-11-24T06:00'), TIMECLOCK_SETTINGS_DEFAULTS, 0)).toBe(true);
    expect(inFromEarlierShift(utc('2026-11-23T19:00'), utc('2026-11-24T06:00'), TIMECLOCK_SETTINGS_DEFAULTS, 0)).toBe(false);
  });
  it('three shifts: leaving the morning shift up to the grace after 14:00 is no question; later it is', () => {
    expect(inFromEarlierShift(utc('2026-11-23T05:50'), utc('2026-11-23T14:10'), three, 0)).toBe(false);
    expect(inFromEarlierShift(utc('2026-11-23T05:50'), utc('2026-11-23T15:00'), three, 0)).toBe(false);
    expect(inFromEarlierShift(utc('2026-11-23T05:50'), utc('2026-11-23T15:01'), three, 0)).toBe(true);
  });
  it('a night shift over midnight is one shift; the next morning shift is not', () => {
    expect(inFromEarlierShift(utc('2026-11-23T21:45'), utc('2026-11-24T06:05'), three, 0)).toBe(false);
    expect(inFromEarlierShift(utc('2026-11-23T21:45'), utc('2026-11-24T07:30'), three, 0)).toBe(true);
  });
  it('starts are the clock’s local times (x-tz-offset): 06:00 in UTC+1 is 05:00 UTC', () => {
    // offset -60: the clock is an hour ahead of UTC. The in at 04:50 UTC is 05:50 local, shift 06:00-14:00 local.
    expect(inFromEarlierShift(utc('2026-11-23T04:50'), utc('2026-11-23T13:55'), three, -60)).toBe(false);
    expect(inFromEarlierShift(utc('2026-11-23T04:50'), utc('2026-11-23T14:05'), three, -60)).toBe(true);
  });
  it('beyond the maximum shift', () => {
    expect(beyondMaxShift(utc('2026-11-22T08:00'), utc('2026-11-23T22:00'), three)).toBe(true);
    expect(beyondMaxShift(utc('2026-11-23T08:00'), utc('2026-11-23T19:00'), three)).toBe(false);
  });
  it('bad or missing settings read as the defaults', () => {
    expect(readTimeclockSettings(undefined)).toEqual(TIMECLOCK_SETTINGS_DEFAULTS);
    expect(readTimeclockSettings({ timeclock: { shiftStarts: ['6am'], maxShiftHours: 12, graceMinutes: 60 } })).toEqual(
      TIMECLOCK_SETTINGS_DEFAULTS,
    );
    expect(readTimeclockSettings({ timeclock: three })).toEqual(three);
  });
});
