import { and, eq, inArray } from 'drizzle-orm';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { badToken, dbError, forbidden } from '../../lib/errors.ts';
import { normaliseLevel, visibleFeatures, type FeatureLevel, type VisibleFeatures } from '@floorhand/contract/features';
import { featureAccess, sessions } from '../../db/schema.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';

/** Feature access rows under this role name apply to every account of the site. */
export const EVERYONE_ROLE = '*';

/** Starts (or restarts) the session of the token's account: one per account, site and app. */
export async function genSessionToken(deps: Deps, auth: AuthContext, body: CallArgs<'capture/session/genSessionToken'>): Promise<CallResponse<'capture/session/genSessionToken'>> {
  if (body.userId !== undefined && body.userId !== auth.accountId) {
    throw forbidden('A session can only be started for the logged-in account');
  }
  const [row] = await deps.db
    .insert(sessions)
    .values({ id: newId(), accountId: auth.accountId, siteId: auth.siteId, appId: auth.appId, audit: auditStamp(auth.accountId) })
    .onConflictDoUpdate({ target: [sessions.accountId, sessions.siteId, sessions.appId], set: { startedAt: new Date() } })
    .returning({ id: sessions.id });
  if (!row) throw dbError('The session could not be started');
  const lifetime = Math.max(1, auth.claims.exp - Math.floor(Date.now() / 1000));
  const sessionToken = await deps.tokens.signSession({ sub: auth.accountId, sid: row.id, site: auth.siteId, app: auth.appId }, lifetime);
  return { sessionToken };
}

async function sessionOf(deps: Deps, auth: AuthContext, sessionToken: string) {
  const claims = await deps.tokens.verifySession(sessionToken);
  if (claims.sub !== auth.accountId || claims.site !== auth.siteId) {
    throw forbidden('This session belongs to another account');
  }
  const [row] = await deps.db.select().from(sessions).where(eq(sessions.id, claims.sid));
  if (!row) throw badToken('The session no longer exists');
  return row;
}

export async function getVisibleFeatures(deps: Deps, auth: AuthContext, sessionToken: string): Promise<CallResponse<'site/access/getVisibleFeatures'>> {
  await sessionOf(deps, auth, sessionToken);
  return { visibleFeatures: await visibleFeaturesOf(deps, auth) };
}

/**
 * Refuses a call unless the caller's roles give every one of the features: the server enforces what
 * the menus and guards show, so a hidden action cannot be called directly either.
 */
export async function requireFeatures(deps: Deps, auth: AuthContext, ...features: string[]): Promise<void> {
  const visible = await visibleFeaturesOf(deps, auth);
  const missing = features.find((f) => visible[f] === false);
  if (missing) throw forbidden(`Your roles do not give access to '${missing}'`);
}

/**
 * Feature access per authentication: an AuthContext lives in the node's auth cache (lib/auth-cache.ts)
 * for at most AUTH_CACHE_MS and is dropped with it, by every call that changes accounts, roles or
 * feature access (changesAuth), so what it answers is as fresh as the authentication itself. Every
 * stock write asked the database for it again (one round trip of a dozen; docs/inventory.md).
 */
const featuresOf = new WeakMap<AuthContext, Promise<VisibleFeatures>>();

function visibleFeaturesOf(deps: Deps, auth: AuthContext): Promise<VisibleFeatures> {
  let known = featuresOf.get(auth);
  if (!known) {
    known = loadVisibleFeatures(deps, auth);
    featuresOf.set(auth, known);
    // A failed read is not remembered.
    known.catch(() => featuresOf.delete(auth));
  }
  return known;
}

async function loadVisibleFeatures(deps: Deps, auth: AuthContext): Promise<VisibleFeatures> {
  const roles = [EVERYONE_ROLE, ...auth.perms.roles];
  const rows = await deps.db
    .select()
    .from(featureAccess)
    .where(and(eq(featureAccess.siteId, auth.siteId), eq(featureAccess.appId, auth.appId), inArray(featureAccess.role, roles)));
  const levels: Record<string, Record<string, FeatureLevel>> = {};
  for (const r of rows) (levels[r.role] ??= {})[r.feature] = normaliseLevel(r.level);
  return visibleFeatures(levels, roles);
}

export async function getSession(deps: Deps, auth: AuthContext, sessionToken: string): Promise<CallResponse<'capture/session/getSession'>> {
  const row = await sessionOf(deps, auth, sessionToken);
  return { session: { sessionId: row.id, prefs: row.prefs, audit: row.audit ? { modify: row.audit.modify } : undefined } };
}

export async function putSession(deps: Deps, auth: AuthContext, body: CallArgs<'capture/session/putSession'>): Promise<CallResponse<'capture/session/putSession'>> {
  const row = await sessionOf(deps, auth, body.sessionToken);
  const audit = auditStamp(auth.accountId, row.audit);
  await deps.db.update(sessions).set({ prefs: body.session.prefs, audit }).where(eq(sessions.id, row.id));
  return { session: { sessionId: row.id, prefs: body.session.prefs, audit: { modify: audit.modify } } };
}
