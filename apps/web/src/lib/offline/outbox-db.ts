import type { OutboxItem, OutboxStore } from './replay.ts';

/**
 * The outbox in IndexedDB (one object store, keyed by the idempotency key): it survives a reload, a
 * closed tab and a restarted device, and every tab of the app sees the same items.
 */
export function indexedDbStore(name = 'floorhand-outbox'): OutboxStore {
  let opened: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> =>
    (opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('items', { keyPath: 'id' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        opened = null;
        reject(req.error ?? new Error('IndexedDB cannot be opened'));
      };
    }));
  const tx = async <T>(mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> => {
    const d = await db();
    return new Promise<T | undefined>((resolve, reject) => {
      const t = d.transaction('items', mode);
      const req = work(t.objectStore('items'));
      t.oncomplete = () => resolve(req ? req.result : undefined);
      t.onerror = () => reject(t.error ?? new Error('IndexedDB write failed'));
      t.onabort = () => reject(t.error ?? new Error('IndexedDB write aborted'));
    });
  };
  return {
    list: async () => ((await tx<OutboxItem[]>('readonly', (s) => s.getAll() as IDBRequest<OutboxItem[]>)) ?? []),
    put: async (item) => void (await tx('readwrite', (s) => void s.put(item))),
    remove: async (id) => void (await tx('readwrite', (s) => void s.delete(id))),
  };
}
