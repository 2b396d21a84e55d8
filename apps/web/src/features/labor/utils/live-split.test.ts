import { describe, expect, it } from 'vitest';
import type { LaborEntry } from '@floorhand/contract/labor';
import { batchElapsed, liveShares } from './live-split.ts';

const entry = (id: string, countedFrom: string): LaborEntry => ({
  id,
  accountId: 'a',
  worker: 'W',
  taskCode: id,
  kind: 'wos',
  description: '',
  orderNumber: 'WO1',
  operationNumber: '10',
  batchId: 'b',
  mode: 'batch',
  startedAt: countedFrom,
  countedFrom,
  stoppedAt: null,
  seconds: 0,
  roundedSeconds: 0,
  qtyDone: null,
  complete: false,
  endedAtPunchOut: false,
});

describe('live split', () => {
  it('splits the running batch to the second, shares adding up to the elapsed time', () => {
    const running = [
      entry('a', '2026-03-02T08:00:00.000Z'),
      entry('b', '2026-03-02T08:00:00.000Z'),
      entry('c', '2026-03-02T08:05:00.000Z'),
    ];
    const now = Date.parse('2026-03-02T08:05:07.000Z') / 1000;
    const shares = liveShares(running, now);
    expect(shares.get('a')! + shares.get('b')! + shares.get('c')!).toBe(307);
    expect(batchElapsed(running, now)).toBe(307);
    expect(shares.get('c')).toBe(2);
  });
});
