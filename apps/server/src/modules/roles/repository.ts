import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountPerms, accounts, featureAccess, roles, type AuditStamp } from '../../db/schema.ts';
import type { PermsRow } from '../../db/accounts.ts';
import type { RoleRow } from '../../db/organisation.ts';

// Roles are the organisation's, feature access is per site; the service passes the ids of the caller's
// token, never ids from a request body.

/** Every perms row of the organisation's accounts with the account's name, for role holders and renames. */
export async function orgPerms(db: Db, orgId: string, appId: string) {
  return db
    .select({
      perms: accountPerms,
      userName: accounts.userName,
      firstName: accounts.firstName,
      surnames: accounts.surnames,
      active: accounts.active,
    })
    .from(accountPerms)
    .innerJoin(accounts, eq(accounts.id, accountPerms.accountId))
    .where(and(eq(accounts.orgId, orgId), eq(accountPerms.appId, appId)));
}

export async function setPermsRoles(db: Db, row: PermsRow, newRoles: string[], audit: AuditStamp): Promise<void> {
  await db
    .update(accountPerms)
    .set({ roles: newRoles, audit })
    .where(and(eq(accountPerms.accountId, row.accountId), eq(accountPerms.siteId, row.siteId), eq(accountPerms.appId, row.appId)));
}

export async function findRole(db: Db, orgId: string, name: string): Promise<RoleRow | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
  return row;
}

/** Role names compare without case, so 'Picker' and 'picker' cannot both exist. */
export async function findRoleAnyCase(db: Db, orgId: string, name: string): Promise<RoleRow | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.orgId, orgId), eq(sql`lower(${roles.name})`, name.toLowerCase())));
  return row;
}

export async function insertRole(db: Db, row: typeof roles.$inferInsert): Promise<RoleRow> {
  const [out] = await db.insert(roles).values(row).returning();
  return out!;
}

export async function updateRole(db: Db, orgId: string, name: string, set: Partial<typeof roles.$inferInsert>): Promise<void> {
  await db
    .update(roles)
    .set(set)
    .where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
}

export async function deleteRole(db: Db, orgId: string, name: string): Promise<void> {
  await db.delete(roles).where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
}

export async function renameFeatureRole(db: Db, siteIds: string[], from: string, to: string): Promise<void> {
  if (siteIds.length)
    await db
      .update(featureAccess)
      .set({ role: to })
      .where(and(inArray(featureAccess.siteId, siteIds), eq(featureAccess.role, from)));
}

export async function deleteFeatureRole(db: Db, siteIds: string[], role: string): Promise<void> {
  if (siteIds.length) await db.delete(featureAccess).where(and(inArray(featureAccess.siteId, siteIds), eq(featureAccess.role, role)));
}

export async function featureRows(db: Db, siteId: string, appId: string) {
  return db
    .select()
    .from(featureAccess)
    .where(and(eq(featureAccess.siteId, siteId), eq(featureAccess.appId, appId)));
}

/** Replaces the site's whole grid. */
export async function replaceFeatureRows(
  db: Db,
  siteId: string,
  appId: string,
  rows: Array<{ role: string; feature: string; level: number }>,
  audit: AuditStamp,
) {
  await db.delete(featureAccess).where(and(eq(featureAccess.siteId, siteId), eq(featureAccess.appId, appId)));
  if (rows.length) await db.insert(featureAccess).values(rows.map((r) => ({ ...r, siteId, appId, audit })));
}
