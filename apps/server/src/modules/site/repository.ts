import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { SiteDataRow, SiteRow } from '../../lib/site-data.ts';
import { siteData, sites } from '../../db/schema.ts';

export async function listSites(db: Db): Promise<SiteRow[]> {
  return db.select().from(sites);
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
