import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountPerms, accounts, auditLog, featureAccess, roles, sites, workstations, type AuditStamp } from '../../db/schema.ts';

// Every query is scoped by organisation (accounts, roles, audit) or by site (feature access,
// workstations); the service passes the ids of the caller's token, never ids from a request body.

export type AccountRow = typeof accounts.$inferSelect;
export type PermsRow = typeof accountPerms.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type WorkstationRow = typeof workstations.$inferSelect;

export async function orgSites(db: Db, orgId: string) {
  return db.select({ id: sites.id, name: sites.name, hosts: sites.hostPatterns }).from(sites).where(eq(sites.orgId, orgId)).orderBy(sites.id);
}

export async function orgSiteIds(db: Db, orgId: string): Promise<string[]> {
  const rows = await db.select({ id: sites.id }).from(sites).where(eq(sites.orgId, orgId)).orderBy(sites.id);
  return rows.map((r) => r.id);
}

export async function findOrgAccount(db: Db, orgId: string, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)));
  return row;
}

/** Another account of the organisation with this user name (any case) or badge code. */
export async function findClash(db: Db, orgId: string, exceptId: string | null, userName?: string, badgeCode?: string | null) {
  const tests: SQL[] = [];
  if (userName) tests.push(eq(sql`lower(${accounts.userName})`, userName.toLowerCase()));
  if (badgeCode) tests.push(eq(accounts.badgeCode, badgeCode));
  if (!tests.length) return undefined;
  const rows = await db.select().from(accounts).where(and(eq(accounts.orgId, orgId), or(...tests)));
  return rows.find((r) => r.id !== exceptId);
}

export async function listAccounts(db: Db, orgId: string, q: { search?: string; includeInactive: boolean; offset: number; limit: number }) {
  const term = q.search?.trim();
  const like = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    eq(accounts.orgId, orgId),
    q.includeInactive ? undefined : eq(accounts.active, true),
    like
      ? or(ilike(accounts.userName, like), ilike(accounts.firstName, like), ilike(accounts.surnames, like), ilike(accounts.email, like), ilike(accounts.badgeCode, like))
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(accounts).where(where).orderBy(sql`lower(${accounts.userName})`).offset(q.offset).limit(q.limit),
    db.select({ n: count() }).from(accounts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function insertAccount(db: Db, row: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [out] = await db.insert(accounts).values(row).returning();
  return out!;
}

export async function updateAccount(db: Db, orgId: string, id: string, set: Partial<typeof accounts.$inferInsert>): Promise<AccountRow | undefined> {
  const [out] = await db.update(accounts).set(set).where(and(eq(accounts.orgId, orgId), eq(accounts.id, id))).returning();
  return out;
}

export async function upsertPerms(db: Db, row: typeof accountPerms.$inferInsert): Promise<void> {
  const { accountId: _a, siteId: _s, appId: _p, ...set } = row;
  await db
    .insert(accountPerms)
    .values(row)
    .onConflictDoUpdate({ target: [accountPerms.accountId, accountPerms.siteId, accountPerms.appId], set });
}

/** Every perms row of the organisation's accounts with the account's name, for role holders and renames. */
export async function orgPerms(db: Db, orgId: string, appId: string) {
  return db
    .select({ perms: accountPerms, userName: accounts.userName, firstName: accounts.firstName, surnames: accounts.surnames, active: accounts.active })
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

export async function listRoles(db: Db, orgId: string): Promise<RoleRow[]> {
  return db.select().from(roles).where(eq(roles.orgId, orgId)).orderBy(desc(roles.builtIn), roles.name);
}

export async function findRole(db: Db, orgId: string, name: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
  return row;
}

/** Role names compare without case, so 'Picker' and 'picker' cannot both exist. */
export async function findRoleAnyCase(db: Db, orgId: string, name: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(and(eq(roles.orgId, orgId), eq(sql`lower(${roles.name})`, name.toLowerCase())));
  return row;
}

export async function insertRole(db: Db, row: typeof roles.$inferInsert): Promise<RoleRow> {
  const [out] = await db.insert(roles).values(row).returning();
  return out!;
}

export async function updateRole(db: Db, orgId: string, name: string, set: Partial<typeof roles.$inferInsert>): Promise<void> {
  await db.update(roles).set(set).where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
}

export async function deleteRole(db: Db, orgId: string, name: string): Promise<void> {
  await db.delete(roles).where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
}

export async function renameFeatureRole(db: Db, siteIds: string[], from: string, to: string): Promise<void> {
  if (siteIds.length) await db.update(featureAccess).set({ role: to }).where(and(inArray(featureAccess.siteId, siteIds), eq(featureAccess.role, from)));
}

export async function deleteFeatureRole(db: Db, siteIds: string[], role: string): Promise<void> {
  if (siteIds.length) await db.delete(featureAccess).where(and(inArray(featureAccess.siteId, siteIds), eq(featureAccess.role, role)));
}

export async function featureRows(db: Db, siteId: string, appId: string) {
  return db.select().from(featureAccess).where(and(eq(featureAccess.siteId, siteId), eq(featureAccess.appId, appId)));
}

/** Replaces the site's whole grid. */
export async function replaceFeatureRows(db: Db, siteId: string, appId: string, rows: Array<{ role: string; feature: string; level: number }>, audit: AuditStamp) {
  await db.delete(featureAccess).where(and(eq(featureAccess.siteId, siteId), eq(featureAccess.appId, appId)));
  if (rows.length) await db.insert(featureAccess).values(rows.map((r) => ({ ...r, siteId, appId, audit })));
}

export async function listWorkstations(db: Db, siteId: string) {
  return db
    .select({ ws: workstations, lastUserName: accounts.userName })
    .from(workstations)
    .leftJoin(accounts, eq(accounts.id, workstations.lastAccountId))
    .where(eq(workstations.siteId, siteId))
    .orderBy(desc(workstations.lastSeen), workstations.id);
}

export async function findWorkstation(db: Db, siteId: string, id: string): Promise<WorkstationRow | undefined> {
  const [row] = await db.select().from(workstations).where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)));
  return row;
}

export async function upsertWorkstation(db: Db, siteId: string, id: string, set: { timeclock: boolean; kiosk: boolean; secretHash?: string | null; audit: AuditStamp }) {
  const [row] = await db
    .insert(workstations)
    .values({ siteId, id, ...set })
    .onConflictDoUpdate({ target: [workstations.siteId, workstations.id], set })
    .returning();
  return row!;
}

/** Deletes a workstation; returns what it was, or undefined when there was none. */
export async function deleteWorkstation(db: Db, siteId: string, id: string): Promise<WorkstationRow | undefined> {
  const [row] = await db.delete(workstations).where(and(eq(workstations.siteId, siteId), eq(workstations.id, id))).returning();
  return row;
}

/** A new pairing code for a workstation, seen now (added when new). */
export async function setPairCode(db: Db, siteId: string, id: string, set: { pairCode: string; pairExpires: Date; pairApproved: false; lastAccountId: string; audit: AuditStamp }) {
  const { audit, ...pairing } = set;
  await db
    .insert(workstations)
    .values({ siteId, id, ...pairing, audit })
    .onConflictDoUpdate({ target: [workstations.siteId, workstations.id], set: { ...pairing, lastSeen: new Date() } });
}

export async function findByPairCode(db: Db, siteId: string, code: string): Promise<WorkstationRow | undefined> {
  const [row] = await db.select().from(workstations).where(and(eq(workstations.siteId, siteId), eq(workstations.pairCode, code)));
  return row;
}

export async function approvePairing(db: Db, siteId: string, id: string, set: { timeclock: boolean; kiosk: boolean; audit: AuditStamp }) {
  const [row] = await db
    .update(workstations)
    .set({ ...set, pairApproved: true })
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)))
    .returning();
  return row!;
}

/** Spends an approved code and stores the device's secret; undefined when the code was spent already. */
export async function claimPairing(db: Db, siteId: string, id: string, code: string, secretHash: string): Promise<WorkstationRow | undefined> {
  const [row] = await db
    .update(workstations)
    .set({ secretHash, pairCode: null, pairExpires: null, pairApproved: false })
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id), eq(workstations.pairCode, code), eq(workstations.pairApproved, true)))
    .returning();
  return row;
}

/** Newest first; one row more than asked tells whether there is a next page. */
export async function listAudit(db: Db, orgId: string, q: { siteId?: string; entity?: string; offset: number; limit: number }) {
  return db
    .select({ entry: auditLog, userName: accounts.userName })
    .from(auditLog)
    .leftJoin(accounts, eq(accounts.id, auditLog.accountId))
    .where(and(eq(auditLog.orgId, orgId), q.siteId ? eq(auditLog.siteId, q.siteId) : undefined, q.entity ? eq(auditLog.entity, q.entity) : undefined))
    .orderBy(desc(auditLog.ts), desc(auditLog.id))
    .offset(q.offset)
    .limit(q.limit + 1);
}
