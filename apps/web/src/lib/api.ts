import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { ANONYMOUS_ORG_ID, APP_ID, HEADERS } from '@floorhand/contract/constants';
import { SPEC_LOC_IDS } from '@floorhand/contract/loc-ids';
import { hostMatches } from '@floorhand/contract/hosts';
import { ERR, LOGOUT_ERR_CODES, type ServerErr } from '@floorhand/contract/errors';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { useAuthStore } from './auth-store.ts';
import { useSiteStore } from './site-store.ts';

/**
 * The API base: the page origin. Only the development build (`npm run dev:web`) on a local host with
 * a port from 8001 to 8999 calls the fixed local development server (the spec's development rule); the
 * app the server sends always calls the server that sent it, on any port.
 */
export function apiBase(loc: Pick<Location, 'origin' | 'hostname' | 'port'> = window.location, development: boolean = import.meta.env.DEV): string {
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
  /**
   * No answer at all (the network or the server is down) raises no error dialog: a work area's read
   * that keeps showing its cached answer, marked with its time (issue 27 item 4).
   */
  quietIfUnreachable?: boolean;
}

/** Sends a call with the request helper's rules (ids, token on a trusted host, client time); a network failure fails as the helper does. */
async function send<P extends CallPath>(path: P, args: CallArgs<P>, opts: CallOptions): Promise<{ res: Response; locId: string | undefined }> {
  const auth = useAuthStore.getState();
  const site = useSiteStore.getState();
  const locId = opts.locId ?? SPEC_LOC_IDS.get(path);
  const base = apiBase();
  const body = { locId, siteId: site.siteId ?? '', appId: APP_ID, orgId: opts.orgId ?? auth.org?.id ?? ANONYMOUS_ORG_ID, ...args };
  const headers: Record<string, string> = { 'content-type': 'application/json', ...clientTimeHeaders() };
  const trusted = isTrustedHost(new URL(base).hostname, site.trustedDomains);
  if (trusted) {
    const token = opts.authToken ?? auth.authToken;
    if (token) headers.authorization = `Bearer ${token}`;
    if (auth.humanToken) headers[HEADERS.humanToken] = auth.humanToken;
    if (debugMode()) headers[HEADERS.debug] = '1';
  }
  try {
    const res = await fetch(`${base}/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: opts.signal, ...(opts.keepalive ? { keepalive: true } : {}) });
    const human = res.headers.get(HEADERS.humanToken);
    if (human) useAuthStore.getState().setHumanToken(human);
    return { res, locId };
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    const err: ServerErr = { code: ERR.generic, message: 'The server cannot be reached. Check the network connection and try again.', detail: String(e), locId };
    return fail(err, 0, opts.quietIfUnreachable ? { ...opts, suppress: /.*/ } : opts);
  }
}

/**
 * The one request helper: every call carries its locId and the site, app and org ids, the token on a
 * trusted host, and the client's time; an `err` in the answer opens the error dialog and is thrown.
 */
export async function call<P extends CallPath>(path: P, args: CallArgs<P>, opts: CallOptions = {}): Promise<CallResponse<P>> {
  const { res, locId } = await send(path, args, opts);
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if ('queries' in json) {
    if (debugMode()) console.debug(`[${locId}] ${path} queries`, json.queries);
    delete json.queries;
  }
  const err = json.err as ServerErr | undefined;
  if (err) return fail({ ...err, locId: err.locId ?? locId }, res.status, opts);
  if (!res.ok) return fail({ code: ERR.generic, message: `The server answered ${res.status}`, locId }, res.status, opts);
  return json as CallResponse<P>;
}

/** A call that answers a file (a PDF, a CSV): its bytes; a refusal answers JSON and fails as `call` does. */
export async function callFile<P extends CallPath>(path: P, args: CallArgs<P>, opts: CallOptions = {}): Promise<Blob> {
  const { res, locId } = await send(path, args, opts);
  if (res.ok && !(res.headers.get('content-type') ?? '').includes('json')) return res.blob();
  const json = (await res.json().catch(() => ({}))) as { err?: ServerErr };
  return fail(json.err ? { ...json.err, locId: json.err.locId ?? locId } : { code: ERR.generic, message: `The server answered ${res.status}`, locId }, res.status, opts);
}

function fail(err: ServerErr, status: number, opts: CallOptions): never {
  const loggingOut = LOGOUT_ERR_CODES.includes(err.code);
  // A worker's kiosk session that ended (its timeout, another badge) is not an error for whoever comes
  // next: the kiosk page again, no dialog left in their way (issue 26).
  const kioskEnded = err.code === ERR.kioskSessionEnded;
  if (!kioskEnded && !opts.suppress?.test(err.code)) void dialogs.error(err);
  if (loggingOut) onLogoutError();
  if (kioskEnded) onKioskEnded();
  throw new ApiError(err, status);
}
