// Offline punches (docs/timeclock.md, Offline punches): a time clock that cannot reach the server
// keeps the punch with the device's time and replays it later. The device signs what it saw with a key
// only it and the server can compute, so the server can record the punch at the device's time.
//
// The key: SHA-256 of the workstation secret, the very value the server stores (workstations.secret_hash),
// used as an HMAC-SHA256 key. The server needs no new secret; the trade-off (a reader of the database
// could sign) is in the docs. WebCrypto only (`crypto.subtle`): the same code in browsers and Node 20.

/** An offline punch older than this (by the device's time) is refused: the timekeeper adds it instead. */
export const OFFLINE_PUNCH_MAX_AGE_HOURS = 72;
/** A device time ahead of the server's by more than this is refused; within it the punch counts at the server's time. */
export const OFFLINE_PUNCH_FUTURE_SKEW_SECS = 120;

/** What the signature covers: everything that makes the punch, as the device sends it. */
export interface OfflinePunchFields {
  /** The workstation (machine settings' id) whose secret signs. */
  workstationId: string;
  /** The badge as sent in the punch. */
  badge: string;
  /** The device's time of the scan (ISO, exactly as sent in `offline.deviceTime`). */
  deviceTime: string;
  /** The punch's idempotency key: a replay is the same punch, another key another punch. */
  idempotencyKey: string;
  /** SHA-256 (hex) of the photo's bytes when a photo was taken: the photo uploaded on replay must be that one. */
  photoSha256?: string | undefined;
}

const VERSION = 'floorhand-offline-punch/1';

/** The canonical text signed: a JSON array in a fixed order (no field can run into another). */
export const offlinePunchText = (f: OfflinePunchFields): string =>
  JSON.stringify([VERSION, f.workstationId, f.badge, f.deviceTime, f.idempotencyKey, f.photoSha256 ?? '']);

type Subtle = typeof globalThis.crypto.subtle;
/** An HMAC key of WebCrypto (the DOM's CryptoKey in browsers, Node's webcrypto CryptoKey on the server). */
export type OfflinePunchKey = Awaited<ReturnType<Subtle['importKey']>>;
const subtle = (): Subtle => globalThis.crypto.subtle;
const utf8 = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s);

const hex = (bytes: ArrayBuffer): string => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 in hex: of a text (UTF-8) or of bytes (a photo). */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer> | ArrayBuffer): Promise<string> {
  return hex(await subtle().digest('SHA-256', typeof data === 'string' ? utf8(data) : data));
}

function fromHex(h: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(h)) return undefined;
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function base64url(bytes: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  const bin = atob(s.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const importHmac = (raw: Uint8Array<ArrayBuffer>): Promise<OfflinePunchKey> =>
  subtle().importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

/** The signing key of a device, from the workstation secret it holds (machine settings). */
export async function offlinePunchKeyFromSecret(secret: string): Promise<OfflinePunchKey> {
  return importHmac(new Uint8Array(await subtle().digest('SHA-256', utf8(secret))));
}

/** The same key, from the secret's SHA-256 in hex as the server stores it; undefined when not a hash. */
export async function offlinePunchKeyFromHash(secretSha256Hex: string): Promise<OfflinePunchKey | undefined> {
  const raw = fromHex(secretSha256Hex);
  return raw && raw.length === 32 ? importHmac(raw) : undefined;
}

/** The signature (base64url of HMAC-SHA256) of an offline punch; `key`: a OfflinePunchKey or the workstation secret. */
export async function signOfflinePunch(key: OfflinePunchKey | string, fields: OfflinePunchFields): Promise<string> {
  const k = typeof key === 'string' ? await offlinePunchKeyFromSecret(key) : key;
  return base64url(await subtle().sign('HMAC', k, utf8(offlinePunchText(fields))));
}

/** Whether `signature` is the device's signature of `fields` (constant time: WebCrypto's verify); false for junk. */
export async function verifyOfflinePunch(key: OfflinePunchKey | string, fields: OfflinePunchFields, signature: string): Promise<boolean> {
  const sig = fromBase64url(signature);
  if (!sig || sig.length !== 32) return false;
  const k = typeof key === 'string' ? await offlinePunchKeyFromSecret(key) : key;
  return subtle().verify('HMAC', k, sig, utf8(offlinePunchText(fields)));
}
