import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';

type Audit = typeof sessions.$inferSelect.audit;
export type SessionRow = typeof sessions.$inferSelect;

/** Starts the session of an account on a site and app, or restarts the one it has; its id. */
export async function upsertSession(
  db: Db,
  s: { id: string; accountId: string; siteId: string; appId: string; audit: Audit },
): Promise<string | undefined> {
  const [row] = await db
    .insert(sessions)
    .values(s)
    .onConflictDoUpdate({ target: [sessions.accountId, sessions.siteId, sessions.appId], set: { startedAt: new Date() } })
    .returning({ id: sessions.id });
  return row?.id;
}

export async function sessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}

export async function saveSessionPrefs(db: Db, id: string, prefs: SessionRow['prefs'], audit: Audit): Promise<void> {
  await db.update(sessions).set({ prefs, audit }).where(eq(sessions.id, id));
}
