import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys, revokedTokens } from '../../db/schema.ts';
import { query } from '../../db/sql.ts';

/** Deletes the idempotency keys made before `cutoff`; how many. */
export async function deleteKeysBefore(db: Db, cutoff: Date): Promise<number> {
  const keys = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).returning({ key: idempotencyKeys.key });
  return keys.length;
}

/** Deletes the revocations of tokens expired by `now`; how many. */
export async function deleteRevocationsExpiredBy(db: Db, now: Date): Promise<number> {
  const revoked = await db
    .delete(revokedTokens)
    .where(lt(revokedTokens.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ jti: revokedTokens.jti });
  return revoked.length;
}

/** Deletes the time-clock photos (purpose clockPhoto) taken before `cutoff` that no punch refers to; how many. */
export async function deleteOrphanClockPhotosBefore(db: Db, cutoff: string): Promise<number> {
  const rows = await query<{ id: string }>(
    db,
    sql`DELETE FROM media m WHERE m.purpose = 'clockPhoto' AND (m.audit->'create'->>'ts')::timestamptz < ${cutoff}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM punches p WHERE p.photo_media_id = m.id) RETURNING m.id`,
  );
  return rows.length;
}
