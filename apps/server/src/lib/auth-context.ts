import { AppError, ERR } from '@floorhand/contract/errors';
import type { UserPerms } from '@floorhand/contract/perms';
import type { Db } from '../db/client.ts';
import { findAccount, isRevoked, loadPerms } from '../modules/auth/repository.ts';
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

export async function authenticate(db: Db, tokens: TokenService, token: string): Promise<AuthContext> {
  const claims = await tokens.verifyAuth(token);
  if (await isRevoked(db, claims.jti)) throw new AppError(401, { code: ERR.unauthorized, message: 'This session has been logged out' });
  const account = await findAccount(db, claims.sub);
  if (!account || !account.active || account.orgId !== claims.org) {
    throw new AppError(401, { code: ERR.unauthorized, message: 'The account is not active' });
  }
  const perms = await loadPerms(db, account.id, claims.site, claims.app);
  return { accountId: account.id, userName: account.userName, orgId: claims.org, siteId: claims.site, appId: claims.app, perms, claims };
}
