import { and, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountPerms, accounts } from '../../db/schema.ts';
import type { AccountRow } from '../../db/accounts.ts';

// The accounts of an organisation and their perms. Every query is scoped by organisation; the service
// passes the ids of the caller's token, never ids from a request body.

export async function findOrgAccount(db: Db, orgId: string, id: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)));
  return row;
}

/** Another account of the organisation with this user name (any case) or badge code. */
export async function findClash(db: Db, orgId: string, exceptId: string | null, userName?: string, badgeCode?: string | null) {
  const tests: SQL[] = [];
  if (userName) tests.push(eq(sql`lower(${accounts.userName})`, userName.toLowerCase()));
  if (badgeCode) tests.push(eq(accounts.badgeCode, badgeCode));
  if (!tests.length) return undefined;
  const rows = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), or(...tests)));
  return rows.find((r) => r.id !== exceptId);
}

export async function listAccounts(db: Db, orgId: string, q: { search?: string; includeInactive: boolean; offset: number; limit: number }) {
  const term = q.search?.trim();
  const like = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    eq(accounts.orgId, orgId),
    q.includeInactive ? undefined : eq(accounts.active, true),
    like
      ? or(
          ilike(accounts.userName, like),
          ilike(accounts.firstName, like),
          ilike(accounts.surnames, like),
          ilike(accounts.email, like),
          ilike(accounts.badgeCode, like),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(accounts)
      .where(where)
      .orderBy(sql`lower(${accounts.userName})`)
      .offset(q.offset)
      .limit(q.limit),
    db.select({ n: count() }).from(accounts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function insertAccount(db: Db, row: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [out] = await db.insert(accounts).values(row).returning();
  return out!;
}

export async function updateAccount(
  db: Db,
  orgId: string,
  id: string,
  set: Partial<typeof accounts.$inferInsert>,
): Promise<AccountRow | undefined> {
  const [out] = await db
    .update(accounts)
    .set(set)
    .where(and(eq(accounts.orgId, orgId), eq(accounts.id, id)))
    .returning();
  return out;
}

export async function upsertPerms(db: Db, row: typeof accountPerms.$inferInsert): Promise<void> {
  const { accountId: _a, siteId: _s, appId: _p, ...set } = row;
  await db
    .insert(accountPerms)
    .values(row)
    .onConflictDoUpdate({ target: [accountPerms.accountId, accountPerms.siteId, accountPerms.appId], set });
}
