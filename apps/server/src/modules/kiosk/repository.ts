import type { Db } from '../../db/client.ts';
import { kioskSessions } from '../../db/schema.ts';

export async function insertKioskSession(db: Db, row: typeof kioskSessions.$inferInsert): Promise<void> {
  await db.insert(kioskSessions).values(row);
}
