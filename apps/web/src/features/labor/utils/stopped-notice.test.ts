import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import type { LaborEntry } from '@floorhand/contract/labor';
import { stoppedNotice } from './stopped-notice.ts';

const t = ((key: string, vars?: Record<string, string>) =>
  key.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars?.[k] ?? '')) as unknown as TFunction;
const settings = { displayScale: 2, roundToMinutes: 6, batchGraceTimeSecs: 180, allowWithoutClockIn: false };
const entry = (taskCode: string, endedAtPunchOut: boolean): LaborEntry => ({
  id: taskCode,
  accountId: 'a',
  worker: 'W',
  taskCode,
  kind: 'wos',
  description: '',
  orderNumber: null,
  operationNumber: null,
  batchId: 'b',
  mode: 'single',
  startedAt: '2026-03-02T08:00:00.000Z',
  countedFrom: '2026-03-02T08:00:00.000Z',
  stoppedAt: '2026-03-02T08:30:00.000Z',
  seconds: 1800,
  roundedSeconds: 1800,
  qtyDone: null,
  complete: false,
  endedAtPunchOut,
});

describe('stoppedNotice', () => {
  it('books the hours of a stop in green', () => {
    expect(stoppedNotice(t, [entry('T1', false)], settings)).toEqual({ color: 'green', message: 'T1 stopped: 0.50 h booked' });
  });
  it('says when and why a task ended at the punch-out, in orange, for a stop and for a start', () => {
    for (const notice of [
      stoppedNotice(t, [entry('T1', true), entry('T2', true)], settings),
      stoppedNotice(t, [entry('T1', true)], settings, 'T9'),
    ]) {
      expect(notice).toMatchObject({ color: 'orange' });
      expect(notice!.message.startsWith('Ended at your punch-out: ')).toBe(true);
      expect(notice!.message).toContain('when you punched out');
    }
    expect(
      stoppedNotice(t, [entry('T1', true), entry('T2', true)], settings)!.message.startsWith('Ended at your punch-out: T1, T2 stopped at '),
    ).toBe(true);
  });
  it('names what a start stopped', () => {
    expect(stoppedNotice(t, [entry('T1', false)], settings, 'T2')).toEqual({ color: 'green', message: 'T1 stopped, T2 started' });
    expect(stoppedNotice(t, [], settings, 'T2')).toEqual({ color: 'green', message: 'T2 started' });
  });
});
