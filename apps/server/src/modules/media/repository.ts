import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { media } from '../../db/schema.ts';

export async function insertMedia(db: Db, row: typeof media.$inferInsert): Promise<void> {
  await db.insert(media).values(row);
}

/** A picture of the organisation by id, with the site it belongs to (null: the whole organisation's). */
export async function pictureById(db: Db, orgId: string, mediaId: string) {
  const [row] = await db
    .select({ id: media.id, contentType: media.contentType, bytes: media.bytes, purpose: media.purpose, siteId: media.siteId })
    .from(media)
    .where(and(eq(media.id, mediaId), eq(media.orgId, orgId)));
  return row;
}
