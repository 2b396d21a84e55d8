import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { fromUrlSafe, type AuthClaims } from '@floorhand/contract/auth';
import { persistedStorage } from './safe-storage.ts';

export interface AuthUser {
  id: string;
  userName: string;
  firstName: string;
  surnames: string;
}

export interface LastAcct {
  orgName: string;
  userId: string;
  userName: string;
  userFullName: string;
}

interface AuthSettings {
  authToken: string | null;
  humanToken: string | null;
  lastAcct: LastAcct | null;
  stayLoggedIn: boolean;
  org: { id: string; name: string } | null;
  user: AuthUser | null;
  /** The password was set by an admin: My account first (kept over reloads until it is changed). */
  mustChangePassword?: boolean;
}

interface AuthActions {
  setLogin(p: { authToken: string; org: { id: string; name: string }; user: AuthUser; stayLoggedIn: boolean }): void;
  setToken(authToken: string): void;
  setHumanToken(humanToken: string | null): void;
  setMustChangePassword(must: boolean): void;
  clear(): void;
}

export const fullName = (u: Pick<AuthUser, 'firstName' | 'surnames'>): string => [u.firstName, u.surnames].filter(Boolean).join(' ');
export const addressee = (u: Pick<AuthUser, 'firstName' | 'surnames'>): string => u.firstName || u.surnames;

/** Decodes the token's payload: '!' back to '.', then base64url JSON. Undefined when malformed. */
export function decodeToken(token: string | null | undefined): AuthClaims | undefined {
  if (!token) return undefined;
  const part = fromUrlSafe(token).split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(part.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as AuthClaims;
  } catch {
    return undefined;
  }
}

const initial: AuthSettings = { authToken: null, humanToken: null, lastAcct: null, stayLoggedIn: false, org: null, user: null };

export const useAuthStore = create<AuthSettings & AuthActions>()(
  persist(
    (set) => ({
      ...initial,
      setLogin: ({ authToken, org, user, stayLoggedIn }) =>
        set({
          authToken,
          org,
          user,
          stayLoggedIn,
          lastAcct: { orgName: org.name, userId: user.id, userName: user.userName, userFullName: fullName(user) },
        }),
      setToken: (authToken) => set({ authToken }),
      setHumanToken: (humanToken) => set({ humanToken }),
      setMustChangePassword: (mustChangePassword) => set({ mustChangePassword }),
      // Logout keeps what the landing page remembers: the last account and the stay-logged-in choice.
      clear: () => set({ authToken: null, humanToken: null, org: null, user: null, mustChangePassword: false }),
    }),
    { name: 'auth_settings', storage: persistedStorage },
  ),
);

/** Authenticated: a token is present, org and user are set, and the expiry has not passed. */
export function isAuthenticated(
  s: Pick<AuthSettings, 'authToken' | 'org' | 'user'> = useAuthStore.getState(),
  nowMs = Date.now(),
): boolean {
  const claims = decodeToken(s.authToken);
  return !!claims && !!s.org && !!s.user && claims.exp * 1000 > nowMs;
}

export const currentClaims = (): AuthClaims | undefined => decodeToken(useAuthStore.getState().authToken);
