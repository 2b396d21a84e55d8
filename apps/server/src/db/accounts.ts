import { and, eq, inArray } from 'drizzle-orm';
import { NO_PERMS, type UserPerms } from '@floorhand/contract/perms';
import type { Db } from './client.ts';
import { accountPerms, accounts } from './schema.ts';

// The account reads that authentication (lib/auth-context.ts) shares with the modules that log in
// (auth) and manage accounts (accounts, roles): one query each, here rather than in one module.

export type AccountRow = typeof accounts.$inferSelect;
export type PermsRow = typeof accountPerms.$inferSelect;

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function findAccountByApiKeyPrefix(db: Db, prefix: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.apiKeyPrefix, prefix));
  return row;
}

export async function permsOf(db: Db, accountIds: string[], appId: string): Promise<PermsRow[]> {
  if (!accountIds.length) return [];
  return db
    .select()
    .from(accountPerms)
    .where(and(inArray(accountPerms.accountId, accountIds), eq(accountPerms.appId, appId)))
    .orderBy(accountPerms.siteId);
}

/** The account's perms on one site; undefined when it holds none there. */
export async function findPerms(db: Db, accountId: string, siteId: string, appId: string): Promise<UserPerms | undefined> {
  const [row] = await db
    .select()
    .from(accountPerms)
    .where(and(eq(accountPerms.accountId, accountId), eq(accountPerms.siteId, siteId), eq(accountPerms.appId, appId)));
  return row ? { roles: row.roles, kioskAcct: row.kioskAcct, timeclockAcct: row.timeclockAcct, serviceAcct: row.serviceAcct } : undefined;
}

export async function loadPerms(db: Db, accountId: string, siteId: string, appId: string): Promise<UserPerms> {
  return (await findPerms(db, accountId, siteId, appId)) ?? NO_PERMS;
}
