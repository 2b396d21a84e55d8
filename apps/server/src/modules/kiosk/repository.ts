import type { Db } from '../../db/client.ts';
import { and, eq } from 'drizzle-orm';
import { accounts, kioskSessions } from '../../db/schema.ts';

export async function insertKioskSession(db: Db, row: typeof kioskSessions.$inferInsert): Promise<void> {
  await db.insert(kioskSessions).values(row);
}

export async function workerOf(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select({ id: accounts.id, userName: accounts.userName, firstName: accounts.firstName, surnames: accounts.surnames })
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)));
  return row;
}
