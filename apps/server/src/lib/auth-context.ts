import { forbidden, unauthorized } from './errors.ts';
import type { UserPerms } from '@floorhand/contract/perms';
import type { Db } from '../db/client.ts';
import { sql } from 'drizzle-orm';
import { NO_PERMS } from '@floorhand/contract/perms';
import { preparedRows } from '../db/prepared.ts';
import { looksLikeApiKey } from '@floorhand/contract/accounts';
import { looksLikeAgentKey } from '@floorhand/contract/labels';
import { AGENT_KEY_ON_HTTP } from './agent-auth.ts';
import { rememberFeatures } from './features.ts';
import { EVERYONE } from '@floorhand/contract/roles';
import { APP_ID } from '@floorhand/contract/constants';
import { findAccountByApiKeyPrefix, loadPerms, permsOf } from '../db/accounts.ts';
import { apiKeyMatches, apiKeyPrefix } from './api-key.ts';
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
  /** The password was set by an administrator: only WHILE_PASSWORD_TEMPORARY calls until it is changed. */
  mustChangePassword: boolean;
  /** A worker's call through a kiosk (human token, lib/human-token.ts): the kiosk account and its session. */
  kiosk?: { accountId: string; sessionId: string };
  /** A print agent's own key (lib/agent-auth.ts): the socket's agent operations only, never an HTTP call. */
  agent?: { agentId: string; name: string };
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

interface AuthRow {
  user_name: string;
  org_id: string;
  active: boolean;
  must_change_password: boolean;
  /** The perms columns are null when the account has no perms on the token's site. */
  roles: string[] | null;
  kiosk_acct: boolean | null;
  timeclock_acct: boolean | null;
  service_acct: boolean | null;
  revoked: boolean;
  /** The feature_access rows of the token's site and app for the account's roles there (and everyone's), as [role, feature, level]. */
  features: Array<[string, string, number | null]> | null;
}

export async function authenticate(db: Db, tokens: TokenService, token: string, target: AuthTarget = {}): Promise<AuthContext> {
  if (looksLikeApiKey(token)) return authenticateApiKey(db, token, target);
  if (looksLikeAgentKey(token)) throw forbidden(AGENT_KEY_ON_HTTP);
  const claims = await tokens.verifyAuth(token);
  // Every call comes through here: the account, its perms, the revocation and what the perms' roles
  // give (lib/features.ts) in one round trip, as a prepared statement (db/prepared.ts).
  const [row] = await preparedRows<AuthRow>(
    db,
    sql`SELECT a.user_name, a.org_id, a.active, a.must_change_password, p.roles, p.kiosk_acct, p.timeclock_acct, p.service_acct,
      EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${claims.jti}) AS revoked,
      (SELECT json_agg(json_build_array(f.role, f.feature, f.level)) FROM feature_access f
        WHERE f.site_id = ${claims.site} AND f.app_id = ${claims.app} AND (f.role = ${EVERYONE} OR jsonb_exists(p.roles, f.role))) AS features
    FROM accounts a LEFT JOIN account_perms p ON p.account_id = a.id AND p.site_id = ${claims.site} AND p.app_id = ${claims.app}
    WHERE a.id = ${claims.sub}`,
  );
  if (row?.revoked) throw unauthorized('This session has been logged out');
  if (!row || !row.active || row.org_id !== claims.org) {
    throw unauthorized('The account is not active');
  }
  const perms: UserPerms = row.roles
    ? {
        roles: row.roles,
        kioskAcct: row.kiosk_acct ?? false,
        timeclockAcct: row.timeclock_acct ?? false,
        serviceAcct: row.service_acct ?? false,
      }
    : NO_PERMS;
  const auth: AuthContext = {
    accountId: claims.sub,
    userName: row.user_name,
    orgId: claims.org,
    siteId: claims.site,
    appId: claims.app,
    perms,
    claims,
    mustChangePassword: row.must_change_password,
  };
  rememberFeatures(
    auth,
    (row.features ?? []).map(([role, feature, level]) => ({ role, feature, level })),
  );
  return auth;
}

const badKey = () => unauthorized('The API key is not valid or has been revoked');

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
    throw forbidden('This API key belongs to an account that is not a service account on this site');
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
  // Service accounts have no password to change.
  return {
    accountId: account.id,
    userName: account.userName,
    orgId: account.orgId,
    siteId,
    appId,
    perms,
    claims,
    mustChangePassword: false,
  };
}
