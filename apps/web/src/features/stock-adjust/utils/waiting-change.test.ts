import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { waitingChange } from './waiting-change.ts';

const item = (id: string, path: OutboxItem['path'], stockId: string, state: OutboxItem['state'] = 'queued'): OutboxItem => ({
  id,
  seq: 1,
  path,
  args: { stockId, idempotencyKey: id },
  label: id,
  person: { accountId: 'a1', name: 'Ada' },
  auth: { authToken: 't', humanToken: null, orgId: 'o', siteId: 's' },
  deviceTime: '2026-11-28T10:00:00.000Z',
  state,
  faults: 0,
});

describe('waitingChange', () => {
  it('finds a queued or sign-in change of the record, whichever of adjust, move or split', () => {
    expect(waitingChange([item('k1', 'stock/move', 'S1')], 'S1')?.id).toBe('k1');
    expect(waitingChange([item('k2', 'stock/split', 'S1', 'signIn')], 'S1')?.id).toBe('k2');
    expect(waitingChange([item('k3', 'stock/adjust', 'S2'), item('k4', 'stock/adjust', 'S1')], 'S1')?.id).toBe('k4');
  });

  it('a refused change, another record, another kind of write or no record: nothing waits', () => {
    expect(waitingChange([item('k1', 'stock/move', 'S1', 'refused')], 'S1')).toBeUndefined();
    expect(waitingChange([item('k2', 'stock/adjust', 'S2')], 'S1')).toBeUndefined();
    expect(waitingChange([{ ...item('k3', 'pick/confirm', 'S1') }], 'S1')).toBeUndefined();
    expect(waitingChange([item('k4', 'stock/adjust', 'S1')], undefined)).toBeUndefined();
  });
});
