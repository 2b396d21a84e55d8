import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  batchShares,
  countedFrom,
  coveredSeconds,
  formatHours,
  isCalendarDate,
  readLaborSettings,
  roundSeconds,
  taskProblems,
  type BatchSpan,
} from './labor.ts';

/** A random batch schedule: tasks added and stopped at whole seconds, some within the grace time. */
const schedule = fc
  .record({
    grace: fc.integer({ min: 0, max: 300 }),
    tasks: fc.array(fc.record({ addedAfter: fc.integer({ min: 0, max: 4000 }), runs: fc.integer({ min: 0, max: 9000 }) }), {
      minLength: 1,
      maxLength: 20,
    }),
  })
  .map(({ grace, tasks }) => {
    const start = 1_750_000_000;
    return tasks.map((t, i): BatchSpan => {
      const added = start + (i === 0 ? 0 : t.addedAfter);
      const from = countedFrom(start, added, grace);
      return { id: `e${i}`, from, to: added + t.runs };
    });
  });

/** Per second, how many spans run in it: each such second must be booked exactly once in total. */
function secondsBooked(spans: BatchSpan[]): Map<number, number> {
  const per = new Map<number, number>();
  for (const s of spans) for (let t = s.from; t < s.to; t++) per.set(t, (per.get(t) ?? 0) + 1);
  return per;
}

describe('batchShares', () => {
  it('splits evenly by largest remainder: 7 s over 3 tasks is 3 + 2 + 2', () => {
    const shares = batchShares([
      { id: 'a', from: 0, to: 7 },
      { id: 'b', from: 0, to: 7 },
      { id: 'c', from: 0, to: 7 },
    ]);
    expect([...shares.values()].sort()).toEqual([2, 2, 3]);
    expect(shares.get('a')).toBe(3);
  });

  it('books the MES case right: two machines, 0.08 h of real time is 0.08 h in all', () => {
    // 288 s of real time; the second machine joined after 72 s (past any grace).
    const shares = batchShares([
      { id: 'm1', from: 0, to: 288 },
      { id: 'm2', from: 72, to: 288 },
    ]);
    expect(shares.get('m1')! + shares.get('m2')!).toBe(288);
    expect(shares.get('m1')).toBe(72 + 108);
  });

  it('a task added within grace counts from the batch start', () => {
    expect(countedFrom(100, 250, 180)).toBe(100);
    expect(countedFrom(100, 281, 180)).toBe(281);
    expect(countedFrom(100, 280, 180)).toBe(100);
  });

  it('property: for random schedules the shares sum to the seconds covered exactly, and no second is booked twice', () => {
    fc.assert(
      fc.property(schedule, (spans) => {
        const shares = batchShares(spans);
        const sum = [...shares.values()].reduce((a, b) => a + b, 0);
        const covered = coveredSeconds(spans);
        expect(sum).toBe(covered);
        // The seconds in which the worker ran anything, counted once each.
        expect(secondsBooked(spans).size).toBe(covered);
        for (const s of spans) {
          const share = shares.get(s.id)!;
          expect(Number.isInteger(share)).toBe(true);
          expect(share).toBeGreaterThanOrEqual(0);
          // Never more than the span itself ran: a share is at most its own length.
          expect(share).toBeLessThanOrEqual(Math.max(0, s.to - s.from));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: a share differs from the exact fair share by less than one second', () => {
    fc.assert(
      fc.property(schedule, (spans) => {
        const shares = batchShares(spans);
        const exact = new Map(spans.map((s) => [s.id, 0]));
        for (const [second, k] of secondsBooked(spans))
          for (const s of spans) if (s.from <= second && second < s.to) exact.set(s.id, exact.get(s.id)! + 1 / k);
        for (const s of spans) expect(Math.abs(shares.get(s.id)! - exact.get(s.id)!)).toBeLessThan(1 + 1e-6);
      }),
      { numRuns: 100 },
    );
  });
});

describe('rounding and settings', () => {
  it('rounds each total once to roundToMinutes and shows displayScale decimals', () => {
    expect(roundSeconds(179, 6)).toBe(0);
    expect(roundSeconds(180, 6)).toBe(360);
    expect(roundSeconds(1000, 0)).toBe(1000);
    expect(formatHours(roundSeconds(1000, 6), 1)).toBe('0.3');
    expect(formatHours(5400, 2)).toBe('1.50');
  });

  it('reads the labor settings with the spec defaults', () => {
    expect(readLaborSettings(undefined)).toEqual({
      displayScale: 1,
      roundToMinutes: 6,
      batchGraceTimeSecs: 180,
      allowWithoutClockIn: false,
    });
    expect(readLaborSettings({ labor: { displayScale: 2, roundToMinutes: 'x', allowWithoutClockIn: true } })).toMatchObject({
      displayScale: 2,
      roundToMinutes: 6,
      allowWithoutClockIn: true,
    });
  });

  it('takes real calendar days only for report periods', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('x')).toBe(false);
  });

  it('an operation needs its order and number; an indirect task has neither', () => {
    expect(taskProblems({ kind: 'wos', orderNumber: 'WO1', operationNumber: '10' })).toEqual({});
    expect(Object.keys(taskProblems({ kind: 'mos' })).sort()).toEqual(['operationNumber', 'orderNumber']);
    expect(taskProblems({ kind: 'cleaning', orderNumber: 'WO1' }).orderNumber).toHaveLength(1);
    expect(taskProblems({ kind: 'meeting' })).toEqual({});
  });
});
