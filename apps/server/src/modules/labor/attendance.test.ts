import { describe, expect, it } from 'vitest';
import { attendanceByDay, type AttendancePunch } from './attendance.ts';

const at = (iso: string) => Date.parse(iso);
const p = (accountId: string, kind: 'in' | 'out', iso: string): AttendancePunch => ({ accountId, kind, at: at(iso) });
const period = { from: '2026-03-02', to: '2026-03-03', tzOffsetMinutes: 0 };
const later = at('2026-03-10T00:00:00Z');

describe('attendanceByDay', () => {
  it('sums in → out pairs per worker and day', () => {
    const r = attendanceByDay(
      [
        p('a', 'in', '2026-03-02T08:00:00Z'),
        p('a', 'out', '2026-03-02T12:00:00Z'),
        p('a', 'in', '2026-03-02T12:30:00Z'),
        p('a', 'out', '2026-03-02T17:00:00Z'),
        p('b', 'in', '2026-03-03T09:00:00Z'),
        p('b', 'out', '2026-03-03T09:00:30Z'),
      ],
      period,
      later,
    );
    expect(r.get('a')?.get('2026-03-02')).toBe(8.5 * 3600);
    expect(r.get('b')?.get('2026-03-03')).toBe(30);
  });
  it('splits a night shift at midnight and keeps only the period', () => {
    const r = attendanceByDay(
      [
        p('a', 'in', '2026-03-01T22:00:00Z'),
        p('a', 'out', '2026-03-02T06:00:00Z'),
        p('a', 'in', '2026-03-03T22:00:00Z'),
        p('a', 'out', '2026-03-04T02:00:00Z'),
      ],
      period,
      later,
    );
    expect(r.get('a')?.get('2026-03-01')).toBeUndefined();
    expect(r.get('a')?.get('2026-03-02')).toBe(6 * 3600);
    expect(r.get('a')?.get('2026-03-03')).toBe(2 * 3600);
    expect(r.get('a')?.get('2026-03-04')).toBeUndefined();
  });
  it('uses the caller’s midnight', () => {
    const r = attendanceByDay(
      [p('a', 'in', '2026-03-02T22:00:00Z'), p('a', 'out', '2026-03-02T23:30:00Z')],
      { ...period, tzOffsetMinutes: 60 },
      later,
    );
    expect(r.get('a')?.get('2026-03-02')).toBe(3600);
    expect(r.get('a')?.get('2026-03-03')).toBe(1800);
  });
  it('ignores a second in and a lone out; an open in counts until now, at most the maximum shift (12 h by default, else the setting)', () => {
    const r = attendanceByDay(
      [
        p('a', 'out', '2026-03-02T07:00:00Z'),
        p('a', 'in', '2026-03-02T08:00:00Z'),
        p('a', 'in', '2026-03-02T09:00:00Z'),
        p('a', 'out', '2026-03-02T10:00:00Z'),
        p('a', 'in', '2026-03-02T11:00:00Z'),
      ],
      period,
      at('2026-03-02T11:45:00Z'),
    );
    expect(r.get('a')?.get('2026-03-02')).toBe(2 * 3600 + 45 * 60);
    const forgotten = attendanceByDay([p('a', 'in', '2026-03-02T06:00:00Z')], period, later);
    expect(forgotten.get('a')?.get('2026-03-02')).toBe(12 * 3600);
    expect(
      attendanceByDay([p('a', 'in', '2026-03-02T06:00:00Z')], period, later, 9)
        .get('a')
        ?.get('2026-03-02'),
    ).toBe(9 * 3600);
  });
});
