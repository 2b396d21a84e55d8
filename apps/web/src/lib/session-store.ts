import { create } from 'zustand';
import { MRU_LIST_LENGTH } from '@floorhand/contract/constants';
import type { UserPerms } from '@floorhand/contract/perms';
import type { VisibleFeatures } from '@floorhand/contract/features';
import { useAuthStore, type AuthUser } from './auth-store.ts';

/** The spec's preference sections, and `account`: the person's own choices in My Account (their language). */
export type PrefSection =
  'labor' | 'stockAdjust' | 'stockLookup' | 'stockPack' | 'stockPick' | 'physicalInventory' | 'location' | 'account';

export interface SessionState {
  sessionId: string | null;
  sessionToken: string | null;
  user: AuthUser | null;
  org: { id: string; name: string } | null;
  /** The session's rights: the login account's, or the worker's in a kiosk session. */
  perms: UserPerms | null;
  featureAccess: VisibleFeatures | null;
  taskLoading: boolean;
  taskBtnPins: string[];
  mru: Record<string, string[]>;
  prefs: Partial<Record<PrefSection, Record<string, unknown>>>;
}

interface SessionActions {
  set(p: Partial<SessionState>): void;
  setPref(section: PrefSection, patch: Record<string, unknown>): void;
  pushMru(key: string, value: string): void;
  reset(): void;
}

const initial: SessionState = {
  sessionId: null,
  sessionToken: null,
  user: null,
  org: null,
  perms: null,
  featureAccess: null,
  taskLoading: false,
  taskBtnPins: [],
  mru: {},
  prefs: {},
};

/** Most recent first, without repeats, at most MRU_LIST_LENGTH entries. */
export const withMru = (list: readonly string[], value: string): string[] =>
  [value, ...list.filter((v) => v !== value)].slice(0, MRU_LIST_LENGTH);

export const useSessionStore = create<SessionState & SessionActions>()((set) => ({
  ...initial,
  set: (p) => set(p),
  setPref: (section, patch) => set((s) => ({ prefs: { ...s.prefs, [section]: { ...s.prefs[section], ...patch } } })),
  pushMru: (key, value) => set((s) => ({ mru: { ...s.mru, [key]: withMru(s.mru[key] ?? [], value) } })),
  reset: () => set(initial),
}));

interface PendingRoute {
  path: string | null;
  loginRequired: boolean;
  set(path: string): void;
  clearLoginRequired(): void;
  clear(): void;
}

/** The route wanted before login; after login the user lands there. */
export const usePendingRoute = create<PendingRoute>()((set) => ({
  path: null,
  loginRequired: false,
  set: (path) => set({ path, loginRequired: true }),
  clearLoginRequired: () => set({ loginRequired: false }),
  clear: () => set({ path: null, loginRequired: false }),
}));

/**
 * The person the screens greet and the header names: on a kiosk the worker whose badge opened the
 * session, otherwise the login account as the auth store holds it now (their own edits show at once).
 */
export function useSessionPerson(): AuthUser | null {
  const sessionUser = useSessionStore((s) => s.user);
  const accountUser = useAuthStore((s) => s.user);
  if (sessionUser && accountUser && sessionUser.id !== accountUser.id) return sessionUser;
  return accountUser ?? sessionUser;
}
