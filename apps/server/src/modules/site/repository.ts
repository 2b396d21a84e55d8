import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { siteData, sites } from '../../db/schema.ts';

export type SiteRow = typeof sites.$inferSelect;
export type SiteDataRow = typeof siteData.$inferSelect;

export async function findSite(db: Db, id: string): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  return row;
}

export async function listSites(db: Db): Promise<SiteRow[]> {
  return db.select().from(sites);
}

export async function findSiteData(db: Db, siteId: string, section: string, dataId: string): Promise<SiteDataRow | undefined> {
  const [row] = await db
    .select()
    .from(siteData)
    .where(and(eq(siteData.siteId, siteId), eq(siteData.section, section), eq(siteData.dataId, dataId)));
  return row;
}

export async function insertSiteData(db: Db, row: typeof siteData.$inferInsert): Promise<SiteDataRow | undefined> {
  const [out] = await db.insert(siteData).values(row).onConflictDoNothing().returning();
  return out;
}

/** Updates only when the stored revision is still `rev`; returns undefined when it is not. */
export async function updateSiteData(
  db: Db,
  id: string,
  rev: number,
  set: Pick<SiteDataRow, 'data' | 'audit'>,
): Promise<SiteDataRow | undefined> {
  const [out] = await db
    .update(siteData)
    .set({ ...set, rev: rev + 1 })
    .where(and(eq(siteData.id, id), eq(siteData.rev, rev)))
    .returning();
  return out;
}
