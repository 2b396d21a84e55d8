// A tiny key-value store in IndexedDB (one database, one object store): enough for the persisted
// read cache, without a dependency. Every call opens the database lazily and fails soft: a browser
// without IndexedDB (or a private window refusing it) simply keeps nothing.

const DB_NAME = 'floorhand-reads';
const STORE = 'cache';

let opening: Promise<IDBDatabase> | null = null;

function db(): Promise<IDBDatabase> {
  if (!opening) {
    opening = new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
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
}

function run<T>(mode: IDBTransactionMode, body: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return db().then(
    (d) =>
      new Promise<T>((resolve, reject) => {
        const tx = d.transaction(STORE, mode);
        const req = body(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
      }),
  );
}

export const idbGet = <T>(key: string): Promise<T | undefined> => run('readonly', (s) => s.get(key) as IDBRequest<T | undefined>);
export const idbSet = (key: string, value: unknown): Promise<unknown> => run('readwrite', (s) => s.put(value, key));
export const idbDel = (key: string): Promise<unknown> => run('readwrite', (s) => s.delete(key));
export const idbKeys = (): Promise<string[]> => run('readonly', (s) => s.getAllKeys() as IDBRequest<string[]>);

/** Closes the connection (tests delete the database between runs). */
export async function idbClose(): Promise<void> {
  const d = await opening?.catch(() => null);
  d?.close();
  opening = null;
}
