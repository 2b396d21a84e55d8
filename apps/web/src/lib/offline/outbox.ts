import { create } from 'zustand';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { isUnreachable, type OfflineCall } from '@floorhand/contract/offline';
import { ApiError, call, post } from '../api.ts';
import { useAuthStore } from '../auth-store.ts';
import { useSessionStore } from '../session-store.ts';
import { useSiteStore } from '../site-store.ts';
import { onServerReached, reportUnreachable, useConnection } from './connection.ts';
import { indexedDbStore } from './outbox-db.ts';
import { replayItems, type OutboxItem, type OutboxStore } from './replay.ts';

// The device's outbox (issue 27): floor writes taken while the server cannot be reached, kept in
// IndexedDB with their idempotency keys and who did them, replayed in order as soon as the server
// answers. One tab replays at a time (a Web Lock); the server's idempotency keys make any second
// sending (two tabs, a reload mid-replay, a lost answer) answer what it stored.

let store: OutboxStore = indexedDbStore();
/** Tests put a memory store here. */
export const setOutboxStore = (s: OutboxStore): void => {
  store = s;
  void refresh();
};

/** What the header and the outbox list show: every item on the device (tabs share them). */
export const useOutbox = create<{ items: OutboxItem[] }>()(() => ({ items: [] }));

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('floorhand-outbox');
channel?.addEventListener('message', () => void refresh(false));

async function refresh(tell = true): Promise<void> {
  const items = (await store.list().catch(() => [])).sort((a, b) => a.seq - b.seq);
  useOutbox.setState({ items });
  if (tell) channel?.postMessage('changed');
}

/** The person acting now: the worker on a kiosk, else the account. */
export const currentPersonId = (): string | null => useSessionStore.getState().user?.id ?? useAuthStore.getState().user?.id ?? null;

const doneListeners = new Set<(item: OutboxItem, answer: Record<string, unknown>) => void>();
/** A replayed item the server took (screens refresh what it changed). */
export function onReplayed(fn: (item: OutboxItem, answer: Record<string, unknown>) => void): () => void {
  doneListeners.add(fn);
  return () => doneListeners.delete(fn);
}

/**
 * Sends an item as its person: the session's tokens when that person holds it now, else the ones it
 * was taken with. A picture taken with it goes first; its media id is kept with the item, so a second
 * try does not upload it again.
 */
async function sendItem(item: OutboxItem): Promise<{ status: number; json: Record<string, unknown> }> {
  const now = currentPersonId() === item.person.accountId;
  const opts = now
    ? { siteId: item.auth.siteId, orgId: item.auth.orgId }
    : { authToken: item.auth.authToken ?? '', humanToken: item.auth.humanToken, siteId: item.auth.siteId, orgId: item.auth.orgId };
  if (item.upload && item.args[item.upload.arg] === undefined) {
    const up = await post('media/upload', { dataUrl: item.upload.dataUrl, purpose: item.upload.purpose }, opts);
    const mediaId = (up.json as { mediaId?: string }).mediaId;
    if (!mediaId) return up;
    item.args = { ...item.args, [item.upload.arg]: mediaId };
    await store.put(item);
  }
  return post(item.path, item.args as CallArgs<OfflineCall>, opts);
}

let running: Promise<void> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** Replays what is queued, once at a time on this device (a Web Lock across tabs). */
export function replayOutbox(): Promise<void> {
  running ??= (async () => {
    try {
      const run = async (): Promise<void> => {
        const res = await replayItems(store, sendItem, {
          person: currentPersonId,
          onDone: (item, answer) => doneListeners.forEach((fn) => fn(item, answer)),
          onChange: () => void refresh(),
        });
        if (res.stopped) scheduleRetry();
      };
      if (typeof navigator !== 'undefined' && navigator.locks) await navigator.locks.request('floorhand-outbox', run);
      else await run();
    } finally {
      running = null;
      await refresh();
    }
  })();
  return running;
}

/** While something waits, the outbox tries again now and then even if nothing else happens. */
function scheduleRetry(): void {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    if (useOutbox.getState().items.some((i) => i.state === 'queued')) void replayOutbox();
  }, 10_000);
}

let seqLast = 0;
const nextSeq = (): number => (seqLast = Math.max(seqLast + 1, Date.now() * 1000));

/** Keeps a write in the outbox, durably, before the screen says "queued". */
export async function enqueue<P extends OfflineCall>(
  path: P,
  args: CallArgs<P>,
  label: string,
  upload?: OutboxItem['upload'],
): Promise<OutboxItem> {
  const auth = useAuthStore.getState();
  const session = useSessionStore.getState();
  const person = session.user ?? auth.user;
  const key = (args as { idempotencyKey?: string }).idempotencyKey ?? crypto.randomUUID();
  const item: OutboxItem = {
    id: key,
    seq: nextSeq(),
    path,
    args: args as Record<string, unknown>,
    label,
    person: {
      accountId: person?.id ?? '',
      name: person ? [person.firstName, person.surnames].filter(Boolean).join(' ') || person.userName : '',
    },
    auth: {
      authToken: auth.authToken,
      humanToken: auth.humanToken,
      orgId: auth.org?.id ?? '',
      siteId: useSiteStore.getState().siteId ?? '',
    },
    deviceTime: new Date().toISOString(),
    state: 'queued',
    faults: 0,
    ...(upload ? { upload } : {}),
  };
  await store.put(item);
  await refresh();
  scheduleRetry();
  return item;
}

export type Sent<P extends OfflineCall> = { queued: false; res: CallResponse<P> } | { queued: true; item: OutboxItem };

/**
 * The way a floor write is sent (issue 27): straight to the server when it answers, after what is
 * already queued (so writes reach it in the order they were made); into the outbox when it cannot be
 * reached, before or during the request (the same idempotency key: if the lost request did arrive,
 * the replay is answered with what it stored). A refusal is thrown as `call` throws it.
 */
export async function sendOrQueue<P extends OfflineCall>(
  path: P,
  args: CallArgs<P>,
  meta: { label: string; suppress?: RegExp },
): Promise<Sent<P>> {
  if (useConnection.getState().state === 'online' && useOutbox.getState().items.some((i) => i.state === 'queued')) await replayOutbox();
  const waiting = useOutbox.getState().items.some((i) => i.state === 'queued');
  if (useConnection.getState().state !== 'online' || waiting) return { queued: true, item: await enqueue(path, args, meta.label) };
  try {
    return {
      queued: false,
      res: await call(path, args, { quietUnreachable: true, ...(meta.suppress ? { suppress: meta.suppress } : {}) }),
    };
  } catch (e) {
    if (e instanceof ApiError && isUnreachable(e.status)) {
      reportUnreachable();
      return { queued: true, item: await enqueue(path, args, meta.label) };
    }
    throw e;
  }
}

/** Removes a refused item the worker has read. */
export async function dismissItem(id: string): Promise<void> {
  await store.remove(id);
  await refresh();
}

/** Starts the outbox: its items, a replay whenever the server answers again, and one now. */
export function startOutbox(): () => void {
  void refresh(false).then(() => replayOutbox());
  return onServerReached(() => void replayOutbox());
}
