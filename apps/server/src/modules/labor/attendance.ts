/*
 * Attendance from the time clock's punches, per worker and day: the punches that count (valid, not
 * void, not replaced), taken in pairs in → out. Pure, so the rules are tested without a database.
 *
 * - An "in" while already in, or an "out" while out, is ignored (the first "in" and the first "out"
 *   after it make the pair).
 * - An "in" without an "out" yet counts until `now`, at most `maxOpenHours` (the time clock's
 *   maximum shift, app setting `timeclock.maxShiftHours`: a forgotten punch is a pending correction,
 *   not a day of attendance).
 * - A pair over midnight is split at the caller's midnight; only the days of the period count.
 */
import { TIMECLOCK_SETTINGS_DEFAULTS } from '@floorhand/contract/timeclock';

export interface AttendancePunch {
  accountId: string;
  kind: 'in' | 'out';
  /** Epoch ms. */
  at: number;
}

const DAY_MS = 86_400_000;

/** The caller's day (YYYY-MM-DD) of an instant; `tzOffsetMinutes` east of UTC. */
export const dayOf = (at: number, tzOffsetMinutes: number): string => new Date(at + tzOffsetMinutes * 60_000).toISOString().slice(0, 10);
/** The instant the caller's day starts. */
export const dayStart = (day: string, tzOffsetMinutes: number): number => Date.parse(`${day}T00:00:00Z`) - tzOffsetMinutes * 60_000;

/**
 * Seconds of attendance per worker and day: a Map of accountId → Map of day → seconds, for the days
 * `from` to `to` (inclusive). `punches` are sorted by worker then time.
 */
export function attendanceByDay(
  punches: readonly AttendancePunch[],
  p: { from: string; to: string; tzOffsetMinutes: number },
  now: number,
  maxOpenHours: number = TIMECLOCK_SETTINGS_DEFAULTS.maxShiftHours,
): Map<string, Map<string, number>> {
  const start = dayStart(p.from, p.tzOffsetMinutes);
  const end = dayStart(p.to, p.tzOffsetMinutes) + DAY_MS;
  const out = new Map<string, Map<string, number>>();
  const add = (accountId: string, from: number, to: number) => {
    let a = Math.max(from, start);
    const b = Math.min(to, end, now);
    while (a < b) {
      const day = dayOf(a, p.tzOffsetMinutes);
      const next = Math.min(b, dayStart(day, p.tzOffsetMinutes) + DAY_MS);
      const days = out.get(accountId) ?? new Map<string, number>();
      out.set(accountId, days);
      days.set(day, (days.get(day) ?? 0) + (next - a) / 1000);
      a = next;
    }
  };
  let worker: string | undefined;
  let inSince: number | undefined;
  const close = () => {
    if (worker !== undefined && inSince !== undefined) add(worker, inSince, Math.min(now, inSince + maxOpenHours * 3_600_000));
  };
  for (const punch of punches) {
    if (punch.accountId !== worker) {
      close();
      worker = punch.accountId;
      inSince = undefined;
    }
    if (punch.kind === 'in') inSince ??= punch.at;
    else if (inSince !== undefined) {
      add(worker, inSince, punch.at);
      inSince = undefined;
    }
  }
  close();
  // Whole seconds (pairs are whole milliseconds apart; a day's sum is floored once).
  for (const days of out.values()) for (const [d, s] of days) days.set(d, Math.floor(s));
  return out;
}
