import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, organisations, revokedTokens, workstations } from '../../db/schema.ts';
import { deviceSecretMatches } from '../../lib/device-secret.ts';
import { auditStamp } from '../../lib/audit.ts';

export type AccountRow = typeof accounts.$inferSelect;

export async function findAccountByUserName(db: Db, orgId: string, userName: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), eq(sql`lower(${accounts.userName})`, userName.toLowerCase())));
  return row;
}

export async function findOrganisation(db: Db, id: string) {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, id));
  return row;
}

/**
 * Records that a workstation was seen at login and returns what it is authorised for: nothing unless
 * the device sent the secret it was given when authorised or paired (an id alone is a claim anyone
 * can type).
 */
export async function touchWorkstation(db: Db, siteId: string, id: string, accountId: string, secret: string | undefined) {
  const [row] = await db
    .insert(workstations)
    .values({ siteId, id, lastAccountId: accountId, audit: auditStamp(accountId) })
    // An authorised id (one holding a secret) is seen, and its last account set, only when the login
    // comes from the device holding the secret: another browser sending the id is not that device, and
    // the admin who is asked to replace it (admin/workstation/pair) is shown who really used it.
    .onConflictDoUpdate({
      target: [workstations.siteId, workstations.id],
      set: {
        lastSeen: sql`CASE WHEN ${workstations.secretHash} IS NULL THEN now() ELSE ${workstations.lastSeen} END`,
        lastAccountId: sql`CASE WHEN ${workstations.secretHash} IS NULL THEN ${accountId} ELSE ${workstations.lastAccountId} END`,
      },
    })
    .returning();
  const held = deviceSecretMatches(secret, row?.secretHash);
  if (held)
    await db
      .update(workstations)
      .set({ lastSeen: new Date(), lastAccountId: accountId })
      .where(and(eq(workstations.siteId, siteId), eq(workstations.id, id)));
  return { id, timeclock: held && (row?.timeclock ?? false), kiosk: held && (row?.kiosk ?? false) };
}

export async function revokeToken(db: Db, jti: string, expiresAt: Date): Promise<void> {
  await db.insert(revokedTokens).values({ jti, expiresAt }).onConflictDoNothing();
}
