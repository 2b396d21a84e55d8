import { idbStore } from '../offline-cache/idb-store.ts';
import type { OutboxItem, OutboxStore } from './replay.ts';

/**
 * The outbox in IndexedDB (its own database, keyed by the idempotency key): it survives a reload, a
 * closed tab and a restarted device, and every tab of the app sees the same items.
 */
export function indexedDbStore(name = 'floorhand-outbox'): OutboxStore {
  const db = idbStore(name, 'items');
  return {
    list: () => db.all<OutboxItem>(),
    put: async (item) => void (await db.set(item.id, item)),
    remove: async (id) => void (await db.del(id)),
  };
}
