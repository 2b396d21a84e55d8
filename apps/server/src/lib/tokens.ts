import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { AppError } from '@floorhand/contract/errors';
import { badToken, unauthorized } from './errors.ts';
import { fromUrlSafe, toUrlSafe, type AuthClaims, type SessionClaims } from '@floorhand/contract/auth';
import type { Db } from '../db/client.ts';
import { serverKeys } from '../db/schema.ts';
import { newId } from './audit.ts';

// Tokens are signed JWTs (HS256) whose dots are sent as '!' so the token is URL-safe in the spec's
// form; both forms are accepted back. The key lives in the database so every server node shares it.

export type { AuthClaims, SessionClaims };

async function loadKey(db: Db): Promise<Uint8Array> {
  await db
    .insert(serverKeys)
    .values({ id: 'token', secret: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverKeys).where(eq(serverKeys.id, 'token'));
  if (!row) throw new Error('token key missing');
  return Buffer.from(row.secret, 'base64url');
}

export type TokenService = Awaited<ReturnType<typeof createTokenService>>;

/** Claims are shared by every call with the same token: nobody may change them. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Verified tokens remembered (until they expire): a scanner sends the same token with every scan. */
const VERIFIED_MAX = 10_000;

export async function createTokenService(db: Db) {
  // Imported once: handing jose the raw bytes would import the key again for every token.
  const key = await crypto.subtle.importKey('raw', await loadKey(db), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // Verification depends only on the token and the key, so its result can be reused until `exp`.
  // What the database says of the token (revoked, account inactive) is still asked on every call.
  const verified = new Map<string, Record<string, unknown> & { exp?: number }>();
  async function verifySignature(token: string) {
    const known = verified.get(token);
    if (known && (known.exp ?? 0) * 1000 > Date.now()) return known;
    verified.delete(token);
    const { payload } = await jwtVerify(fromUrlSafe(token), key, { algorithms: ['HS256'] });
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, deepFreeze(payload));
    return payload;
  }

  async function sign(claims: Record<string, unknown>, lifetimeSecs: number): Promise<string> {
    const jwt = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSecs)
      .sign(key);
    return toUrlSafe(jwt);
  }

  async function verify<T>(token: string, typ: string): Promise<T> {
    try {
      const payload = await verifySignature(token);
      if (payload.typ !== typ) throw badToken('The token is not valid for this call');
      return payload as T;
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (e instanceof joseErrors.JWTExpired) throw unauthorized('Your session has expired; please log in again');
      throw badToken('The token is not valid');
    }
  }

  return {
    // A login's first token starts its sid (its own jti); auth/refresh passes the sid on.
    signAuth: (c: Omit<AuthClaims, 'typ' | 'jti' | 'exp' | 'iat'>) => {
      const jti = newId();
      return sign({ ...c, typ: 'auth', jti, sid: c.sid ?? jti }, c.lt);
    },
    verifyAuth: (token: string) => verify<AuthClaims>(token, 'auth'),
    signSession: (c: Omit<SessionClaims, 'typ' | 'exp'>, lifetimeSecs: number) => sign({ ...c, typ: 'session' }, lifetimeSecs),
    verifySession: (token: string) => verify<SessionClaims>(token, 'session'),
  };
}
