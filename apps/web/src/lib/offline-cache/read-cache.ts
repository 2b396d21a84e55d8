import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useAuthStore } from '../auth-store.ts';
import { onPersonEnds } from '../session.ts';
import { useSessionStore } from '../session-store.ts';
import { idbDel, idbGet, idbKeys, idbSet } from './idb-store.ts';
import { useToCheckStore } from './to-check.ts';

// The read cache (issue 27 item 4): what a worker is in the middle of stays readable offline, and
// after an offline reload. The answers of the work areas' queries named below are copied to
// IndexedDB under the person they belong to (the login account, and on a kiosk the worker whose
// badge opened the session), restored when that person's session is there again, and deleted when
// it ends (forgetPerson). Only one person's copy is kept: restoring a person deletes every other
// person's. Nothing older than a day is restored. Administration is never copied.

/** The query key prefixes copied: the open pick order and its lines, the count sheet, the running tasks, the lookups, the pack board. */
export const PERSISTED_KEYS: readonly QueryKey[] = [
  ['picking', 'order'],
  ['counts', 'sheet'],
  ['labor', 'current'],
  ['inventory', 'lookup'],
  ['shipping', 'board'],
  ['shipping', 'order'],
];
export const LOOKUP_KEY: QueryKey = ['inventory', 'lookup'];
/** How many lookups are kept (the newest). */
export const LOOKUPS_KEPT = 20;
export const MAX_AGE_MS = 24 * 60 * 60_000;
const ENTRY_PREFIX = 'reads:';
// Short: a worker may reload or leave at once, and a write begun as the page goes is not kept.
const SAVE_DELAY_MS = 50;
const FORMAT = 1;

interface Entry {
  format: number;
  savedAt: number;
  state: DehydratedState;
  toCheck: string[];
}

const startsWith = (key: QueryKey, prefix: QueryKey): boolean => prefix.every((p, i) => key[i] === p);
export const isPersistedKey = (key: QueryKey): boolean => PERSISTED_KEYS.some((p) => startsWith(key, p));

/**
 * Whose cache this is: the org, the login account and, on a kiosk, the worker; null while a kiosk's
 * worker is not known yet (the human token came, the worker's session not yet), so nothing is read
 * or written then.
 */
export function currentPersonKey(): string | null {
  const { user, org, humanToken } = useAuthStore.getState();
  if (!user || !org) return null;
  if (!humanToken) return `${org.id}/${user.id}`;
  const worker = useSessionStore.getState().user;
  if (!worker || worker.id === user.id) return null;
  return `${org.id}/${user.id}/${worker.id}`;
}

/** The queries copied: a person's answered work-area queries of the last day, the newest lookups only. */
export function queriesToKeep(queries: readonly Query[], now = Date.now()): Set<string> {
  // An answer whose refetch failed (no connection) is still the last answer: it is kept.
  const fresh = queries.filter((q) => q.state.data !== undefined && isPersistedKey(q.queryKey) && now - q.state.dataUpdatedAt < MAX_AGE_MS);
  const lookups = fresh.filter((q) => startsWith(q.queryKey, LOOKUP_KEY)).sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  const dropped = new Set(lookups.slice(LOOKUPS_KEPT));
  return new Set(fresh.filter((q) => !dropped.has(q)).map((q) => q.queryHash));
}

export interface ReadCache {
  /** Restores the current person's copy (the app awaits it before its first page). */
  ready: Promise<void>;
  /** Writes the copy now (tests; a pending save). */
  flush(): Promise<void>;
  stop(): void;
}

export function startReadCache(qc: QueryClient): ReadCache {
  // The person whose copy the cache in memory is, once restored; writes only go there.
  let active: string | null = null;
  let restored = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<unknown> = Promise.resolve();
  let ready: Promise<void> = Promise.resolve();

  // Restored answers outlive the 5 minutes an unwatched query is kept: they are the worker's history.
  for (const key of PERSISTED_KEYS) qc.setQueryDefaults(key, { gcTime: MAX_AGE_MS });

  const save = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    const person = active;
    if (!person || !restored || person !== currentPersonKey()) return writing.then(() => undefined);
    const keep = queriesToKeep(qc.getQueryCache().getAll());
    const state = dehydrate(qc, { shouldDehydrateQuery: (q) => keep.has(q.queryHash), shouldDehydrateMutation: () => false });
    const entry: Entry = {
      format: FORMAT,
      savedAt: Date.now(),
      // The answer only: a failed refetch's error is this moment's, not something to restore.
      state: {
        mutations: [],
        queries: state.queries.map((q) => ({
          ...q,
          state: { ...q.state, status: 'success', fetchStatus: 'idle', error: null, fetchFailureReason: null, fetchFailureCount: 0 },
        })),
      },
      toCheck: useToCheckStore.getState().values,
    };
    writing = writing.then(() => idbSet(ENTRY_PREFIX + person, entry)).catch(() => undefined);
    return writing.then(() => undefined);
  };
  const schedule = () => {
    if (!active || !restored || timer) return;
    timer = setTimeout(() => void save(), SAVE_DELAY_MS);
  };

  const restore = async (person: string): Promise<void> => {
    try {
      const keys = await idbKeys();
      // One person's copy at a time on a device: any other's goes.
      await Promise.all(keys.filter((k) => k.startsWith(ENTRY_PREFIX) && k !== ENTRY_PREFIX + person).map((k) => idbDel(k)));
      const entry = await idbGet<Entry>(ENTRY_PREFIX + person);
      if (active !== person) return;
      if (entry && entry.format === FORMAT && Date.now() - entry.savedAt < MAX_AGE_MS) {
        const now = Date.now();
        const queries = entry.state.queries.filter((q) => isPersistedKey(q.queryKey) && now - q.state.dataUpdatedAt < MAX_AGE_MS);
        hydrate(qc, { mutations: [], queries });
        // What was kept is shown at once but is old: each is fetched again as its screen opens (online),
        // so a reload never shows a kept answer as the server's latest.
        const kept = new Set(queries.map((q) => q.queryHash));
        void qc.invalidateQueries({ predicate: (q) => kept.has(q.queryHash), refetchType: 'none' });
        for (const v of entry.toCheck ?? []) useToCheckStore.getState().add(v);
      } else if (entry) await idbDel(ENTRY_PREFIX + person);
    } catch {
      /* no IndexedDB: nothing kept */
    }
    if (active === person) restored = true;
  };

  /** The person of the session changed: another person's cache is never read or written. */
  const sync = () => {
    const person = currentPersonKey();
    if (person === active) return;
    if (timer) clearTimeout(timer);
    timer = null;
    restored = false;
    if (active && person) {
      // One person to another without their session ending first: the first's copy goes, and the
      // cache in memory (still the first's) is written for nobody until forgetPerson clears it.
      void idbDel(ENTRY_PREFIX + active).catch(() => undefined);
      active = null;
      return;
    }
    active = person;
    if (person) ready = restore(person);
  };

  const unsubCache = qc.getQueryCache().subscribe((e) => {
    if (e.type === 'added' || e.type === 'removed' || (e.type === 'updated' && e.action.type === 'success')) {
      if (isPersistedKey(e.query.queryKey)) schedule();
    }
  });
  const unsubCheck = useToCheckStore.subscribe(schedule);
  // A save still waiting is written when the page goes (a reload, a link, the tab closed or hidden):
  // an order opened and left within the delay was otherwise never kept (seen on a busy CI machine).
  const onHide = (e: Event) => {
    if (timer && (e.type === 'pagehide' || document.visibilityState === 'hidden')) void save();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onHide);
  const unsubAuth = useAuthStore.subscribe(sync);
  const unsubSession = useSessionStore.subscribe(sync);
  const unsubEnds = onPersonEnds(() => {
    if (timer) clearTimeout(timer);
    timer = null;
    const ended = active;
    active = null;
    restored = false;
    useToCheckStore.setState({ values: [] });
    if (ended) writing = writing.then(() => idbDel(ENTRY_PREFIX + ended)).catch(() => undefined);
    // The next person (if the stores name one already) once the cache has been cleared.
    queueMicrotask(sync);
  });
  sync();

  return {
    get ready() {
      return ready;
    },
    flush: save,
    stop: () => {
      if (timer) clearTimeout(timer);
      unsubCache();
      unsubCheck();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      unsubAuth();
      unsubSession();
      unsubEnds();
    },
  };
}
