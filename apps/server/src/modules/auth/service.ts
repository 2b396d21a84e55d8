import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { APP_ID } from '@floorhand/contract/constants';
import { accountRestricted, badInput, loginFailed, rateLimited, siteUnknown } from '../../lib/errors.ts';
import type { Deps } from '../../lib/calls.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { findSite } from '../../lib/site-data.ts';
import type { LoginLimiter } from '../../lib/login-limiter.ts';
import { passwordMatches } from '../../lib/passwords.ts';
import { findAccountByUserName, findOrganisation, revokeToken, touchWorkstation } from './repository.ts';
import { findPerms } from '../../db/accounts.ts';
import { endKioskSessionsOf } from '../../lib/human-token.ts';
import { tk } from '@floorhand/contract/i18n';

const LOGIN_FAILED = tk('Unknown account name or wrong password');
export const NO_ACCESS_HERE = tk('This account has no access to this site.');
export const SERVICE_NOT_INTERACTIVE = tk('Service accounts cannot be used interactively.');

export async function login(
  deps: Deps,
  limiter: LoginLimiter,
  site: { siteId: string; appId: string; orgId: string },
  args: CallArgs<'auth/login'> & { stayLoggedIn: boolean },
  clientIp: string,
): Promise<CallResponse<'auth/login'>> {
  const { db, tokens, config } = deps;
  const siteRow = await findSite(db, site.siteId);
  // The body names the site; the organisation is the site's own, never the body's.
  if (!siteRow) throw siteUnknown(`Unknown site '${site.siteId}'`, 400);
  // Perms are kept per app: a token for another app would carry none, so no service-account flag either.
  if (site.appId !== APP_ID) throw badInput(`Unknown app '${site.appId}'`);
  const attempt = { address: clientIp, account: `${siteRow.orgId}|${args.userName.toLowerCase()}` };
  const wait = await limiter.retryAfterMs(attempt);
  if (wait > 0) {
    throw rateLimited(`Too many failed logins. Try again in ${Math.ceil(wait / 60_000)} minute(s).`);
  }
  const account = await findAccountByUserName(db, siteRow.orgId, args.userName);
  const ok = await passwordMatches(account?.active ? account.passwordHash : undefined, args.password);
  if (!account || !ok) {
    await limiter.recordFailure(attempt);
    throw loginFailed(LOGIN_FAILED);
  }
  await limiter.recordSuccess(attempt);
  // Only after the right password: an account with no perms on this site, or a service account, does
  // not log in here (and the answer names no other site).
  const perms = await findPerms(db, account.id, siteRow.id, site.appId);
  if (!perms) throw accountRestricted(NO_ACCESS_HERE);
  if (perms.serviceAcct) throw accountRestricted(SERVICE_NOT_INTERACTIVE);
  const org = await findOrganisation(db, siteRow.orgId);
  const workstation = await touchWorkstation(db, siteRow.id, args.workstationId, account.id, args.workstationSecret);
  const lt = Math.min(args.lifetimeSecs ?? config.TOKEN_LIFETIME_SECS, config.TOKEN_LIFETIME_SECS);
  const authToken = await tokens.signAuth({
    sub: account.id,
    org: siteRow.orgId,
    site: siteRow.id,
    app: site.appId,
    lt,
    stay: args.stayLoggedIn,
    perms,
    ws: workstation,
  });
  return {
    authToken,
    org: { id: siteRow.orgId, name: org?.name ?? siteRow.orgId },
    user: { id: account.id, userName: account.userName, firstName: account.firstName, surnames: account.surnames },
    perms,
    workstation,
    mustChangePassword: account.mustChangePassword,
  };
}

export async function refresh(deps: Deps, auth: AuthContext): Promise<CallResponse<'auth/refresh'>> {
  const c = auth.claims;
  // The same login goes on (sid): a kiosk's worker session stays valid with the refreshed token.
  const authToken = await deps.tokens.signAuth({
    sub: c.sub,
    org: c.org,
    site: c.site,
    app: c.app,
    lt: c.lt,
    stay: c.stay,
    perms: auth.perms,
    ws: c.ws,
    sid: c.sid ?? c.jti,
  });
  return { authToken };
}

export async function logout(deps: Deps, auth: AuthContext): Promise<CallResponse<'auth/logout'>> {
  await revokeToken(deps.db, auth.claims.jti, new Date(auth.claims.exp * 1000));
  // A kiosk's logout ends every worker session opened on it (this device), at once and on every node:
  // the human tokens are checked in the database on each call, never cached (lib/human-token.ts).
  if (auth.perms.kioskAcct) await endKioskSessionsOf(deps.db, auth.accountId, 'logout', auth.claims.ws.id);
  deps.realtime.disconnectToken(auth.siteId, auth.claims.jti);
  return {};
}
