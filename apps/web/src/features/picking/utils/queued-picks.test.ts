import { describe, expect, it } from 'vitest';
import type { PickLine } from '@floorhand/contract/orders';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { withQueued } from './queued-picks.ts';

const line = (n: number, extra: Partial<PickLine> = {}): PickLine => ({
  _id: `L${n}`,
  lineNo: n,
  itemId: `I${n}`,
  partNumber: `P${n}`,
  description: '',
  uom: 'EA',
  tracking: 'none',
  qty: 2,
  picked: 0,
  short: 0,
  shipped: 0,
  status: 'open',
  shortReason: null,
  claimedBy: null,
  skipSeq: 0,
  sources: [
    { stockId: `S${n}a`, location: `A-0${n}-1`, quantity: 5, lot: null, serial: null },
    { stockId: `S${n}b`, location: `B-0${n}-1`, quantity: 1, lot: null, serial: null },
  ],
  picks: [],
  ...extra,
});

let seq = 0;
const item = (path: OutboxItem['path'], args: Record<string, unknown>, state: OutboxItem['state'] = 'queued'): OutboxItem => ({
  id: `k${++seq}`,
  seq,
  path,
  args,
  label: `${path} ${String(args.lineId)}`,
  person: { accountId: 'anna', name: 'Anna Ruiz' },
  auth: { authToken: null, humanToken: null, orgId: 'o', siteId: 's' },
  deviceTime: '2026-11-28T10:00:00.000Z',
  state,
  faults: 0,
});

describe('withQueued: the pick screen offline (issue 27)', () => {
  const lines = [line(1), line(2), line(3)];

  it('shows a queued pick as made: the line picked, the record lowered, the next line first', () => {
    const view = withQueued(lines, [item('pick/confirm', { lineId: 'L1', location: 'A-01-1', scan: 'S1a', qty: '2' })]);
    expect(view.lines.map((l) => l._id)).toEqual(['L2', 'L3', 'L1']);
    const l1 = view.lines.find((l) => l._id === 'L1')!;
    expect(l1).toMatchObject({ picked: 2, status: 'picked' });
    expect(l1.sources.find((s) => s.stockId === 'S1a')!.quantity).toBe(3);
    expect(l1.picks).toEqual([expect.objectContaining({ _id: 'k1', stockId: 'S1a', qty: 2, fromLocation: 'A-01-1' })]);
    expect(view.queued).toEqual([{ id: 'k1', kind: 'pick', lineId: 'L1', label: 'pick/confirm L1' }]);
    // The input lines are not changed.
    expect(lines[0]!.picked).toBe(0);
  });

  it('keeps a part-picked line open and takes a record scanned by item where the location holds one', () => {
    const view = withQueued(lines, [item('pick/confirm', { lineId: 'L1', location: 'B-01-1', scan: 'P1', qty: 1 })]);
    const l1 = view.lines[0]!;
    expect(l1).toMatchObject({ _id: 'L1', picked: 1, status: 'open' });
    expect(l1.sources.map((s) => s.stockId)).toEqual(['S1a']);
  });

  it('closes a queued short, walks a queued skip last, and leaves out refused items and other orders', () => {
    const view = withQueued(lines, [
      item('pick/skip', { lineId: 'L1' }),
      item('pick/short', { lineId: 'L2', reason: 'Damaged' }),
      item('pick/confirm', { lineId: 'L3', location: 'A-03-1', scan: 'S3a', qty: 2 }, 'refused'),
      item('pick/skip', { lineId: 'OTHER' }),
      item('stock/adjust', { lineId: 'L3' }),
    ]);
    expect(view.lines.map((l) => [l._id, l.status])).toEqual([
      ['L3', 'open'],
      ['L1', 'open'],
      ['L2', 'short'],
    ]);
    expect(view.lines[2]).toMatchObject({ short: 2, shortReason: 'Damaged' });
    expect(view.queued.map((q) => q.kind)).toEqual(['skip', 'short']);
  });

  it("counts an item waiting for its person to sign in again as queued, and skips after the server's skips", () => {
    const skipped = [line(1, { skipSeq: 4 }), line(2), line(3)];
    const view = withQueued(skipped, [item('pick/skip', { lineId: 'L2' }, 'signIn')]);
    expect(view.lines.map((l) => l._id)).toEqual(['L3', 'L1', 'L2']);
    expect(view.lines[2]!.skipSeq).toBe(5);
  });
});
