import { desc, eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { roles, sites } from './schema.ts';

// The organisation's sites and roles, which every administration module reads (accounts, roles,
// site-admin): who may act where, and which role names exist.

export type RoleRow = typeof roles.$inferSelect;

export async function orgSites(db: Db, orgId: string) {
  return db
    .select({ id: sites.id, name: sites.name, hosts: sites.hostPatterns })
    .from(sites)
    .where(eq(sites.orgId, orgId))
    .orderBy(sites.id);
}

export async function orgSiteIds(db: Db, orgId: string): Promise<string[]> {
  const rows = await db.select({ id: sites.id }).from(sites).where(eq(sites.orgId, orgId)).orderBy(sites.id);
  return rows.map((r) => r.id);
}

export async function orgRoles(db: Db, orgId: string): Promise<RoleRow[]> {
  return db.select().from(roles).where(eq(roles.orgId, orgId)).orderBy(desc(roles.builtIn), roles.name);
}
