/*
 * Who a token is, remembered for a moment. A scanner sends the same token with every scan, and the
 * account, its perms and the token's revocation rarely change; asking the database on every call
 * doubled the round trips of a stock lookup (docs/inventory.md, Speed).
 *
 * - An answer is kept AUTH_CACHE_MS at most, and never past the token's expiry.
 * - Every call that can change what an answer holds (logout, account, perms, API key, role and
 *   feature access changes: `changesAuth`; feature access is remembered with the answer,
 *   lib/features.ts) empties the cache of this node after it finished, and, with Redis, of
 *   every node (modules/realtime/socket.ts). A change made outside those calls (SQL by hand) is seen
 *   within AUTH_CACHE_MS.
 */
import type { AuthContext } from './auth-context.ts';

export const AUTH_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

/** The calls after which the cache is emptied. */
export const changesAuth = (path: string): boolean =>
  path === 'auth/logout' ||
  // A temporary password changed lifts mustChangePassword.
  path === 'account/me/changePassword' ||
  path.startsWith('admin/account/') ||
  path.startsWith('admin/role/') ||
  path === 'admin/featureAccess/put';

export interface AuthCache {
  get(key: string): AuthContext | undefined;
  set(key: string, auth: AuthContext): void;
  /** Empties this node's cache and tells the listeners (the other nodes). */
  clear(): void;
  /** Empties this node's cache only (told by another node). */
  clearLocal(): void;
  onClear(listener: () => void): void;
}

export function createAuthCache(ttlMs = AUTH_CACHE_MS, now: () => number = () => Date.now()): AuthCache {
  const entries = new Map<string, { auth: AuthContext; until: number }>();
  const listeners: Array<() => void> = [];
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.until > now()) return hit.auth;
      entries.delete(key);
      return undefined;
    },
    set(key, auth) {
      if (ttlMs <= 0) return;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, { auth, until: Math.min(now() + ttlMs, auth.claims.exp * 1000) });
    },
    clear() {
      entries.clear();
      for (const l of listeners) l();
    },
    clearLocal: () => entries.clear(),
    onClear: (listener) => void listeners.push(listener),
  };
}
