// A tiny key-value store in IndexedDB (one database, one object store): enough for the persisted
// read cache and the outbox, without a dependency. Every call opens the database lazily and fails soft: a browser
// without IndexedDB (or a private window refusing it) simply keeps nothing.

/** A key-value store in its own IndexedDB database: the read cache's, the outbox's. */
export function idbStore(dbName: string, store = 'cache') {
  let opening: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> => {
    if (!opening) {
      opening = new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(dbName, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(store);
        req.onsuccess = () => {
          const d = req.result;
          // Another tab upgrading the database: this connection gives way and opens again next time.
          d.onversionchange = () => {
            d.close();
            opening = null;
          };
          resolve(d);
        };
        req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
      });
      opening.catch(() => {
        opening = null;
      });
    }
    return opening;
  };
  const run = <T>(mode: IDBTransactionMode, body: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> =>
    db().then(
      (d) =>
        new Promise<T>((resolve, reject) => {
          const tx = d.transaction(store, mode);
          const req = body(tx.objectStore(store));
          // Committed now rather than when the event loop comes back: a page about to go keeps it.
          tx.commit?.();
          tx.oncomplete = () => resolve(req.result);
          tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
          tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
        }),
    );
  return {
    get: <T>(key: string): Promise<T | undefined> => run('readonly', (s) => s.get(key) as IDBRequest<T | undefined>),
    set: (key: string, value: unknown): Promise<unknown> => run('readwrite', (s) => s.put(value, key)),
    del: (key: string): Promise<unknown> => run('readwrite', (s) => s.delete(key)),
    keys: (): Promise<string[]> => run('readonly', (s) => s.getAllKeys() as IDBRequest<string[]>),
    all: <T>(): Promise<T[]> => run('readonly', (s) => s.getAll() as IDBRequest<T[]>),
    /** Closes the connection (tests delete the database between runs). */
    async close(): Promise<void> {
      const d = await opening?.catch(() => null);
      d?.close();
      opening = null;
    },
  };
}

const reads = idbStore('floorhand-reads');
export const idbGet = reads.get;
export const idbSet = reads.set;
export const idbDel = reads.del;
export const idbKeys = reads.keys;
export const idbClose = reads.close;
