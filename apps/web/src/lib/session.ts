import { isAdmin } from '@floorhand/contract/perms';
import type { UserPerms } from '@floorhand/contract/perms';
import { LOGGED_OUT_DIALOG_DELAY_MS } from '@floorhand/contract/constants';
import type { Printer } from '@floorhand/contract/realtime';
import { dialogs, useDialogStore } from '../components/dialogs/dialog-store.ts';
import { ApiError, call, setLogoutHandler } from './api.ts';
import { isUnreachable } from '@floorhand/contract/offline';
import { setKioskEndedHandler } from './api.ts';
import { currentClaims, useAuthStore, type AuthUser } from './auth-store.ts';
import { useMachineStore } from './machine-store.ts';
import { usePendingRoute, useSessionStore } from './session-store.ts';
import { useSiteStore } from './site-store.ts';
import { createRealtime } from './socket.ts';
import { createTokenTimers } from './token-timers.ts';
import { onServerReached } from './offline/connection.ts';
import { create } from 'zustand';

// Login, logout and the session (spec section 4), in one place.

export const realtime = createRealtime(() => useAuthStore.getState().authToken);

export const usePrinterStore = create<{ printers: Printer[] }>()(() => ({ printers: [] }));
realtime.on('attachedPrinters', (d) => usePrinterStore.setState({ printers: d.printers }));
// Roles or feature access changed on the site: the token is renewed, so it carries the account's
// roles as they are now (menus and guards read them), and the session starts again with them.
realtime.on('featureAccessChanged', () => void renewToken());

let navigateToRoot: () => Promise<void> | void = () => window.location.assign('/');
/** The router registers how "go to the root path" is done. */
export const setNavigateToRoot = (fn: () => Promise<void> | void): void => {
  navigateToRoot = fn;
};

/** A new token with the account's perms as they are now, then the session again. */
async function renewToken(): Promise<void> {
  // A failed refresh is silently ignored (spec section 8): the kill timer still stands.
  try {
    const res = await call('auth/refresh', {}, { suppress: /.*/ });
    if (res.authToken) {
      useAuthStore.getState().setToken(res.authToken);
      armTimers();
      // The preferences in memory are the newest (a change may still wait for its debounced save).
      await startSession({ loadPrefs: false });
    }
  } catch {
    /* ignored */
  }
}

const timers = createTokenTimers({
  refresh: renewToken,
  kill: () => {
    void logout();
    setTimeout(() => void dialogs.loggedOut(), LOGGED_OUT_DIALOG_DELAY_MS);
  },
});

function armTimers(): void {
  const claims = currentClaims();
  if (claims) timers.arm(claims, useAuthStore.getState().stayLoggedIn);
}

/**
 * Starts the session: a session token, the visible features and the stored preferences. After a
 * token renewal (`loadPrefs: false`) the session keeps the preferences it holds.
 */
export async function startSession({ loadPrefs = true }: { loadPrefs?: boolean } = {}): Promise<void> {
  const auth = useAuthStore.getState();
  const claims = currentClaims();
  if (!auth.user || !claims) return;
  // A worker's session on a kiosk (human token): their user and rights, not the kiosk account's.
  // A badge's human token that came before its worker is known (kiosk/start answered, openKioskSession
  // not yet run: a token renewal's restart in that moment) is not the kiosk account's session either:
  // openKioskSession starts the worker's next.
  if (auth.humanToken && !kioskPerson) return;
  const person = auth.humanToken ? kioskPerson : null;
  const user = person?.user ?? auth.user;
  const perms = person?.perms ?? claims.perms;
  // The session is the person's of this moment to the end: its calls keep the human token it started
  // with (a badge's arriving meanwhile is not theirs), and when the person changes while it is under
  // way (the epoch moved on), what it got is dropped: the next person's own start fills the store.
  const epoch = personEpoch;
  const pinned = { humanToken: auth.humanToken ?? null };
  const gen = await call('capture/session/genSessionToken', { userId: user.id, roles: perms.roles }, pinned);
  if (epoch !== personEpoch) return;
  const sessionToken = gen.sessionToken ?? null;
  useSessionStore.getState().set({ sessionToken, user, org: auth.org, perms });
  if (!sessionToken) return;
  const [features, session] = await Promise.all([
    call('site/access/getVisibleFeatures', { sessionToken }, pinned),
    call('capture/session/getSession', { sessionToken }, pinned),
  ]);
  if (epoch !== personEpoch) return;
  useSessionStore.getState().set({
    featureAccess: features.visibleFeatures ?? {},
    sessionId: session.session?.sessionId ?? null,
    ...(loadPrefs ? { prefs: (session.session?.prefs ?? {}) as never } : {}),
  });
}

/** Preferences are sent to the server whenever they change. */
export async function savePrefs(opts: { keepalive?: boolean } = {}): Promise<void> {
  const { sessionToken, prefs } = useSessionStore.getState();
  if (sessionToken) await call('capture/session/putSession', { sessionToken, session: { prefs } }, opts);
}

export interface LoginInput {
  userName: string;
  password: string;
  stayLoggedIn: boolean;
}

export async function login(input: LoginInput): Promise<void> {
  const ws = useMachineStore.getState().workstation;
  const res = await call(
    'auth/login',
    { ...input, workstationId: ws.id, ...(ws.secret ? { workstationSecret: ws.secret } : {}) },
    { suppress: /^ERR_ACCOUNT_RESTRICTED$/, quietUnreachable: true },
  );
  if (!res.authToken || !res.org || !res.user) throw new Error('incomplete login answer');
  useAuthStore
    .getState()
    .setLogin({ authToken: res.authToken, org: res.org, user: res.user as AuthUser, stayLoggedIn: input.stayLoggedIn });
  useAuthStore.getState().setMustChangePassword(!!res.mustChangePassword);
  armTimers();
  await startSession();
  const siteId = useSiteStore.getState().siteId;
  if (siteId) realtime.connect(siteId);
  realtime.subscribe('labelPrinter');
}

/** The worker whose badge the kiosk read (kiosk/start), while the human token lasts. */
let kioskPerson: { user: AuthUser; perms: UserPerms } | null = null;

const personEnders = new Set<() => void>();
/** Moves on whenever the person of the session changes (forgetPerson): a session start under way for the last one is dropped. */
let personEpoch = 0;
/**
 * What holds a person's data registers how it forgets it (the query cache, notices): called whenever
 * the person of the session changes (a kiosk worker comes or goes, a login, a logout), before the next
 * person's session starts. So nothing one worker saw shows to the next on a shared device (issue 26).
 */
export function onPersonEnds(forget: () => void): () => void {
  personEnders.add(forget);
  return () => personEnders.delete(forget);
}
/**
 * Forgets everything held about the person whose session ends: caches, notices, and (a kiosk worker
 * going) the dialogs. A logout keeps its dialogs: the one that says why (Device Restricted, an error
 * that logs out) is shown as the logout happens.
 */
export function forgetPerson({ closeDialogs = true }: { closeDialogs?: boolean } = {}): void {
  personEpoch++;
  if (closeDialogs) useDialogStore.getState().closeAll();
  for (const forget of personEnders) forget();
}

/** The kiosk's session becomes the worker's ("opened by kiosk"); the human token came with kiosk/start's answer. */
export async function openKioskSession(user: AuthUser, perms: UserPerms): Promise<void> {
  forgetPerson();
  kioskPerson = { user, perms };
  await startSession();
}

/**
 * Back to the kiosk account: the human token is revoked on the server ("done", the inactivity
 * timeout) unless the server ended it already, then forgotten, and the kiosk's own session starts again.
 */
export async function closeKioskSession({ revoke = true }: { revoke?: boolean } = {}): Promise<void> {
  if (revoke && useAuthStore.getState().humanToken) await call('kiosk/end', {}, { suppress: /.*/ }).catch(() => undefined);
  kioskPerson = null;
  useAuthStore.getState().setHumanToken(null);
  // The worker's pages go first (the kiosk page: the session is the kiosk account's again for the
  // guards), so none of them asks again for what is forgotten.
  useSessionStore.getState().set({
    user: useAuthStore.getState().user,
    perms: currentClaims()?.perms ?? null,
    sessionToken: null,
    sessionId: null,
    featureAccess: null,
  });
  await Promise.resolve(navigateToRoot()).catch(() => undefined);
  forgetPerson();
  await startSession().catch(() => undefined);
}

// A call refused because the human token has ended: the kiosk page again.
setKioskEndedHandler(() => void closeKioskSession({ revoke: false }));

/** After a reload with a still valid token: timers, session and socket come back. */
export async function resume(): Promise<void> {
  // A worker's kiosk session outlives a reload while it lasts: the human token (auth_settings) asks
  // the server who holds the kiosk; an ended or timed-out session is forgotten (the kiosk page again).
  if (useAuthStore.getState().humanToken && !kioskPerson) {
    const held = await call('kiosk/current', {}, { suppress: /.*/ }).catch((e: unknown) => e);
    if (held instanceof ApiError && isUnreachable(held.status)) {
      // Reloaded with the server out of reach: the worker's session is not known to have ended; it is
      // asked again when the server answers.
      const stop = onServerReached(() => {
        stop();
        void resume();
      });
      return;
    }
    const h = held instanceof Error ? null : (held as Awaited<ReturnType<typeof call<'kiosk/current'>>>);
    if (h?.user && h.perms) kioskPerson = { user: h.user, perms: h.perms };
    else useAuthStore.getState().setHumanToken(null);
  }
  armTimers();
  await startSession();
  const siteId = useSiteStore.getState().siteId;
  if (siteId) realtime.connect(siteId);
  realtime.subscribe('labelPrinter');
}

/**
 * Logout: local state is cleared at once (so guards see the user as logged out straight away), then
 * the token is revoked on the server.
 */
export async function logout(opts: { navigate?: boolean } = {}): Promise<void> {
  const { authToken, org } = useAuthStore.getState();
  // The request takes the human token with it before the stores are cleared below.
  if (useAuthStore.getState().humanToken) void call('kiosk/end', {}, { suppress: /.*/ }).catch(() => undefined);
  kioskPerson = null;
  timers.disarm();
  realtime.disconnect();
  forgetPerson({ closeDialogs: false });
  useAuthStore.getState().clear();
  useSessionStore.getState().reset();
  usePendingRoute.getState().clear();
  usePrinterStore.setState({ printers: [] });
  if (opts.navigate !== false) navigateToRoot();
  if (authToken) await call('auth/logout', {}, { suppress: /.*/, authToken, orgId: org?.id }).catch(() => undefined);
}

setLogoutHandler(() => void logout());

// A start made while the server could not be reached (an offline reload, issue 27) has no session
// yet: it starts as soon as the server answers.
onServerReached(() => {
  if (currentClaims() && !useSessionStore.getState().sessionToken) void startSession().catch(() => undefined);
});

/** Admin means holding siteAdmin or orgAdmin, in this session. */
export const sessionIsAdmin = (): boolean => {
  const perms = useSessionStore.getState().perms ?? currentClaims()?.perms;
  return !!perms && isAdmin(perms);
};
