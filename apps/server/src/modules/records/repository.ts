/*
 * The records table: one row per record of a registered entity, keyed by organisation, type and _id.
 * Database failures leave here as the spec's codes: a unique violation as DuplicateKeyError (the
 * service words the DUP message, it knows the entity), anything else as DB_ERR whose cause is logged
 * by the error handler but never sent.
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { records } from '../../db/schema.ts';
import { guarded } from '../../db/errors.ts';

export type RecordRow = typeof records.$inferSelect;

export interface RecordKey {
  orgId: string;
  type: string;
  id: string;
}

const whereKey = (key: RecordKey) => and(eq(records.orgId, key.orgId), eq(records.type, key.type), eq(records.id, key.id));

/** The inserted row; undefined when none was inserted. Throws DuplicateKeyError when the key exists. */
export function insertRecordRow(db: Db, row: typeof records.$inferInsert): Promise<RecordRow | undefined> {
  return guarded(async () => (await db.insert(records).values(row).returning())[0]);
}

/** Replaces data and audit only while the stored revision is still `rev`; undefined when it is not. */
export function updateRecordRow(
  db: Db,
  key: RecordKey,
  rev: number,
  set: Pick<RecordRow, 'data' | 'audit'>,
): Promise<RecordRow | undefined> {
  return guarded(
    async () =>
      (
        await db
          .update(records)
          .set({ ...set, rev: rev + 1 })
          .where(and(whereKey(key), eq(records.rev, rev)))
          .returning()
      )[0],
  );
}

export function findRecordRow(db: Db, key: RecordKey): Promise<RecordRow | undefined> {
  return guarded(async () => (await db.select().from(records).where(whereKey(key)))[0]);
}

/** Up to `limit` rows of one type in one organisation, ordered by _id, after the given _id. */
export function listRecordRows(db: Db, orgId: string, type: string, page: { after?: string; limit: number }): Promise<RecordRow[]> {
  return guarded(() =>
    db
      .select()
      .from(records)
      .where(and(eq(records.orgId, orgId), eq(records.type, type), page.after === undefined ? undefined : gt(records.id, page.after)))
      .orderBy(asc(records.id))
      .limit(page.limit),
  );
}
