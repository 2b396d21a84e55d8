import { afterEach, describe, expect, it } from 'vitest';
import { localDayRange } from './punch-export.ts';

const tz = process.env.TZ;
afterEach(() => {
  process.env.TZ = tz;
});

describe('localDayRange', () => {
  it('runs from the first midnight to the midnight after the last day, in the browser zone', () => {
    process.env.TZ = 'UTC';
    expect(localDayRange({ from: '2026-11-01', to: '2026-11-07' })).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-08T00:00:00.000Z',
    });
  });

  it('counts a daylight-saving day as one calendar day, not 24 hours', () => {
    process.env.TZ = 'Europe/Berlin';
    // 29 March 2026 has 23 hours in Berlin; 25 October 2026 has 25.
    expect(localDayRange({ from: '2026-03-29', to: '2026-03-29' })).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
    });
    expect(localDayRange({ from: '2026-10-25', to: '2026-10-25' })).toEqual({
      from: '2026-10-24T22:00:00.000Z',
      to: '2026-10-25T23:00:00.000Z',
    });
  });
});
