import { describe, expect, it } from 'vitest';
import { OUTBOX_MAX_FAULTS } from '@floorhand/contract/offline';
import { memoryStore, replayItems, type OutboxItem } from './replay.ts';

const item = (n: number, over: Partial<OutboxItem> = {}): OutboxItem => ({
  id: `key-000${n}`,
  seq: n,
  path: 'stock/adjust',
  args: { idempotencyKey: `key-000${n}`, stockId: `S${n}` },
  label: `Adjust S${n}`,
  person: { accountId: 'anna', name: 'Anna' },
  auth: { authToken: 't-anna', humanToken: null, orgId: 'o', siteId: 's' },
  deviceTime: '2026-11-28T10:00:00.000Z',
  state: 'queued',
  faults: 0,
  ...over,
});

async function storeOf(...items: OutboxItem[]) {
  const store = memoryStore();
  for (const i of items) await store.put(i);
  return store;
}

describe('outbox replay (issue 27)', () => {
  it('sends every queued item once, in the order taken, and keeps none that the server took', async () => {
    const store = await storeOf(item(3), item(1), item(2));
    const sent: string[] = [];
    const res = await replayItems(store, async (i) => (sent.push(i.id), { status: 200, json: { ok: true } }), { person: () => 'anna' });
    expect(sent).toEqual(['key-0001', 'key-0002', 'key-0003']);
    expect(res).toEqual({ sent: 3, refused: 0, stopped: false });
    expect(await store.list()).toEqual([]);
  });

  it('keeps a refused item with its reason and goes on with the ones behind it', async () => {
    const store = await storeOf(item(1), item(2), item(3));
    const res = await replayItems(
      store,
      async (i) =>
        i.id === 'key-0002'
          ? { status: 409, json: { err: { code: 'ERR_CONFLICT', message: 'The record changed' } } }
          : { status: 200, json: {} },
      { person: () => 'anna' },
    );
    expect(res).toEqual({ sent: 2, refused: 1, stopped: false });
    const left = await store.list();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: 'key-0002', state: 'refused', error: { code: 'ERR_CONFLICT' } });
    // A refused item is not sent again by the next replay.
    const again: string[] = [];
    await replayItems(store, async (i) => (again.push(i.id), { status: 200, json: {} }), { person: () => 'anna' });
    expect(again).toEqual([]);
  });

  it('stops at the first item the server cannot be reached for and keeps it and the rest, in order', async () => {
    for (const status of [0, 502, 503, 504, 429]) {
      const store = await storeOf(item(1), item(2), item(3));
      const sent: string[] = [];
      const res = await replayItems(
        store,
        async (i) => (sent.push(i.id), i.id === 'key-0002' ? { status, json: {} } : { status: 200, json: {} }),
        { person: () => 'anna' },
      );
      expect(res.stopped).toBe(true);
      expect(sent).toEqual(['key-0001', 'key-0002']);
      expect((await store.list()).map((i) => [i.id, i.state])).toEqual([
        ['key-0002', 'queued'],
        ['key-0003', 'queued'],
      ]);
    }
  });

  it('treats a thrown send (fetch failed) as unreachable', async () => {
    const store = await storeOf(item(1));
    const res = await replayItems(store, async () => Promise.reject(new TypeError('Failed to fetch')), { person: () => 'anna' });
    expect(res.stopped).toBe(true);
    expect(await store.list()).toHaveLength(1);
  });

  it('holds an item whose person must sign in again, without holding the others, and sends it once they have', async () => {
    const store = await storeOf(item(1), item(2, { person: { accountId: 'ben', name: 'Ben' } }));
    const res = await replayItems(
      store,
      async (i) =>
        i.person.accountId === 'anna'
          ? { status: 401, json: { err: { code: 'ERR_BAD_TOKEN', message: 'bad token' } } }
          : { status: 200, json: {} },
      { person: () => 'ben' },
    );
    expect(res.sent).toBe(1);
    expect((await store.list()).map((i) => [i.id, i.state])).toEqual([['key-0001', 'signIn']]);
    // Ben is still the one signed in: Anna's item waits.
    const sent: string[] = [];
    await replayItems(store, async (i) => (sent.push(i.id), { status: 200, json: {} }), { person: () => 'ben' });
    expect(sent).toEqual([]);
    // Anna signs in again: it goes.
    await replayItems(store, async (i) => (sent.push(i.id), { status: 200, json: {} }), { person: () => 'anna' });
    expect(sent).toEqual(['key-0001']);
    expect(await store.list()).toEqual([]);
  });

  it('sets aside an item the server faults on, after a few tries, so it cannot hold the queue for ever', async () => {
    const store = await storeOf(item(1), item(2));
    const fault = async (i: OutboxItem) =>
      i.id === 'key-0001' ? { status: 500, json: { err: { code: 'DB_ERR', message: 'boom' } } } : { status: 200, json: {} };
    for (let n = 1; n < OUTBOX_MAX_FAULTS; n++) {
      const res = await replayItems(store, fault, { person: () => 'anna' });
      expect(res.stopped).toBe(true);
      expect((await store.list()).map((i) => i.id)).toEqual(['key-0001', 'key-0002']);
    }
    const res = await replayItems(store, fault, { person: () => 'anna' });
    expect(res).toEqual({ sent: 1, refused: 1, stopped: false });
    expect(await store.list()).toMatchObject([{ id: 'key-0001', state: 'refused', faults: OUTBOX_MAX_FAULTS }]);
  });
});
