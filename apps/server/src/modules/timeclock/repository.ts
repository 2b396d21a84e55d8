import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, badgePins, media, punches } from '../../db/schema.ts';
import { isoSql, query } from '../../db/sql.ts';
import type { AuditStamp } from '../../db/schema.ts';

export type PunchInsert = typeof punches.$inferInsert;

/** A punch row as answered (times as ISO text in UTC). */
export interface PunchOut {
  id: string;
  accountId: string;
  kind: 'in' | 'out' | 'void';
  at: string;
  serverTs: string;
  clientTs: string | null;
  deviceId: string | null;
  photoMediaId: string | null;
  source: 'clock' | 'missed' | 'correction';
  status: 'valid' | 'pending';
  replacesId: string | null;
  reason: string | null;
  approvedBy: string | null;
}

const punchColumns = sql`p.id, p.account_id AS "accountId", p.kind, ${isoSql(sql`p.at`)} AS at, ${isoSql(sql`p.server_ts`)} AS "serverTs",
  CASE WHEN p.client_ts IS NULL THEN NULL ELSE ${isoSql(sql`p.client_ts`)} END AS "clientTs", p.device_id AS "deviceId",
  p.photo_media_id AS "photoMediaId", p.source, p.status, p.replaces_id AS "replacesId", p.reason, p.approved_by AS "approvedBy"`;

/** Not replaced by a later record. */
const current = sql`NOT EXISTS (SELECT 1 FROM punches r WHERE r.replaces_id = p.id)`;

export async function findBadge(db: Db, orgId: string, badge: string) {
  const [row] = await db
    .select({ id: accounts.id, firstName: accounts.firstName, surnames: accounts.surnames, userName: accounts.userName, active: accounts.active, pinHash: badgePins.pinHash })
    .from(accounts)
    .leftJoin(badgePins, eq(badgePins.accountId, accounts.id))
    .where(and(eq(accounts.orgId, orgId), eq(accounts.badgeCode, badge)));
  return row;
}

/** The last punch that counts (valid, not replaced, not void) at or before `at`. */
export async function lastEffectivePunch(db: Db, orgId: string, accountId: string, at?: string): Promise<PunchOut | undefined> {
  const [row] = await query<PunchOut>(
    db,
    sql`SELECT ${punchColumns} FROM punches p
      WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.status = 'valid' AND p.kind <> 'void' AND ${current}
      ${at ? sql`AND p.at <= ${at}` : sql``}
      ORDER BY p.at DESC, p.server_ts DESC LIMIT 1`,
  );
  return row;
}

/** Pending rows (not yet replaced) of a worker after `after`. */
export async function hasPendingAfter(db: Db, orgId: string, accountId: string, after: string): Promise<boolean> {
  const rows = await query<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM punches p WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.status = 'pending' AND p.at > ${after} AND ${current} LIMIT 1`,
  );
  return rows.length > 0;
}

/** A worker's current records (valid or pending, not replaced) from `from`, oldest first. */
export async function punchesSince(db: Db, orgId: string, accountId: string, from: string): Promise<PunchOut[]> {
  return query<PunchOut>(
    db,
    sql`SELECT ${punchColumns} FROM punches p
      WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.at >= ${from} AND p.kind <> 'void' AND ${current}
      ORDER BY p.at, p.server_ts`,
  );
}

/**
 * Takes the worker's punch slot: true when no punch was recorded in the last `debounceSecs`. The row
 * lock of the upsert makes concurrent scans of one badge wait for each other; the second sees the
 * first's time and gets false.
 */
export async function claimPunchSlot(db: Db, orgId: string, accountId: string, debounceSecs: number): Promise<boolean> {
  const rows = await query<{ account_id: string }>(
    db,
    sql`INSERT INTO punch_guards (account_id, org_id, last_punch_at) VALUES (${accountId}, ${orgId}, clock_timestamp())
      ON CONFLICT (account_id) DO UPDATE SET last_punch_at = excluded.last_punch_at
      WHERE punch_guards.last_punch_at < excluded.last_punch_at - make_interval(secs => ${debounceSecs})
      RETURNING account_id`,
  );
  return rows.length > 0;
}

export async function insertPunch(db: Db, row: PunchInsert): Promise<PunchOut> {
  await db.insert(punches).values(row);
  const [out] = await query<PunchOut>(db, sql`SELECT ${punchColumns} FROM punches p WHERE p.id = ${row.id}`);
  return out!;
}

export async function findPunch(db: Db, orgId: string, id: string): Promise<(PunchOut & { replacedById: string | null }) | undefined> {
  const [row] = await query<PunchOut & { replacedById: string | null }>(
    db,
    sql`SELECT ${punchColumns}, (SELECT r.id FROM punches r WHERE r.replaces_id = p.id) AS "replacedById" FROM punches p WHERE p.org_id = ${orgId} AND p.id = ${id}`,
  );
  return row;
}

export interface PunchListRow extends PunchOut {
  workerName: string;
  approverName: string | null;
  replacedById: string | null;
  edited: boolean;
}

export async function listPunches(db: Db, orgId: string, f: { from: string; to: string; accountId?: string; pendingOnly?: boolean; limit: number }): Promise<PunchListRow[]> {
  return query<PunchListRow>(
    db,
    sql`SELECT ${punchColumns}, trim(a.first_name || ' ' || a.surnames) AS "workerName",
        CASE WHEN ap.id IS NULL THEN NULL ELSE trim(ap.first_name || ' ' || ap.surnames) END AS "approverName",
        (SELECT r.id FROM punches r WHERE r.replaces_id = p.id) AS "replacedById",
        (p.replaces_id IS NOT NULL OR p.source = 'correction' OR EXISTS (SELECT 1 FROM punches r WHERE r.replaces_id = p.id)) AS edited
      FROM punches p JOIN accounts a ON a.id = p.account_id LEFT JOIN accounts ap ON ap.id = p.approved_by
      WHERE p.org_id = ${orgId} AND p.at >= ${f.from} AND p.at < ${f.to}
      ${f.accountId ? sql`AND p.account_id = ${f.accountId}` : sql``}
      ${f.pendingOnly ? sql`AND p.status = 'pending' AND ${current}` : sql``}
      ORDER BY p.at, p.server_ts LIMIT ${f.limit}`,
  );
}

export async function mediaOfOrg(db: Db, orgId: string, id: string): Promise<boolean> {
  const [row] = await db.select({ id: media.id }).from(media).where(and(eq(media.orgId, orgId), eq(media.id, id)));
  return !!row;
}

export async function accountOfOrg(db: Db, orgId: string, id: string) {
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)));
  return row;
}

export async function setPin(db: Db, orgId: string, accountId: string, pinHash: string | null, audit: AuditStamp): Promise<void> {
  if (pinHash === null) {
    await db.delete(badgePins).where(and(eq(badgePins.orgId, orgId), eq(badgePins.accountId, accountId)));
    return;
  }
  await db.insert(badgePins).values({ accountId, orgId, pinHash, audit }).onConflictDoUpdate({ target: badgePins.accountId, set: { pinHash, audit } });
}
