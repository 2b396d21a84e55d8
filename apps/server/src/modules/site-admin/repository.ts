import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, auditLog, workstations, type AuditStamp } from '../../db/schema.ts';

// Workstations are per site, the audit log per organisation; the service passes the ids of the caller's
// token, never ids from a request body.

export type WorkstationRow = typeof workstations.$inferSelect;

export async function listWorkstations(db: Db, siteId: string) {
  return db
    .select({ ws: workstations, lastUserName: accounts.userName })
    .from(workstations)
    .leftJoin(accounts, eq(accounts.id, workstations.lastAccountId))
    .where(eq(workstations.siteId, siteId))
    .orderBy(desc(workstations.lastSeen), workstations.id);
}

export async function findWorkstation(db: Db, siteId: string, id: string): Promise<WorkstationRow | undefined> {
  const [row] = await db
    .select()
    .from(workstations)
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)));
  return row;
}

export async function upsertWorkstation(
  db: Db,
  siteId: string,
  id: string,
  set: { timeclock: boolean; kiosk: boolean; secretHash?: string | null; audit: AuditStamp },
) {
  const [row] = await db
    .insert(workstations)
    .values({ siteId, id, ...set })
    .onConflictDoUpdate({ target: [workstations.siteId, workstations.id], set })
    .returning();
  return row!;
}

/** Deletes a workstation; returns what it was, or undefined when there was none. */
export async function deleteWorkstation(db: Db, siteId: string, id: string): Promise<WorkstationRow | undefined> {
  const [row] = await db
    .delete(workstations)
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)))
    .returning();
  return row;
}

/** A new pairing code for a workstation, seen now (added when new). */
export async function setPairCode(
  db: Db,
  siteId: string,
  id: string,
  set: { pairCode: string; pairExpires: Date; pairApproved: false; lastAccountId: string; audit: AuditStamp },
) {
  const { audit, ...pairing } = set;
  await db
    .insert(workstations)
    .values({ siteId, id, ...pairing, audit })
    // An authorised device's last account and last seen stay its own: whoever asks for a code with its
    // id is not that device (until an admin replaces it), and the admin is shown who last used it.
    .onConflictDoUpdate({
      target: [workstations.siteId, workstations.id],
      set: {
        pairCode: pairing.pairCode,
        pairExpires: pairing.pairExpires,
        pairApproved: pairing.pairApproved,
        lastAccountId: sql`CASE WHEN ${workstations.secretHash} IS NULL THEN ${pairing.lastAccountId} ELSE ${workstations.lastAccountId} END`,
        lastSeen: sql`CASE WHEN ${workstations.secretHash} IS NULL THEN now() ELSE ${workstations.lastSeen} END`,
      },
    });
}

export async function findByPairCode(db: Db, siteId: string, code: string): Promise<WorkstationRow | undefined> {
  const [row] = await db
    .select()
    .from(workstations)
    .where(and(eq(workstations.siteId, siteId), eq(workstations.pairCode, code)));
  return row;
}

export async function approvePairing(db: Db, siteId: string, id: string, set: { timeclock: boolean; kiosk: boolean; audit: AuditStamp }) {
  const [row] = await db
    .update(workstations)
    .set({ ...set, pairApproved: true })
    .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)))
    .returning();
  return row!;
}

/** Spends an approved code and stores the device's secret; undefined when the code was spent already. */
export async function claimPairing(
  db: Db,
  siteId: string,
  id: string,
  code: string,
  secretHash: string,
): Promise<WorkstationRow | undefined> {
  const [row] = await db
    .update(workstations)
    .set({ secretHash, pairCode: null, pairExpires: null, pairApproved: false })
    .where(
      and(eq(workstations.siteId, siteId), eq(workstations.id, id), eq(workstations.pairCode, code), eq(workstations.pairApproved, true)),
    )
    .returning();
  return row;
}

/** Newest first; one row more than asked tells whether there is a next page. */
export async function listAudit(db: Db, orgId: string, q: { siteId?: string; entity?: string; offset: number; limit: number }) {
  return db
    .select({ entry: auditLog, userName: accounts.userName })
    .from(auditLog)
    .leftJoin(accounts, eq(accounts.id, auditLog.accountId))
    .where(
      and(
        eq(auditLog.orgId, orgId),
        q.siteId ? eq(auditLog.siteId, q.siteId) : undefined,
        q.entity ? eq(auditLog.entity, q.entity) : undefined,
      ),
    )
    .orderBy(desc(auditLog.ts), desc(auditLog.id))
    .offset(q.offset)
    .limit(q.limit + 1);
}
