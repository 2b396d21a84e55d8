import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountPerms, accounts, badgePins, media, punches, workstations } from '../../db/schema.ts';
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
  source: 'clock' | 'missed' | 'correction' | 'offline';
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

/** The account behind a badge with its PIN hash and its rights on the site, in one round trip (the punch's hot path). */
export async function findBadge(db: Db, orgId: string, badge: string, siteId: string, appId: string) {
  const [row] = await db
    .select({
      id: accounts.id,
      firstName: accounts.firstName,
      surnames: accounts.surnames,
      userName: accounts.userName,
      active: accounts.active,
      pinHash: badgePins.pinHash,
      roles: accountPerms.roles,
      kioskAcct: accountPerms.kioskAcct,
      timeclockAcct: accountPerms.timeclockAcct,
      serviceAcct: accountPerms.serviceAcct,
    })
    .from(accounts)
    .leftJoin(badgePins, eq(badgePins.accountId, accounts.id))
    .leftJoin(accountPerms, and(eq(accountPerms.accountId, accounts.id), eq(accountPerms.siteId, siteId), eq(accountPerms.appId, appId)))
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

/** The worker's first punch "out" that counts (valid, not replaced) after `after` and at or before `until`. */
export async function firstOutBetween(db: Db, orgId: string, accountId: string, after: string, until: string): Promise<string | undefined> {
  const [row] = await query<{ at: string }>(
    db,
    sql`SELECT ${isoSql(sql`p.at`)} AS at FROM punches p
      WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.status = 'valid' AND p.kind = 'out' AND ${current}
        AND p.at > ${after} AND p.at <= ${until}
      ORDER BY p.at, p.server_ts LIMIT 1`,
  );
  return row?.at;
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
 * Takes the worker's punch slot: true when no punch was recorded in the last `debounceSecs` of server
 * time AND, when this scan and the last punch both carry a trusted device time (`clientTs`, null when
 * untrusted) from the same device, their device times are at least `debounceSecs` apart as well: a slow
 * server that handles two scans made 2 s apart 10 s apart still punches once. The row lock of the
 * upsert makes concurrent scans of one badge wait for each other; the second sees the first's times
 * (the WHERE is checked against the latest row version) and gets false.
 */
export async function claimPunchSlot(
  db: Db,
  orgId: string,
  accountId: string,
  debounceSecs: number,
  device: { deviceId: string | null; clientTs: string | null } = { deviceId: null, clientTs: null },
): Promise<boolean> {
  const rows = await query<{ account_id: string }>(
    db,
    sql`INSERT INTO punch_guards (account_id, org_id, last_punch_at, last_client_ts, last_device_id)
      VALUES (${accountId}, ${orgId}, clock_timestamp(), ${device.clientTs}::timestamptz, ${device.deviceId})
      ON CONFLICT (account_id) DO UPDATE SET last_punch_at = excluded.last_punch_at, last_client_ts = excluded.last_client_ts, last_device_id = excluded.last_device_id
      WHERE punch_guards.last_punch_at < excluded.last_punch_at - make_interval(secs => ${debounceSecs})
        AND NOT (excluded.last_client_ts IS NOT NULL AND punch_guards.last_client_ts IS NOT NULL
          AND punch_guards.last_device_id = excluded.last_device_id
          AND abs(extract(epoch FROM excluded.last_client_ts - punch_guards.last_client_ts)) < ${debounceSecs})
      RETURNING account_id`,
  );
  return rows.length > 0;
}

/**
 * Locks the worker's punch guard row (made when missing) without moving its times: an offline punch
 * (recorded at its device time) waits for any scan of the same badge in flight and is judged by the
 * punches themselves (punchNear), never by the guard's server time, which it leaves as it was.
 */
export async function lockPunchGuard(db: Db, orgId: string, accountId: string): Promise<void> {
  await query(
    db,
    sql`INSERT INTO punch_guards (account_id, org_id, last_punch_at) VALUES (${accountId}, ${orgId}, '1970-01-01T00:00:00Z')
      ON CONFLICT (account_id) DO UPDATE SET org_id = punch_guards.org_id`,
  );
}

/** Whether the worker has a badge punch (clock or offline, not replaced) within `secs` of `at`: the debounce by the punch's own time. */
export async function punchNear(db: Db, orgId: string, accountId: string, at: string, secs: number): Promise<boolean> {
  const rows = await query<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM punches p WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.source IN ('clock', 'offline') AND p.kind <> 'void' AND ${current}
      AND p.at > ${at}::timestamptz - make_interval(secs => ${secs}) AND p.at < ${at}::timestamptz + make_interval(secs => ${secs}) LIMIT 1`,
  );
  return rows.length > 0;
}

/** The first punch that counts (valid, not replaced, not void) after `after`. */
export async function nextEffectivePunch(db: Db, orgId: string, accountId: string, after: string): Promise<PunchOut | undefined> {
  const [row] = await query<PunchOut>(
    db,
    sql`SELECT ${punchColumns} FROM punches p
      WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.status = 'valid' AND p.kind <> 'void' AND ${current} AND p.at > ${after}
      ORDER BY p.at, p.server_ts LIMIT 1`,
  );
  return row;
}

/** SHA-256 (hex) of the secret a workstation of the site holds, as stored; undefined when none. */
export async function workstationSecretHash(db: Db, siteId: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ secretHash: workstations.secretHash })
    .from(workstations)
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)));
  return row?.secretHash ?? undefined;
}

/** SHA-256 (hex) of a picture's bytes of the organisation; undefined when there is no such picture. */
export async function mediaSha256(db: Db, orgId: string, id: string): Promise<string | undefined> {
  const [row] = await query<{ h: string }>(
    db,
    sql`SELECT encode(sha256(m.bytes), 'hex') AS h FROM media m WHERE m.id = ${id} AND m.org_id = ${orgId}`,
  );
  return row?.h;
}

const iso = (t: string): string => new Date(t).toISOString();

/** Inserts a punch and answers it as read back, without reading it back (one round trip). */
export async function insertPunch(db: Db, row: PunchInsert): Promise<PunchOut> {
  const [r] = await db
    .insert(punches)
    .values(row)
    .returning({ serverTs: sql<string>`${isoSql(sql`${punches.serverTs}`)}` });
  return {
    id: row.id,
    accountId: row.accountId,
    kind: row.kind as PunchOut['kind'],
    at: iso(row.at),
    serverTs: r!.serverTs,
    clientTs: row.clientTs ? iso(row.clientTs) : null,
    deviceId: row.deviceId ?? null,
    photoMediaId: row.photoMediaId ?? null,
    source: row.source as PunchOut['source'],
    status: (row.status ?? 'valid') as PunchOut['status'],
    replacesId: row.replacesId ?? null,
    reason: row.reason ?? null,
    approvedBy: row.approvedBy ?? null,
  };
}

/**
 * What a scan needs to know of a worker, in one round trip: the last punch that counts and the
 * current records (valid or pending, not replaced, not void) from `dayStart`, oldest first.
 */
export async function punchState(
  db: Db,
  orgId: string,
  accountId: string,
  dayStart: string,
): Promise<{ last: PunchOut | undefined; today: PunchOut[] }> {
  const rows = await query<PunchOut & { part: number }>(
    db,
    sql`(SELECT ${punchColumns}, 0 AS part FROM punches p
        WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.status = 'valid' AND p.kind <> 'void' AND ${current}
        ORDER BY p.at DESC, p.server_ts DESC LIMIT 1)
      UNION ALL
      (SELECT ${punchColumns}, 1 AS part FROM punches p
        WHERE p.org_id = ${orgId} AND p.account_id = ${accountId} AND p.at >= ${dayStart} AND p.kind <> 'void' AND ${current})`,
  );
  const strip = ({ part: _part, ...p }: PunchOut & { part: number }): PunchOut => p;
  const last = rows.find((r) => Number(r.part) === 0);
  const today = rows.filter((r) => Number(r.part) === 1).map(strip);
  return { last: last && strip(last), today: sortPunches(today) };
}

/** Oldest first, as the clock shows them (by time, then by when recorded). */
export const sortPunches = (list: PunchOut[]): PunchOut[] =>
  [...list].sort((a, b) => a.at.localeCompare(b.at) || a.serverTs.localeCompare(b.serverTs));

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

export async function listPunches(
  db: Db,
  orgId: string,
  f: { from: string; to: string; accountId?: string; pendingOnly?: boolean; limit: number },
): Promise<PunchListRow[]> {
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
  const [row] = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.orgId, orgId), eq(media.id, id)));
  return !!row;
}

export async function accountOfOrg(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)));
  return row;
}

export async function setPin(db: Db, orgId: string, accountId: string, pinHash: string | null, audit: AuditStamp): Promise<void> {
  if (pinHash === null) {
    await db.delete(badgePins).where(and(eq(badgePins.orgId, orgId), eq(badgePins.accountId, accountId)));
    return;
  }
  await db
    .insert(badgePins)
    .values({ accountId, orgId, pinHash, audit })
    .onConflictDoUpdate({ target: badgePins.accountId, set: { pinHash, audit } });
}

/**
 * Deletes a time-clock photo (purpose clockPhoto) of the organisation that no punch refers to: the
 * photo of a scan that ended in no punch. Other pictures (logos, photos taken elsewhere) are never
 * touched. Answers whether one was deleted.
 */
export async function deleteUnusedClockPhoto(db: Db, orgId: string, mediaId: string): Promise<boolean> {
  const rows = await query<{ id: string }>(
    db,
    sql`DELETE FROM media m WHERE m.id = ${mediaId} AND m.org_id = ${orgId} AND m.purpose = 'clockPhoto'
      AND NOT EXISTS (SELECT 1 FROM punches p WHERE p.photo_media_id = m.id) RETURNING m.id`,
  );
  return rows.length > 0;
}
