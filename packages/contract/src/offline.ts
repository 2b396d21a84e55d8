// Zod-free: the outbox (web) and the replay bench read these.
import { ERR } from './errors.ts';

/**
 * The floor writes a device may take while the server cannot be reached (issue 27): each carries an
 * idempotency key, so the outbox replays it with that key and the server applies it once however
 * often it arrives. Logging in, administration, posting counts and shipping are not among them.
 */
export const OFFLINE_CALLS = [
  'stock/adjust',
  'stock/move',
  'stock/split',
  'pick/confirm',
  'pick/short',
  'pick/skip',
  'package/pack',
  'package/unpack',
  'counts/record',
  'labor/start',
  'labor/stop',
  'timeclock/punch',
] as const;
export type OfflineCall = (typeof OFFLINE_CALLS)[number];

const OFFLINE_SET: ReadonlySet<string> = new Set(OFFLINE_CALLS);
export const isOfflineCall = (path: string): path is OfflineCall => OFFLINE_SET.has(path);

/**
 * An answer that says the request did not reach the application: none at all (0), or a proxy or
 * load balancer in front of a stopped server (502, 503, 504). The request is queued, not refused.
 */
export const isUnreachable = (status: number): boolean => status === 0 || status === 502 || status === 503 || status === 504;

/** A replay refused for who sent it, not for what: it waits until that person signs in again. */
export const OUTBOX_SIGN_IN_CODES: readonly string[] = [ERR.unauthorized, ERR.badToken, ERR.kioskSessionEnded];

/** Server faults (5xx other than unreachable) a queued action survives before it is set aside as refused. */
export const OUTBOX_MAX_FAULTS = 3;

/** How long the connection probe waits between tries while the server cannot be reached: first, then at most (ms). */
export const RECONNECT_PROBE_MS = { first: 2_000, max: 15_000 } as const;
