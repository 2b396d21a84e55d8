import { describe, expect, it } from 'vitest';
import type { LaborEntry } from '@floorhand/contract/labor';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { isQueuedEntry, rememberTask, withQueued } from './queued-labor.ts';

const entry = (id: string, taskCode: string): LaborEntry => ({
  id,
  accountId: 'p1',
  worker: 'Pat',
  taskCode,
  kind: 'wos',
  description: `Op ${taskCode}`,
  orderNumber: 'WO1',
  operationNumber: '10',
  batchId: 'b1',
  mode: 'batch',
  startedAt: '2026-03-02T08:00:00.000Z',
  countedFrom: '2026-03-02T08:00:00.000Z',
  stoppedAt: null,
  seconds: 0,
  roundedSeconds: 0,
  qtyDone: null,
  complete: false,
  endedAtPunchOut: false,
});
let seq = 0;
const item = (path: 'labor/start' | 'labor/stop', args: Record<string, unknown>, over: Partial<OutboxItem> = {}): OutboxItem => ({
  id: `k${++seq}`,
  seq,
  path,
  args: { idempotencyKey: `k${seq}`, ...args },
  label: path,
  person: { accountId: 'p1', name: 'Pat' },
  auth: { authToken: 't', humanToken: null, orgId: 'o', siteId: 's' },
  deviceTime: '2026-03-02T09:00:00.000Z',
  state: 'queued',
  faults: 0,
  ...over,
});

describe('withQueued (labor offline, issue 27)', () => {
  it('shows a queued single start as the one running task, at its device time, and a queued stop by task code removes it', () => {
    rememberTask({ taskCode: 'T2', kind: 'meeting', orderNumber: null, operationNumber: null, description: 'Team meeting' });
    const start = item('labor/start', { taskCode: 'T2', mode: 'single', deviceTime: '2026-03-02T10:00:00.000Z' });
    const shown = withQueued([entry('e1', 'T1')], [start], 'p1', '?');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      taskCode: 'T2',
      description: 'Team meeting',
      kind: 'meeting',
      startedAt: '2026-03-02T10:00:00.000Z',
      queued: true,
    });
    expect(isQueuedEntry(shown[0]!.id)).toBe(true);
    expect(withQueued([entry('e1', 'T1')], [start, item('labor/stop', { taskCode: 'T2' })], 'p1', '?')).toEqual([]);
  });

  it('adds queued batch starts, stops a server entry by id, and leaves out refused items and other people', () => {
    const items = [
      item('labor/start', { taskCode: 'T3', mode: 'batch', deviceTime: '2026-03-02T10:00:00.000Z' }),
      item('labor/stop', { entryId: 'e1' }),
      item('labor/start', { taskCode: 'T4', mode: 'batch' }, { state: 'refused' }),
      item('labor/start', { taskCode: 'T5', mode: 'batch' }, { person: { accountId: 'p2', name: 'Other' } }),
    ];
    const shown = withQueued([entry('e1', 'T1'), entry('e2', 'T2')], items, 'p1', 'Not checked');
    expect(shown.map((e) => [e.taskCode, !!e.queued])).toEqual([
      ['T2', false],
      ['T3', true],
    ]);
    expect(shown[1]!.description).toBe('Not checked');
  });
});
