import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';

// The read cache against fake-indexeddb: each person's copy is theirs, and forgetPerson deletes it.
vi.mock('../api.ts', () => ({
  call: vi.fn(),
  setLogoutHandler: () => undefined,
  setKioskEndedHandler: () => undefined,
  apiBase: () => '',
  ApiError: class extends Error {},
}));
vi.mock('../socket.ts', () => ({
  createRealtime: () => ({ on: () => undefined, connect: () => undefined, disconnect: () => undefined, subscribe: () => undefined }),
}));

const { forgetPerson } = await import('../session.ts');
const { useAuthStore } = await import('../auth-store.ts');
const { useSessionStore } = await import('../session-store.ts');
const { idbClose, idbKeys } = await import('./idb-store.ts');
const { startReadCache, currentPersonKey, queriesToKeep, LOOKUPS_KEPT, MAX_AGE_MS } = await import('./read-cache.ts');
const { useToCheckStore } = await import('./to-check.ts');

const org = { id: 'demo', name: 'Demo' };
const user = (id: string) => ({ id, firstName: id, surnames: 'X' }) as never;
const signIn = (id: string) => useAuthStore.setState({ authToken: 't', humanToken: null, user: user(id), org });
/** A kiosk account with a worker's session on it. */
const kioskWorker = (worker: string) => {
  useAuthStore.setState({ authToken: 't', humanToken: 'h', user: user('kiosk'), org });
  useSessionStore.setState({ user: user(worker) });
};

const order = { order: { number: 'O-1' }, lines: [{ part: 'P-1', qty: 3 }] };
let clients: { qc: QueryClient; stop(): void }[] = [];

/** A fresh app (a reload): a new query client with the read cache started, restored. */
async function app() {
  const qc = new QueryClient();
  const cache = startReadCache(qc);
  clients.push({ qc, stop: cache.stop });
  await cache.ready;
  return { qc, cache };
}

beforeEach(() => {
  useAuthStore.setState({ authToken: null, humanToken: null, user: null, org: null });
  useSessionStore.getState().reset();
  useToCheckStore.setState({ values: [] });
});
afterEach(async () => {
  for (const c of clients) c.stop();
  clients = [];
  await idbClose();
  await new Promise<void>((r) => {
    const req = indexedDB.deleteDatabase('floorhand-reads');
    req.onsuccess = req.onerror = () => r();
  });
});

describe('read cache', () => {
  it('restores a person’s work-area answers after a reload, and never administration', async () => {
    signIn('ann');
    const first = await app();
    first.qc.setQueryData(['picking', 'order', 'O-1'], order);
    first.qc.setQueryData(['picking', 'orders', {}], { orders: ['admin'] });
    await first.cache.flush();
    first.cache.stop();

    const again = await app();
    expect(again.qc.getQueryData(['picking', 'order', 'O-1'])).toEqual(order);
    expect(again.qc.getQueryState(['picking', 'order', 'O-1'])?.dataUpdatedAt).toBe(
      first.qc.getQueryState(['picking', 'order', 'O-1'])?.dataUpdatedAt,
    );
    expect(again.qc.getQueryData(['picking', 'orders', {}])).toBeUndefined();
  });

  it('is keyed by person: another account never restores it', async () => {
    signIn('ann');
    const first = await app();
    first.qc.setQueryData(['labor', 'current'], { tasks: ['ann’s'] });
    await first.cache.flush();
    first.cache.stop();

    signIn('bob');
    const other = await app();
    expect(other.qc.getQueryData(['labor', 'current'])).toBeUndefined();
    // Only one person's copy is kept on a device: Ann's went when Bob's was restored.
    expect(await idbKeys()).not.toContain('reads:demo/ann');
  });

  it('is deleted by forgetPerson (the session ends), so the same person does not get it back either', async () => {
    signIn('ann');
    const first = await app();
    first.qc.setQueryData(['counts', 'sheet', 'S1', null], { locations: [{ code: 'A-1' }] });
    useToCheckStore.getState().add('S000000085');
    await first.cache.flush();
    expect(await idbKeys()).toContain('reads:demo/ann');

    forgetPerson();
    first.qc.clear();
    await first.cache.flush();
    expect(await idbKeys()).not.toContain('reads:demo/ann');
    expect(useToCheckStore.getState().values).toEqual([]);
    first.cache.stop();

    const again = await app();
    expect(again.qc.getQueryData(['counts', 'sheet', 'S1', null])).toBeUndefined();
  });

  it('writes a save still waiting when the page goes (a reload right after an answer keeps it)', async () => {
    signIn('ann');
    const first = await app();
    first.qc.setQueryData(['inventory', 'lookup', { value: 'P-1' }], { rowCount: 1 });
    // The page goes before the save's delay is up; stop() then drops the timer, so only the
    // pagehide write can keep the answer.
    window.dispatchEvent(new Event('pagehide'));
    first.cache.stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(await idbKeys()).toContain('reads:demo/ann');
    const again = await app();
    expect(again.qc.getQueryData(['inventory', 'lookup', { value: 'P-1' }])).toEqual({ rowCount: 1 });
  });

  it('keeps two workers on one kiosk apart: the second never sees the first’s copy', async () => {
    kioskWorker('ann');
    expect(currentPersonKey()).toBe('demo/kiosk/ann');
    const first = await app();
    first.qc.setQueryData(['inventory', 'lookup', { value: 'P-1' }], { rowCount: 1 });
    useToCheckStore.getState().add('X-9');
    await first.cache.flush();

    // Ann's session ends the way closeKioskSession ends it; then Bob's badge opens his.
    useAuthStore.setState({ humanToken: null });
    useSessionStore.setState({ user: user('kiosk') });
    forgetPerson();
    first.qc.clear();
    useAuthStore.setState({ humanToken: 'h2' });
    expect(currentPersonKey()).toBeNull();
    kioskWorker('bob');
    await new Promise((r) => setTimeout(r, 50));
    await first.cache.ready;
    await first.cache.flush();
    expect(first.qc.getQueryData(['inventory', 'lookup', { value: 'P-1' }])).toBeUndefined();
    expect(useToCheckStore.getState().values).toEqual([]);
    expect((await idbKeys()).filter((k) => k.includes('ann'))).toEqual([]);
    first.cache.stop();

    const reload = await app();
    expect(reload.qc.getQueryData(['inventory', 'lookup', { value: 'P-1' }])).toBeUndefined();
  });

  it('restores the to-check list with the person’s answers', async () => {
    signIn('ann');
    const first = await app();
    useToCheckStore.getState().add('S000000085');
    await first.cache.flush();
    first.cache.stop();
    useToCheckStore.setState({ values: [] });
    await app();
    expect(useToCheckStore.getState().values).toEqual(['S000000085']);
  });

  it('keeps the newest lookups only and nothing older than a day', () => {
    const qc = new QueryClient();
    const now = Date.now();
    for (let i = 0; i < LOOKUPS_KEPT + 5; i++)
      qc.setQueryData(['inventory', 'lookup', { value: `V${i}` }], { i }, { updatedAt: now - i * 1000 });
    qc.setQueryData(['labor', 'current'], {}, { updatedAt: now - MAX_AGE_MS - 1 });
    const keep = queriesToKeep(qc.getQueryCache().getAll(), now);
    expect(keep.size).toBe(LOOKUPS_KEPT);
    expect(keep.has(qc.getQueryCache().find({ queryKey: ['inventory', 'lookup', { value: 'V0' }] })!.queryHash)).toBe(true);
    expect(keep.has(qc.getQueryCache().find({ queryKey: ['inventory', 'lookup', { value: `V${LOOKUPS_KEPT}` }] })!.queryHash)).toBe(false);
  });
});
