import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { HEADERS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import { accounts, kioskSessions, movements, stockRecords } from '../../db/schema.ts';
import { query } from '../../db/sql.ts';
import { DEMO, createAccount } from '../../seed/demo.ts';
import { hashHumanToken } from '../../lib/human-token.ts';
import { kioskLoginOfToken } from '../../test/logins.ts';
import { call, createTestApp, uniqueIp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';

// The kiosk's human token on both databases: a kiosk account never changes stock by itself; with a
// worker's badge it does, as the worker, until done or the inactivity timeout.

let t: TestApp;
let kiosk: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  kiosk = await tokenFor(t.app, 'kiosk');
  adminId = (await t.db.select().from(accounts).where(eq(accounts.userName, 'admin')))[0]!.id;
});
afterAll(() => t?.close());

const human = (token: string) => ({ headers: { [HEADERS.humanToken]: token } });
let keyNo = 0;
const adjust = (token: string, humanToken?: string) =>
  call(
    t.app,
    'stock/adjust',
    { idempotencyKey: `kiosk-adj-${(keyNo += 1)}-${Date.now()}`, stockId: 'S000000001', deltaType: 'delta', qty: 1, reason: 'Found' },
    token,
    humanToken ? human(humanToken) : {},
  );

async function start(badge = 'B-ADMIN', token = kiosk, extra: Record<string, unknown> = {}) {
  const res = await call(t.app, 'kiosk/start', { badge, ...extra }, token);
  return { res, humanToken: res.headers[HEADERS.humanToken] as string | undefined };
}

describe('the human token', () => {
  it('a kiosk account alone can never change stock, and writes no movement', async () => {
    const before = (await t.db.select().from(movements)).length;
    const res = await adjust(kiosk);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
    expect((await t.db.select().from(movements)).length).toBe(before);
  });

  it('a badge opens the worker session: the token comes in the header only, and the movement records the person', async () => {
    const { res, humanToken } = await start();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(humanToken).toMatch(/^hum_/);
    expect(JSON.stringify(res.body)).not.toContain(humanToken!);
    expect(res.body).toMatchObject({ user: { id: adminId, userName: 'admin' }, perms: { kioskAcct: false }, timeoutMinutes: 15 });
    const done = await adjust(kiosk, humanToken);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const [last] = await t.db.select().from(movements).orderBy(desc(movements.id)).limit(1);
    expect(last!.accountId).toBe(adminId);
    const [record] = await t.db.select().from(stockRecords).where(eq(stockRecords.stockId, 'S000000001'));
    expect(record!.audit.modify.user).toBe(adminId);
    const me = await call(t.app, 'account/me/get', {}, kiosk, human(humanToken!));
    expect(JSON.stringify(me.body)).toContain('admin');
  });

  it('each worker signs their own work: a clerk after the admin records the clerk', async () => {
    const { humanToken } = await start('B-CLERK');
    const res = await adjust(kiosk, humanToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [clerk] = await t.db.select().from(accounts).where(eq(accounts.userName, 'clerk'));
    const [last] = await t.db.select().from(movements).orderBy(desc(movements.id)).limit(1);
    expect(last!.accountId).toBe(clerk!.id);
    // The admin pages stay the admin's: the clerk through the kiosk is no admin.
    expect((await call(t.app, 'admin/account/list', {}, kiosk, human(humanToken!))).status).toBe(403);
  });

  it('kiosk/current names the worker after a reload while the session lasts, and refuses once it has ended', async () => {
    const { humanToken } = await start('B-CLERK');
    const cur = await call(t.app, 'kiosk/current', {}, kiosk, human(humanToken!));
    expect(cur.status, JSON.stringify(cur.body)).toBe(200);
    expect(cur.body).toMatchObject({ user: { userName: 'clerk' }, perms: { kioskAcct: false } });
    const alone = await call(t.app, 'kiosk/current', {}, kiosk);
    expect(alone.status).toBe(404);
    expect((await call(t.app, 'kiosk/end', {}, kiosk, human(humanToken!))).status).toBe(200);
    const ended = await call(t.app, 'kiosk/current', {}, kiosk, human(humanToken!));
    expect(ended.status).toBe(401);
    expect(ended.body.err?.code).toBe(ERR.kioskSessionEnded);
    // Fuzz: arbitrary fields never make a 500.
    for (const extra of [{ x: '\u0000' }, { siteId: 1 }, { sessionToken: 'x'.repeat(500) }])
      expect((await call(t.app, 'kiosk/current', extra, kiosk, { ip: uniqueIp(), ...human('hum_x') })).status).toBeLessThan(500);
  });

  it('done revokes the token server-side; the kiosk account itself stays logged in', async () => {
    const { humanToken } = await start();
    expect((await call(t.app, 'kiosk/end', {}, kiosk, human(humanToken!))).status).toBe(200);
    const after = await adjust(kiosk, humanToken);
    expect(after.status).toBe(401);
    expect(after.body.err?.code).toBe(ERR.kioskSessionEnded);
    expect((await call(t.app, 'account/me/get', {}, kiosk)).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(kioskSessions)
      .where(eq(kioskSessions.tokenHash, hashHumanToken(humanToken!, kioskLoginOfToken(kiosk))));
    expect(row?.endReason).toBe('done');
  });

  it('after the inactivity timeout the token is refused and the session ends', async () => {
    const { humanToken } = await start('B-ADMIN', kiosk, { timeoutMinutes: 1 });
    expect((await adjust(kiosk, humanToken)).status).toBe(200);
    await query(t.db, sql`UPDATE kiosk_sessions SET last_seen = now() - interval '61 seconds' WHERE ended_at IS NULL`);
    const res = await adjust(kiosk, humanToken);
    expect(res.status).toBe(401);
    expect(res.body.err).toMatchObject({ code: ERR.kioskSessionEnded, message: expect.stringMatching(/timed out/) });
    const ended = await query<{ end_reason: string }>(t.db, sql`SELECT end_reason FROM kiosk_sessions ORDER BY started_at DESC LIMIT 1`);
    expect(ended[0]?.end_reason).toBe('timeout');
  });

  it('activity keeps the session: a call within the timeout moves it on', async () => {
    const { humanToken } = await start('B-ADMIN', kiosk, { timeoutMinutes: 1 });
    await query(t.db, sql`UPDATE kiosk_sessions SET last_seen = now() - interval '50 seconds' WHERE ended_at IS NULL`);
    expect((await call(t.app, 'account/me/get', {}, kiosk, human(humanToken!))).status).toBe(200);
    await query(t.db, sql`UPDATE kiosk_sessions SET last_seen = last_seen - interval '30 seconds' WHERE ended_at IS NULL`);
    // 30 s idle since the touch: still open.
    expect((await adjust(kiosk, humanToken)).status).toBe(200);
  });

  it('a new badge ends the previous session of the kiosk', async () => {
    const first = await start();
    const second = await start('B-CLERK');
    expect((await adjust(kiosk, first.humanToken)).body.err?.code).toBe(ERR.kioskSessionEnded);
    expect((await call(t.app, 'account/me/get', {}, kiosk, human(second.humanToken!))).status).toBe(200);
  });

  it('a human token works only with its own kiosk account', async () => {
    const { humanToken } = await start();
    await createAccount(
      t.db,
      DEMO.orgId,
      DEMO.siteId,
      { userName: 'kiosk2', firstName: 'Second', surnames: 'Kiosk', kioskAcct: true },
      DEMO.password,
    );
    const other = await tokenFor(t.app, 'kiosk2');
    expect((await adjust(other, humanToken)).body.err?.code).toBe(ERR.kioskSessionEnded);
    // With a person's own token a human token is refused outright.
    const clerk = await tokenFor(t.app, 'clerk');
    const res = await adjust(clerk, humanToken);
    expect(res.status).toBe(403);
    expect((await adjust(kiosk, 'hum_forged')).body.err?.code).toBe(ERR.kioskSessionEnded);
  });
});

describe('starting a session', () => {
  it('refuses a device not authorised as a kiosk, other kinds of account, and badges that are no person', async () => {
    const unauthorised = await tokenFor(t.app, 'kiosk', { workstationId: 'WS9998', workstationSecret: undefined });
    expect((await start('B-ADMIN', unauthorised)).res.status).toBe(403);
    for (const user of ['clerk', 'clock']) expect((await start('B-ADMIN', await tokenFor(t.app, user))).res.status).toBe(403);
    for (const badge of ['B-KIOSK', 'B-CLOCK', 'B-SVC', 'B-NOBODY']) {
      const { res, humanToken } = await start(badge);
      expect(res.status, badge).toBe(404);
      expect(humanToken).toBeUndefined();
    }
  });

  it('a typed badge needs the PIN (the demo clerk has 1234)', async () => {
    expect((await start('B-CLERK', kiosk, { entry: 'typed' })).res.status).toBe(404);
    expect((await start('B-CLERK', kiosk, { entry: 'typed', pin: '9999' })).res.status).toBe(404);
    expect((await start('B-CLERK', kiosk, { entry: 'typed', pin: '1234' })).res.status).toBe(200);
  });

  it('never answers 500 to arbitrary input', async () => {
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('', '\u0000', 'a\ud800', 'B-ADMIN', 0, 241, -1, 1e308),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('badge', 'entry', 'pin', 'timeoutMinutes', 'extra'), weird, { maxKeys: 2 }),
        async (overrides) => {
          const res = await call(t.app, 'kiosk/start', { badge: 'B-NOBODY', ...overrides }, kiosk, { ip: uniqueIp() });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.err).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        },
      ),
      { numRuns: 40 },
    );
    // A garbage human token header is a clear refusal too.
    for (const h of ['x', 'hum_' + 'a'.repeat(500)]) expect((await adjust(kiosk, h)).status).toBe(401);
  });
});
