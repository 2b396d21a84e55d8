import { describe, expect, it } from 'vitest';
import type { Package, Staged } from '@floorhand/contract/shipping';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { withQueuedPacks } from './queued-packs.ts';

const staged = (stockId: string, packageId: string | null = null): Staged => ({
  _id: `pick-${stockId}`,
  lineId: 'L1',
  stockId,
  qty: 1,
  fromLocation: 'A-01-1',
  toLocation: 'STAGE-1',
  pickedBy: { id: 'anna', name: 'Anna' },
  ts: '2026-11-28T10:00:00.000Z',
  partNumber: 'P1',
  uom: 'EA',
  packageId,
  state: 'picked',
});
const pkg = (id: string, stockIds: string[] = []): Package =>
  ({
    _id: id,
    _rev: 1,
    orderId: 'O1',
    packageNo: `SO-1-${id}`,
    type: 'box',
    weight: null,
    length: null,
    width: null,
    height: null,
    carrier: null,
    service: null,
    tracking: null,
    status: 'open',
    shippedAt: null,
    stockIds,
  }) as unknown as Package;

let seq = 0;
const item = (path: OutboxItem['path'], packageId: string, stockId: string, state: OutboxItem['state'] = 'queued'): OutboxItem => ({
  id: `k${++seq}`,
  seq,
  path,
  args: { idempotencyKey: `k${seq}`, packageId, stockId },
  label: `${path} ${stockId}`,
  person: { accountId: 'anna', name: 'Anna' },
  auth: { authToken: null, humanToken: null, orgId: 'o', siteId: 's' },
  deviceTime: '2026-11-28T10:00:00.000Z',
  state,
  faults: 0,
});

describe('withQueuedPacks: the pack screen offline (issue 27)', () => {
  it('shows a queued pack in its package and a queued unpack out of it; refused items and other orders are left out', () => {
    const view = withQueuedPacks(
      [staged('S1'), staged('S2', 'B'), staged('S3')],
      [pkg('A'), pkg('B', ['S2'])],
      [
        item('package/pack', 'A', 'S1'),
        item('package/unpack', 'B', 'S2'),
        item('package/pack', 'A', 'S3', 'refused'),
        item('package/pack', 'ELSEWHERE', 'S3'),
      ],
    );
    expect(view.staged.map((s) => [s.stockId, s.packageId])).toEqual([
      ['S1', 'A'],
      ['S2', null],
      ['S3', null],
    ]);
    expect(view.packages.map((p) => p.stockIds)).toEqual([['S1'], []]);
    expect(view.queued.map((q) => [q.kind, q.stockId, q.known])).toEqual([
      ['pack', 'S1', true],
      ['unpack', 'S2', true],
    ]);
  });

  it('keeps a label it does not know as queued "to check", changing nothing', () => {
    const view = withQueuedPacks([staged('S1')], [pkg('A')], [item('package/pack', 'A', 'S9')]);
    expect(view.queued).toEqual([expect.objectContaining({ stockId: 'S9', known: false })]);
    expect(view.packages[0]!.stockIds).toEqual([]);
  });
});
