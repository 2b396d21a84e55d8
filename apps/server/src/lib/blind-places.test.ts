// The blind rule's cost (counts/blind.ts): an organisation without a blind sheet in progress is asked
// about at most once per BLIND_CACHE_MS, so a stock lookup stays one round trip; a change of sheets
// made through a count call is seen at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ACME_BASE, createAcme, createTestApp, type TestApp } from '../test/harness.ts';
import { DEMO } from '../seed/demo.ts';
import { blindPlaces, forgetBlind } from './blind-places.ts';
import { NO_PERMS } from '@floorhand/contract/perms';
import type { AuthClaims } from '@floorhand/contract/auth';
import type { AuthContext } from './auth-context.ts';

/** An account's call as blindPlaces reads it (no roles: Everyone's features). */
const authOf = (orgId: string, accountId: string, siteId: string): AuthContext => ({
  orgId,
  accountId,
  userName: accountId,
  siteId,
  appId: ACME_BASE.appId,
  perms: NO_PERMS,
  claims: {} as AuthClaims,
  mustChangePassword: false,
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
});
afterAll(() => t?.close());

/** The database handle, counting the statements sent through it. */
function counted(db: Db): { db: Db; sent: () => number } {
  let n = 0;
  const proxy = new Proxy(db, {
    get(target, p, receiver) {
      if (p === 'execute') return (...args: Parameters<Db['execute']>) => (n++, target.execute(...args));
      return Reflect.get(target, p, receiver) as unknown;
    },
  });
  return { db: proxy, sent: () => n };
}

describe('blindPlaces', () => {
  it('asks once per organisation without a blind sheet, then answers from memory', async () => {
    const { db, sent } = counted(t.db);
    const someone = authOf(ACME_BASE.orgId, 'nobody', ACME_BASE.siteId);
    expect((await blindPlaces(db, someone)).size).toBe(0);
    expect(sent()).toBe(1);
    for (let i = 0; i < 50; i++) expect((await blindPlaces(db, { ...someone, accountId: `a${i}` })).size).toBe(0);
    expect(sent()).toBe(1);
    forgetBlind(db, ACME_BASE.orgId);
    await blindPlaces(db, someone);
    expect(sent()).toBe(2);
  });

  it('with a blind sheet in progress, asks once per account and sees a named counter at once after forgetting', async () => {
    const { db, sent } = counted(t.db);
    const clerk = (await t.db.execute(sql`SELECT id FROM accounts WHERE org_id = ${DEMO.orgId} AND user_name = 'clerk'`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const me = authOf(DEMO.orgId, clerk.rows[0]!.id, DEMO.siteId);
    // The demo's sheets name no counter and nobody has counted: nothing hidden, two statements, then none.
    expect((await blindPlaces(db, me)).size).toBe(0);
    expect(sent()).toBe(2);
    expect((await blindPlaces(db, me)).size).toBe(0);
    expect(sent()).toBe(2);
    await t.db.execute(
      sql`UPDATE count_sheets SET assignees = jsonb_build_array(${me.accountId}::text) WHERE org_id = ${DEMO.orgId} AND description LIKE 'Aisle A bay 01%'`,
    );
    forgetBlind(db, DEMO.orgId);
    const hidden = await blindPlaces(db, me);
    expect([...hidden.values()].map((p) => p.location).every((l) => l.startsWith('A-01-'))).toBe(true);
    expect(hidden.size).toBeGreaterThan(0);
    await t.db.execute(sql`UPDATE count_sheets SET assignees = '[]'::jsonb WHERE org_id = ${DEMO.orgId}`);
    forgetBlind(db, DEMO.orgId);
  });
});
