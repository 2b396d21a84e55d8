import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { badToken, dbError, forbidden } from '../../lib/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { visibleFeaturesOf } from '../../lib/features.ts';
import { saveSessionPrefs, sessionById, upsertSession } from './repository.ts';

/** Starts (or restarts) the session of the token's account: one per account, site and app. */
export async function genSessionToken(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'capture/session/genSessionToken'>,
): Promise<CallResponse<'capture/session/genSessionToken'>> {
  if (body.userId !== undefined && body.userId !== auth.accountId) {
    throw forbidden('A session can only be started for the logged-in account');
  }
  const id = await upsertSession(deps.db, {
    id: newId(),
    accountId: auth.accountId,
    siteId: auth.siteId,
    appId: auth.appId,
    audit: auditStamp(auth.accountId),
  });
  if (!id) throw dbError('The session could not be started');
  const lifetime = Math.max(1, auth.claims.exp - Math.floor(Date.now() / 1000));
  const sessionToken = await deps.tokens.signSession({ sub: auth.accountId, sid: id, site: auth.siteId, app: auth.appId }, lifetime);
  return { sessionToken };
}

async function sessionOf(deps: Deps, auth: AuthContext, sessionToken: string) {
  const claims = await deps.tokens.verifySession(sessionToken);
  if (claims.sub !== auth.accountId || claims.site !== auth.siteId) {
    throw forbidden('This session belongs to another account');
  }
  const row = await sessionById(deps.db, claims.sid);
  if (!row) throw badToken('The session no longer exists');
  return row;
}

export async function getVisibleFeatures(
  deps: Deps,
  auth: AuthContext,
  sessionToken: string,
): Promise<CallResponse<'site/access/getVisibleFeatures'>> {
  await sessionOf(deps, auth, sessionToken);
  return { visibleFeatures: await visibleFeaturesOf(deps, auth) };
}

export async function getSession(deps: Deps, auth: AuthContext, sessionToken: string): Promise<CallResponse<'capture/session/getSession'>> {
  const row = await sessionOf(deps, auth, sessionToken);
  return { session: { sessionId: row.id, prefs: row.prefs, audit: row.audit ? { modify: row.audit.modify } : undefined } };
}

export async function putSession(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'capture/session/putSession'>,
): Promise<CallResponse<'capture/session/putSession'>> {
  const row = await sessionOf(deps, auth, body.sessionToken);
  const audit = auditStamp(auth.accountId, row.audit);
  await saveSessionPrefs(deps.db, row.id, body.session.prefs, audit);
  return { session: { sessionId: row.id, prefs: body.session.prefs, audit: { modify: audit.modify } } };
}
