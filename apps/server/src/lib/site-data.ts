// A site and its site data (settings, brand, reason lists), read by every module that applies them;
// the site module writes them (modules/site).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { siteData, sites } from '../db/schema.ts';

export type SiteRow = typeof sites.$inferSelect;
export type SiteDataRow = typeof siteData.$inferSelect;

export async function findSite(db: Db, id: string): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  return row;
}

export async function findSiteData(db: Db, siteId: string, section: string, dataId: string): Promise<SiteDataRow | undefined> {
  const [row] = await db
    .select()
    .from(siteData)
    .where(and(eq(siteData.siteId, siteId), eq(siteData.section, section), eq(siteData.dataId, dataId)));
  return row;
}
