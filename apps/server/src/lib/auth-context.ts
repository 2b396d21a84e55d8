import { AppError, ERR } from '@floorhand/contract/errors';
import type { UserPerms } from '@floorhand/contract/perms';
import type { Db } from '../db/client.ts';
import { and, eq, sql } from 'drizzle-orm';
import { NO_PERMS } from '@floorhand/contract/perms';
import { accountPerms, accounts, revokedTokens } from '../db/schema.ts';
import { loadPerms } from '../modules/auth/repository.ts';
import { looksLikeApiKey } from '@floorhand/contract/admin';
import { APP_ID } from '@floorhand/contract/constants';
import { apiKeyMatches, apiKeyPrefix } from '../modules/admin/api-key.ts';
import { findAccountByApiKeyPrefix, permsOf } from '../modules/admin/repository.ts';
import type { AuthClaims, TokenService } from './tokens.ts';

/** Who is calling, taken from the token and the database, never from the request body. */
export interface AuthContext {
  accountId: string;
  userName: string;
  orgId: string;
  siteId: string;
  appId: string;
  perms: UserPerms;
  claims: AuthClaims;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1];
}

/** The site and app a call names: an API key is valid on every site where its account is a service account. */
export interface AuthTarget {
  siteId?: string;
  appId?: string;
}

export async function authenticate(db: Db, tokens: TokenService, token: string, target: AuthTarget = {}): Promise<AuthContext> {
  if (looksLikeApiKey(token)) return authenticateApiKey(db, token, target);
  const claims = await tokens.verifyAuth(token);
  // Every call comes through here: the account, its perms and the revocation in one round trip.
  const [row] = await db
    .select({
      userName: accounts.userName,
      orgId: accounts.orgId,
      active: accounts.active,
      perms: { roles: accountPerms.roles, kioskAcct: accountPerms.kioskAcct, timeclockAcct: accountPerms.timeclockAcct, serviceAcct: accountPerms.serviceAcct },
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${claims.jti})`,
    })
    .from(accounts)
    .leftJoin(accountPerms, and(eq(accountPerms.accountId, accounts.id), eq(accountPerms.siteId, claims.site), eq(accountPerms.appId, claims.app)))
    .where(eq(accounts.id, claims.sub));
  if (row?.revoked) throw new AppError(401, { code: ERR.unauthorized, message: 'This session has been logged out' });
  if (!row || !row.active || row.orgId !== claims.org) {
    throw new AppError(401, { code: ERR.unauthorized, message: 'The account is not active' });
  }
  const perms: UserPerms = row.perms?.roles ? { ...row.perms, roles: row.perms.roles } : NO_PERMS;
  return { accountId: claims.sub, userName: row.userName, orgId: claims.org, siteId: claims.site, appId: claims.app, perms, claims };
}

const badKey = () => new AppError(401, { code: ERR.unauthorized, message: 'The API key is not valid or has been revoked' });

/**
 * A service account's API key (docs/admin.md). The site is the one the call names, or, when it names
 * none (the socket handshake), the only site where the account is a service account.
 */
async function authenticateApiKey(db: Db, key: string, target: AuthTarget): Promise<AuthContext> {
  const prefix = apiKeyPrefix(key);
  const account = prefix ? await findAccountByApiKeyPrefix(db, prefix) : undefined;
  if (!account || !account.active || !apiKeyMatches(key, account.apiKeyHash)) throw badKey();
  const appId = target.appId ?? APP_ID;
  const serviceSites = (await permsOf(db, [account.id], appId)).filter((p) => p.serviceAcct).map((p) => p.siteId);
  const siteId = target.siteId ?? (serviceSites.length === 1 ? serviceSites[0] : undefined);
  if (!siteId || !serviceSites.includes(siteId)) {
    throw new AppError(403, { code: ERR.forbidden, message: 'This API key belongs to an account that is not a service account on this site' });
  }
  const perms = await loadPerms(db, account.id, siteId, appId);
  const now = Math.floor(Date.now() / 1000);
  // Claims for the code that reads them: the session lasts an hour; lt 0 makes auth/refresh mint an
  // already expired token, so a key cannot be swapped for a token that outlives its revocation.
  const claims: AuthClaims = {
    typ: 'auth',
    sub: account.id,
    org: account.orgId,
    site: siteId,
    app: appId,
    lt: 0,
    stay: false,
    perms,
    ws: { id: 'api', timeclock: false, kiosk: false },
    jti: `apikey-${prefix}`,
    iat: now,
    exp: now + 3600,
  };
  return { accountId: account.id, userName: account.userName, orgId: account.orgId, siteId, appId, perms, claims };
}
