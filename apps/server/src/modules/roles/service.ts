import type { CallArgs } from '@floorhand/contract/api';
import { FEATURES, isFeature, normaliseLevel } from '@floorhand/contract/features';
import { EVERYONE, type FeatureGrid } from '@floorhand/contract/roles';
import { isUniqueViolation } from '../../db/errors.ts';
import { orgRoles, orgSiteIds } from '../../db/organisation.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, dup, forbidden, notFound } from '../../lib/errors.ts';
import { audit, guardedWrite, requireAdmin, requireOrgAdmin, visibleSites, type Actor, type R } from '../../lib/admins.ts';
import * as repo from './repository.ts';

// Roles and feature access (docs/admin.md): roles belong to the organisation, feature access to a
// site. Every call is scoped to the organisation and site of the caller's token.

async function rolesView(deps: Deps, auth: AuthContext, actor: Actor) {
  const [roles, perms, orgSites] = await Promise.all([
    orgRoles(deps.db, auth.orgId),
    repo.orgPerms(deps.db, auth.orgId, auth.appId),
    orgSiteIds(deps.db, auth.orgId),
  ]);
  const sites = visibleSites(actor, orgSites);
  return roles.map((r) => ({
    name: r.name,
    description: r.description,
    builtIn: r.builtIn,
    holders: perms
      .filter((p) => sites.includes(p.perms.siteId) && p.perms.roles.includes(r.name))
      .map((p) => ({
        accountId: p.perms.accountId,
        userName: p.userName,
        fullName: [p.firstName, p.surnames].filter(Boolean).join(' '),
        siteId: p.perms.siteId,
        active: p.active,
      }))
      .sort((a, b) => a.userName.localeCompare(b.userName)),
  }));
}

export async function listRoles(deps: Deps, auth: AuthContext): R<'admin/role/list'> {
  return { roles: await rolesView(deps, auth, requireAdmin(auth)) };
}

async function roleOut(deps: Deps, auth: AuthContext, actor: Actor, name: string) {
  return (await rolesView(deps, auth, actor)).find((r) => r.name === name);
}

export async function createRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/create'>): R<'admin/role/create'> {
  const actor = requireOrgAdmin(auth);
  if (await repo.findRoleAnyCase(deps.db, auth.orgId, body.name)) throw dup('role', body.name);
  await guardedWrite(
    () =>
      repo.insertRole(deps.db, {
        orgId: auth.orgId,
        name: body.name,
        description: body.description ?? '',
        builtIn: false,
        audit: auditStamp(auth.accountId),
      }),
    `The role name '${body.name}'`,
  );
  await audit(deps, auth, 'admin/role/create', 'role', body.name, null, { name: body.name, description: body.description ?? '' });
  return { role: await roleOut(deps, auth, actor, body.name) };
}

async function customRole(deps: Deps, auth: AuthContext, name: string, change: 'rename' | 'remove') {
  const role = await repo.findRole(deps.db, auth.orgId, name);
  if (!role) throw notFound(`The role '${name}' was not found`);
  if (role.builtIn) {
    throw forbidden(
      change === 'rename' ? `The built-in role '${name}' cannot be renamed.` : `The built-in role '${name}' cannot be removed.`,
    );
  }
  return role;
}

/** Rewrites one role name in every perms row of the organisation (to null: removes it); answers how many rows changed. */
async function rewriteRole(tx: Deps['db'], auth: AuthContext, from: string, to: string | null): Promise<number> {
  let changed = 0;
  for (const { perms } of await repo.orgPerms(tx, auth.orgId, auth.appId)) {
    if (!perms.roles.includes(from)) continue;
    const next = to === null ? perms.roles.filter((r) => r !== from) : [...new Set(perms.roles.map((r) => (r === from ? to : r)))];
    await repo.setPermsRoles(tx, perms, next, auditStamp(auth.accountId, perms.audit));
    changed++;
  }
  return changed;
}

async function announceToOrg(deps: Deps, orgId: string): Promise<void> {
  for (const siteId of await orgSiteIds(deps.db, orgId)) deps.realtime.emit(siteId, 'featureAccessChanged', { siteId });
}

export async function renameRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/rename'>): R<'admin/role/rename'> {
  const actor = requireOrgAdmin(auth);
  const role = await customRole(deps, auth, body.name, 'rename');
  const clash = await repo.findRoleAnyCase(deps.db, auth.orgId, body.newName);
  if (clash && clash.name !== role.name) throw dup('role', body.newName);
  const description = body.description ?? role.description;
  const sites = await orgSiteIds(deps.db, auth.orgId);
  await deps.db
    .transaction(async (tx) => {
      await repo.updateRole(tx, auth.orgId, role.name, { name: body.newName, description, audit: auditStamp(auth.accountId, role.audit) });
      if (body.newName !== role.name) {
        await rewriteRole(tx, auth, role.name, body.newName);
        await repo.renameFeatureRole(tx, sites, role.name, body.newName);
      }
    })
    .catch((e: unknown) => {
      // Another rename to the same name committed between the check above and this one.
      throw isUniqueViolation(e) ? dup('role', body.newName) : e;
    });
  await audit(
    deps,
    auth,
    'admin/role/rename',
    'role',
    role.name,
    { name: role.name, description: role.description },
    { name: body.newName, description },
  );
  await announceToOrg(deps, auth.orgId);
  return { role: await roleOut(deps, auth, actor, body.newName) };
}

export async function removeRole(deps: Deps, auth: AuthContext, body: CallArgs<'admin/role/remove'>): R<'admin/role/remove'> {
  const actor = requireOrgAdmin(auth);
  const role = await customRole(deps, auth, body.name, 'remove');
  const before = await roleOut(deps, auth, actor, role.name);
  const sites = await orgSiteIds(deps.db, auth.orgId);
  const removedFrom = await deps.db.transaction(async (tx) => {
    const n = await rewriteRole(tx, auth, role.name, null);
    await repo.deleteFeatureRole(tx, sites, role.name);
    await repo.deleteRole(tx, auth.orgId, role.name);
    return n;
  });
  await audit(deps, auth, 'admin/role/remove', 'role', role.name, before, null);
  await announceToOrg(deps, auth.orgId);
  return { removedFrom };
}

// ---------------------------------------------------------------------------------------------
// Feature access (per site)

async function grid(deps: Deps, auth: AuthContext): Promise<FeatureGrid> {
  const [roles, rows] = await Promise.all([orgRoles(deps.db, auth.orgId), repo.featureRows(deps.db, auth.siteId, auth.appId)]);
  const names = [EVERYONE, ...roles.map((r) => r.name)];
  const levels: FeatureGrid['levels'] = {};
  for (const r of rows) {
    const level = normaliseLevel(r.level);
    if (level !== null && names.includes(r.role) && isFeature(r.feature)) (levels[r.role] ??= {})[r.feature] = level;
  }
  return { features: [...FEATURES], roles: names, levels };
}

export async function getFeatureAccess(deps: Deps, auth: AuthContext): R<'admin/featureAccess/get'> {
  requireAdmin(auth);
  return { grid: await grid(deps, auth) };
}

export async function putFeatureAccess(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'admin/featureAccess/put'>,
): R<'admin/featureAccess/put'> {
  requireAdmin(auth);
  const before = await grid(deps, auth);
  const rows: Array<{ role: string; feature: string; level: number }> = [];
  for (const [role, cells] of Object.entries(body.levels)) {
    if (!before.roles.includes(role)) throw badInput(`There is no role '${role}'.`);
    for (const [feature, raw] of Object.entries(cells)) {
      if (!isFeature(feature)) throw badInput(`There is no feature '${feature}'.`);
      const level = normaliseLevel(raw);
      if (level !== null) rows.push({ role, feature, level });
    }
  }
  await deps.db.transaction((tx) => repo.replaceFeatureRows(tx, auth.siteId, auth.appId, rows, auditStamp(auth.accountId)));
  const after = await grid(deps, auth);
  await audit(deps, auth, 'admin/featureAccess/put', 'featureAccess', auth.siteId, before.levels, after.levels);
  // Every session of the site reloads its visible features at once; menus and guards follow.
  deps.realtime.emit(auth.siteId, 'featureAccessChanged', { siteId: auth.siteId });
  return { grid: after };
}
