import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { ANONYMOUS_ORG_ID, APP_ID, HEADERS } from '@floorhand/contract/constants';
import { SPEC_LOC_IDS } from '@floorhand/contract/loc-ids';
import { hostMatches } from '@floorhand/contract/hosts';
import { ERR, LOGOUT_ERR_CODES, type ServerErr } from '@floorhand/contract/errors';
import { LANGUAGE_HEADER } from '@floorhand/contract/i18n';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { useAuthStore } from './auth-store.ts';
import { useSiteStore } from './site-store.ts';
import { reportReachable, reportUnreachable, useConnection } from './offline/connection.ts';
import { i18n } from './i18n.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * The API base: the page origin. Only the development build (`npm run dev:web`) on a local host with
 * a port from 8001 to 8999 calls the fixed local development server (the spec's development rule); the
 * app the server sends always calls the server that sent it, on any port.
 */
export function apiBase(
  loc: Pick<Location, 'origin' | 'hostname' | 'port'> = window.location,
  development: boolean = import.meta.env.DEV,
): string {
  const port = Number(loc.port);
  const local = loc.hostname === 'localhost' || loc.hostname === '127.0.0.1';
  if (development && local && port >= 8001 && port <= 8999) return 'http://localhost:8080';
  return loc.origin;
}

/** A trusted host gets the token. */
export const isTrustedHost = (hostname: string, patterns: readonly string[]): boolean => patterns.some((p) => hostMatches(p, hostname));

export class ApiError extends Error {
  constructor(
    readonly err: ServerErr,
    readonly status: number,
  ) {
    super(err.message);
  }
}

/** A query's retry rule: a refused request (4xx) is refused again, so only a server or network failure is retried, once. */
export const retryOnce = (failures: number, error: unknown): boolean => failures < 1 && !(error instanceof ApiError && error.status < 500);

let onLogoutError: () => void = () => {};
let onKioskEnded: () => void = () => {};
/** The session layer registers what an ended human token does: back to the kiosk page. */
export const setKioskEndedHandler = (fn: () => void): void => {
  onKioskEnded = fn;
};
/** The auth layer registers what an ERR_UNAUTHORIZED or ERR_BAD_TOKEN answer does: log out. */
export const setLogoutHandler = (fn: () => void): void => {
  onLogoutError = fn;
};

export const debugMode = (): boolean => {
  try {
    return localStorage.getItem('debug') === '1';
  } catch {
    return false;
  }
};

function clientTimeHeaders(now = new Date()): Record<string, string> {
  return {
    [HEADERS.clientTime]: now.toISOString(),
    [HEADERS.timeZone]: Intl.DateTimeFormat().resolvedOptions().timeZone,
    [HEADERS.tzOffset]: String(now.getTimezoneOffset()),
  };
}

/** The screen's language (before i18n has started: none, so English): the server's messages and documents (PDFs, an import's report) follow it. */
const languageHeader = (): Record<string, string> => (i18n.language ? { [LANGUAGE_HEADER]: i18n.language } : {});

export interface CallOptions {
  /** Codes matching this pattern raise no error dialog; the caller handles them. */
  suppress?: RegExp;
  locId?: string;
  signal?: AbortSignal;
  /** Send this token instead of the stored one (logout revokes a token already cleared locally). */
  authToken?: string;
  orgId?: string;
  /** The request outlives the page (fetch keepalive: a save sent as the page unloads; bodies under 64 kB). */
  keepalive?: boolean;
  /** Send this human token instead of the stored one (an outbox replay for a worker who is not on the kiosk now). */
  humanToken?: string | null;
  siteId?: string;
  /** The caller says itself what a server it cannot reach means (the outbox queues, the login page says so): no notice. */
  quietUnreachable?: boolean;
}

/** The request of a call with the request helper's rules (ids, token on a trusted host, client time). */
function request<P extends CallPath>(
  path: P,
  args: CallArgs<P>,
  opts: CallOptions,
): { url: string; init: RequestInit; locId: string | undefined; withToken: boolean } {
  const auth = useAuthStore.getState();
  const site = useSiteStore.getState();
  const locId = opts.locId ?? SPEC_LOC_IDS.get(path);
  const base = apiBase();
  const body = {
    locId,
    siteId: opts.siteId ?? site.siteId ?? '',
    appId: APP_ID,
    orgId: opts.orgId ?? auth.org?.id ?? ANONYMOUS_ORG_ID,
    ...args,
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', ...clientTimeHeaders(), ...languageHeader() };
  const trusted = isTrustedHost(new URL(base).hostname, site.trustedDomains);
  if (trusted) {
    const token = opts.authToken ?? auth.authToken;
    if (token) headers.authorization = `Bearer ${token}`;
    const human = opts.humanToken !== undefined ? opts.humanToken : auth.humanToken;
    if (human) headers[HEADERS.humanToken] = human;
    if (debugMode()) headers[HEADERS.debug] = '1';
  }
  return {
    url: `${base}/api/${path}`,
    init: { method: 'POST', headers, body: JSON.stringify(body), signal: opts.signal, ...(opts.keepalive ? { keepalive: true } : {}) },
    locId,
    withToken: headers.authorization !== undefined,
  };
}

/** Sends a call; a network failure fails as the helper does (no dialog: the header says the server cannot be reached). */
async function send<P extends CallPath>(
  path: P,
  args: CallArgs<P>,
  opts: CallOptions,
): Promise<{ res: Response; locId: string | undefined; stale: boolean }> {
  const { url, init, locId, withToken } = request(path, args, opts);
  const wasOnline = useConnection.getState().state === 'online';
  try {
    const res = await fetch(url, init);
    const human = res.headers.get(HEADERS.humanToken);
    if (human && opts.humanToken === undefined) useAuthStore.getState().setHumanToken(human);
    if (res.status < 502 || res.status > 504) reportReachable();
    // Sent without a token while nobody is logged in: a page that outlived a logout asked once more
    // (its query refetched as the cache was cleared). Refused as it should be, and not worth a dialog.
    // The login itself is the one call whose refusal then is news (the wrong password).
    const stale = path !== 'auth/login' && !withToken && res.status === 401 && !useAuthStore.getState().authToken;
    return { res, locId, stale };
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    reportUnreachable();
    const err: ServerErr = {
      code: ERR.generic,
      message: tk('The server cannot be reached. Check the network connection and try again.'),
      detail: String(e),
      locId,
    };
    return fail(err, 0, opts, wasOnline);
  }
}

/**
 * A call whose answer is only read, never shown: no dialog, no logout, nothing thrown for a refusal
 * (the outbox settles each replay by it). A network failure answers status 0.
 */
export async function post<P extends CallPath>(
  path: P,
  args: CallArgs<P>,
  opts: CallOptions = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const { url, init } = request(path, args, opts);
  try {
    const res = await fetch(url, init);
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status >= 502 && res.status <= 504) reportUnreachable();
    else reportReachable();
    return { status: res.status, json };
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    reportUnreachable();
    return { status: 0, json: {} };
  }
}

/**
 * The one request helper: every call carries its locId and the site, app and org ids, the token on a
 * trusted host, and the client's time; an `err` in the answer opens the error dialog and is thrown.
 */
export async function call<P extends CallPath>(path: P, args: CallArgs<P>, opts: CallOptions = {}): Promise<CallResponse<P>> {
  const { res, locId, stale } = await send(path, args, opts);
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (stale) opts = { ...opts, suppress: /.*/ };
  if ('queries' in json) {
    if (debugMode()) console.debug(`[${locId}] ${path} queries`, json.queries);
    delete json.queries;
  }
  const err = json.err as ServerErr | undefined;
  if (err) return fail({ ...err, locId: err.locId ?? locId }, res.status, opts);
  if (!res.ok) return fail({ code: ERR.generic, message: tk(`The server answered ${res.status}`), locId }, res.status, opts);
  return json as CallResponse<P>;
}

/** A call that answers a file (a PDF, a CSV): its bytes; a refusal answers JSON and fails as `call` does. */
export async function callFile<P extends CallPath>(path: P, args: CallArgs<P>, opts: CallOptions = {}): Promise<Blob> {
  const { res, locId } = await send(path, args, opts);
  if (res.ok && !(res.headers.get('content-type') ?? '').includes('json')) return res.blob();
  const json = (await res.json().catch(() => ({}))) as { err?: ServerErr };
  return fail(
    json.err
      ? { ...json.err, locId: json.err.locId ?? locId }
      : { code: ERR.generic, message: tk(`The server answered ${res.status}`), locId },
    res.status,
    opts,
  );
}

function fail(err: ServerErr, status: number, opts: CallOptions, wasOnline: boolean = useConnection.getState().state === 'online'): never {
  const loggingOut = LOGOUT_ERR_CODES.includes(err.code);
  // A worker's kiosk session that ended (its timeout, another badge) is not an error for whoever comes
  // next: the kiosk page again, no dialog left in their way (issue 26).
  const kioskEnded = err.code === ERR.kioskSessionEnded;
  // The server could not be reached (issue 27): the header says so; a notice, never the error dialog.
  const unreachable = status === 0 || (status >= 502 && status <= 504);
  if (unreachable) {
    if (status !== 0) reportUnreachable();
    // Said once, when the connection is found lost (the header says it after that). The notice loads
    // Mantine's notifications: not on the login page's first load.
    if (wasOnline && !opts.quietUnreachable && !opts.suppress?.test(err.code))
      void import('./offline/unreachable-notice.ts').then((m) => m.notifyUnreachable());
  } else if (!kioskEnded && !opts.suppress?.test(err.code)) void dialogs.error(err);
  if (loggingOut) onLogoutError();
  if (kioskEnded) onKioskEnded();
  throw new ApiError(err, status);
}
