import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../auth-store.ts';
import { useConnection } from './connection.ts';
import { indexedDbStore } from './outbox-db.ts';
import { enqueue, replayOutbox, sendOrQueue, setOutboxStore, useOutbox } from './outbox.ts';

const args = (n: number) =>
  ({ idempotencyKey: `adjust-key-${n}`, stockId: 'S000000085', kind: 'set' as const, qty: n, reason: 'Count', _rev: 1 }) as never;

describe('the outbox (issue 27)', () => {
  let bodies: Record<string, unknown>[];
  let reachable: boolean;
  beforeEach(async () => {
    bodies = [];
    reachable = true;
    setOutboxStore(indexedDbStore(`test-${Math.random()}`));
    useConnection.setState({ state: 'online' });
    useAuthStore.setState({
      authToken: 'token-anna',
      user: { id: 'anna', userName: 'anna', firstName: 'Anna', surnames: 'Ruiz' },
      org: { id: 'org1', name: 'Org' } as never,
    });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      if (!reachable) throw new TypeError('Failed to fetch');
      if (String(url).endsWith('/api/health')) return new Response('{"ok":true}', { status: 200 });
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends straight to the server when it answers', async () => {
    const sent = await sendOrQueue('stock/adjust', args(1), { label: 'Adjust S000000085 to 1' });
    expect(sent.queued).toBe(false);
    expect(bodies).toHaveLength(1);
    expect(useOutbox.getState().items).toEqual([]);
  });

  it('queues a write the server cannot be reached for, durably, with its key, person and device time, and replays it once', async () => {
    reachable = false;
    const sent = await sendOrQueue('stock/adjust', args(2), { label: 'Adjust S000000085 to 2' });
    expect(sent.queued).toBe(true);
    expect(useConnection.getState().state).not.toBe('online');
    const [item] = useOutbox.getState().items;
    expect(item).toMatchObject({
      id: 'adjust-key-2',
      path: 'stock/adjust',
      state: 'queued',
      person: { accountId: 'anna', name: 'Anna Ruiz' },
      auth: { authToken: 'token-anna', orgId: 'org1' },
    });
    expect(Date.parse(item!.deviceTime)).toBeGreaterThan(Date.now() - 5_000);
    // While it cannot be reached, the next write queues behind it without trying.
    const next = await sendOrQueue('stock/adjust', args(3), { label: 'Adjust S000000085 to 3' });
    expect(next.queued).toBe(true);
    reachable = true;
    // Two replays at once (two tabs, a reconnect and the periodic try): each item is sent once.
    await Promise.all([replayOutbox(), replayOutbox()]);
    expect(bodies.map((b) => b.idempotencyKey)).toEqual(['adjust-key-2', 'adjust-key-3']);
    expect(useOutbox.getState().items).toEqual([]);
  });

  it('sends what is queued before a new write, so the server gets them in the order they were made', async () => {
    await enqueue('stock/adjust', args(4), 'Adjust 4');
    const sent = await sendOrQueue('stock/adjust', args(5), { label: 'Adjust 5' });
    expect(sent.queued).toBe(false);
    expect(bodies.map((b) => b.idempotencyKey)).toEqual(['adjust-key-4', 'adjust-key-5']);
  });

  it('keeps the items in IndexedDB: a new page (another store on the same database) sees them', async () => {
    const name = `test-keep-${Math.random()}`;
    setOutboxStore(indexedDbStore(name));
    reachable = false;
    useConnection.setState({ state: 'offline' });
    await enqueue('stock/adjust', args(6), 'Adjust 6');
    expect(await indexedDbStore(name).list()).toMatchObject([{ id: 'adjust-key-6', state: 'queued' }]);
  });
});
