import { and, eq, inArray } from 'drizzle-orm';
import { EVERYONE } from '@floorhand/contract/roles';
import { normaliseLevel, visibleFeatures, type Feature, type FeatureLevel, type VisibleFeatures } from '@floorhand/contract/features';
import type { Db } from '../db/client.ts';
import { featureAccess } from '../db/schema.ts';
import type { AuthContext } from './auth-context.ts';
import { forbidden } from './errors.ts';

/**
 * Refuses a call unless the caller's roles give every one of the features: the server enforces what
 * the menus and guards show, so a hidden action cannot be called directly either.
 */
export async function requireFeatures(deps: { db: Db }, auth: AuthContext, ...features: Feature[]): Promise<void> {
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

export function visibleFeaturesOf(deps: { db: Db }, auth: AuthContext): Promise<VisibleFeatures> {
  let known = featuresOf.get(auth);
  if (!known) {
    known = loadVisibleFeatures(deps, auth);
    featuresOf.set(auth, known);
    // A failed read is not remembered.
    known.catch(() => featuresOf.delete(auth));
  }
  return known;
}

/** A row of feature_access: a role's level of a feature on the caller's site and app. */
export interface FeatureAccessRow {
  role: string;
  feature: string;
  level: number | null;
}

/** What the caller's roles give, from the feature_access rows of its site, app and roles. */
function featuresFrom(auth: AuthContext, rows: readonly FeatureAccessRow[]): VisibleFeatures {
  const roles = [EVERYONE, ...auth.perms.roles];
  // Role and feature names are data: objects without a prototype, so '__proto__' is a name like any other.
  const levels: Record<string, Record<string, FeatureLevel>> = Object.create(null);
  for (const r of rows) (levels[r.role] ??= Object.create(null))[r.feature] = normaliseLevel(r.level);
  return visibleFeatures(levels, roles);
}

/**
 * Feature access read with the authentication itself (auth-context.ts reads the rows in its own
 * statement): one round trip for both where there were two on every miss of the auth cache.
 */
export function rememberFeatures(auth: AuthContext, rows: readonly FeatureAccessRow[]): void {
  featuresOf.set(auth, Promise.resolve(featuresFrom(auth, rows)));
}

/** Feature access read on its own (an API key, a kiosk worker: authentications whose statement does not read it). */
export async function loadVisibleFeatures(deps: { db: Db }, auth: AuthContext): Promise<VisibleFeatures> {
  const rows = await deps.db
    .select({ role: featureAccess.role, feature: featureAccess.feature, level: featureAccess.level })
    .from(featureAccess)
    .where(
      and(
        eq(featureAccess.siteId, auth.siteId),
        eq(featureAccess.appId, auth.appId),
        inArray(featureAccess.role, [EVERYONE, ...auth.perms.roles]),
      ),
    );
  return featuresFrom(auth, rows);
}
