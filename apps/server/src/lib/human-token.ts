import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AppError, ERR } from '@floorhand/contract/errors';
import { accountKindOf } from '@floorhand/contract/rights';
import type { Db } from '../db/client.ts';
import { findPerms } from '../db/accounts.ts';
import { query } from '../db/sql.ts';
import type { AuthContext } from './auth-context.ts';
import type { AuthClaims } from './tokens.ts';
import { forbidden } from './errors.ts';
import { tk } from '@floorhand/contract/i18n';

// The kiosk's human token (docs/kiosk.md): a random secret the server hands out when a kiosk account
// reads a worker's badge (kiosk/start), kept only as its SHA-256. A call that carries it beside the
// kiosk's own token is the worker's: their id, their rights, their name on every audit stamp and
// movement. It ends on "done", after the session's inactivity timeout, or when the kiosk logs out.
// It never outlives the kiosk login it was opened under: its hash is taken together with that
// login's id (the token's sid, kept across auth/refresh), so with a token of any other login (after
// a logout, an expiry, on another device or of another kiosk account) it matches no session; and it
// is valid only from the device it was opened on.

/** Calls that are always the kiosk account's own, whatever human token the client still holds. */
export const KIOSK_OWN_CALLS: ReadonlySet<string> = new Set(['auth/login', 'auth/logout', 'auth/refresh', 'kiosk/start']);

/** last_seen is written at most this often (each call would otherwise write a row). */
const TOUCH_EVERY_SECS = 10;

export const newHumanToken = (): string => `hum_${randomBytes(32).toString('base64url')}`;
/** The kiosk login a token continues (tokens from before sids were signed: their own jti). */
export const kioskLoginOf = (claims: Pick<AuthClaims, 'sid' | 'jti'>): string => claims.sid ?? claims.jti;
/** What is stored of a human token: its SHA-256 together with the kiosk login it was opened under. */
export const hashHumanToken = (token: string, kioskLogin: string): string =>
  createHash('sha256').update(`${kioskLogin}\u0000${token}`).digest('hex');

export const kioskSessionEnded = (message: string = tk('The kiosk session has ended. Scan your badge to start again.')) =>
  new AppError(401, { code: ERR.kioskSessionEnded, message });
/** A worker's call whose kiosk login is no longer valid (logged out, expired, revoked). */
export const kioskLoginEnded = () => kioskSessionEnded('The kiosk has been logged out, so its worker session has ended.');

interface SessionRow {
  id: string;
  account_id: string;
  user_name: string;
  active: boolean;
  expired: boolean;
  touch: boolean;
}

/**
 * The worker's AuthContext for a kiosk account's call that carries a human token. Refused: a human
 * token with any other kind of account, one of another kiosk, ended, or idle for longer than its
 * timeout (which ends it), and a worker who is no longer active or no longer a person on this site.
 */
export async function authenticateHuman(db: Db, kiosk: AuthContext, token: string): Promise<AuthContext> {
  if (accountKindOf(kiosk.perms) !== 'kiosk') throw forbidden('A human token is valid only with a kiosk account');
  const [row] = await query<SessionRow>(
    db,
    sql`SELECT s.id, s.account_id, a.user_name, a.active,
        s.last_seen < now() - make_interval(secs => s.timeout_secs) AS expired,
        s.last_seen < now() - make_interval(secs => ${TOUCH_EVERY_SECS}) AS touch
      FROM kiosk_sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = ${hashHumanToken(token, kioskLoginOf(kiosk.claims))} AND s.kiosk_account_id = ${kiosk.accountId} AND s.org_id = ${kiosk.orgId}
        AND s.device_id = ${kiosk.claims.ws.id}
        AND s.site_id = ${kiosk.siteId} AND s.ended_at IS NULL AND a.org_id = ${kiosk.orgId}`,
  );
  if (!row) throw kioskSessionEnded();
  if (row.expired) {
    await endKioskSession(db, row.id, 'timeout');
    throw kioskSessionEnded('The kiosk session timed out. Scan your badge to start again.');
  }
  const perms = row.active ? await findPerms(db, row.account_id, kiosk.siteId, kiosk.appId) : undefined;
  if (!perms || accountKindOf(perms) !== 'person') {
    await endKioskSession(db, row.id, 'revoked');
    throw kioskSessionEnded();
  }
  if (row.touch) await query(db, sql`UPDATE kiosk_sessions SET last_seen = now() WHERE id = ${row.id} AND ended_at IS NULL`);
  return {
    ...kiosk,
    accountId: row.account_id,
    userName: row.user_name,
    perms,
    mustChangePassword: false,
    kiosk: { accountId: kiosk.accountId, sessionId: row.id },
  };
}

export async function endKioskSession(db: Db, id: string, reason: 'done' | 'timeout' | 'revoked' | 'replaced' | 'logout'): Promise<void> {
  await query(db, sql`UPDATE kiosk_sessions SET ended_at = now(), end_reason = ${reason} WHERE id = ${id} AND ended_at IS NULL`);
}

/** Every open session of a kiosk account (a new badge read), or those opened on one device (its logout). */
export async function endKioskSessionsOf(db: Db, kioskAccountId: string, reason: 'replaced' | 'logout', deviceId?: string): Promise<void> {
  const onDevice = deviceId === undefined ? sql`` : sql` AND device_id = ${deviceId}`;
  await query(
    db,
    sql`UPDATE kiosk_sessions SET ended_at = now(), end_reason = ${reason} WHERE kiosk_account_id = ${kioskAccountId} AND ended_at IS NULL${onDevice}`,
  );
}
