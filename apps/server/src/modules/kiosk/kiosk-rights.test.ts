import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { HEADERS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import { DEVICE_REFUSAL } from '@floorhand/contract/rights';
import { accounts, kioskSessions } from '../../db/schema.ts';
import { hashHumanToken } from '../../lib/human-token.ts';
import { call, createSecondNode, createTestApp, type TestApp } from '../../test/harness.ts';
import { kioskLoginOfToken, tokenFor } from '../../test/logins.ts';

// Trust on a shared device (issue 23), on both databases: an admin's badge at a kiosk lends the kiosk
// none of the admin's administration (the rights table's device ceiling), and a kiosk's logout (or a
// new login of its account) ends every worker session opened on it, at once, on every node.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const human = (token: string) => ({ headers: { [HEADERS.humanToken]: token } });

async function badge(kiosk: string, code = 'B-ADMIN'): Promise<string> {
  const res = await call(t.app, 'kiosk/start', { badge: code }, kiosk);
  const token = res.headers[HEADERS.humanToken];
  if (res.status !== 200 || typeof token !== 'string') throw new Error(`kiosk/start failed: ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

const idOf = async (userName: string) => (await t.db.select().from(accounts).where(eq(accounts.userName, userName)))[0]!;
const endReason = async (humanToken: string, kiosk: string) =>
  (
    await t.db
      .select()
      .from(kioskSessions)
      .where(eq(kioskSessions.tokenHash, hashHumanToken(humanToken, kioskLoginOfToken(kiosk))))
  )[0]?.endReason;

describe("an admin's badge at a kiosk (no PIN)", () => {
  it('creates no account, issues no API key, sets no password and puts no app settings, with valid bodies', async () => {
    const kiosk = await tokenFor(t.app, 'kiosk');
    const admin = await badge(kiosk);
    const clerk = await idOf('clerk');
    const svc = await idOf('svc');
    const attempts: Array<[string, Record<string, unknown>]> = [
      [
        'admin/account/create',
        {
          account: { userName: 'kiosk-made', firstName: 'K', surnames: 'M', email: '', badgeCode: '' },
          password: 'long-enough-1',
          perms: [{ siteId: 'main', roles: ['siteAdmin'], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
        },
      ],
      ['admin/account/issueApiKey', { accountId: svc.id }],
      ['admin/account/setPassword', { accountId: clerk.id, password: 'taken-over-1' }],
      ['admin/appSettings/put', { siteData: { data: {} } }],
      ['admin/featureAccess/put', { access: [] }],
      ['admin/workstation/pair', { code: '12345678' }],
      ['account/me/changePassword', { oldPassword: 'demo1234', newPassword: 'changed-at-kiosk-1' }],
      ['site/putData', { siteData: { section: 'conf', dataId: 'x', data: {} } }],
      ['timeclock/setPin', { accountId: clerk.id, pin: '0000' }],
    ];
    for (const [path, body] of attempts) {
      const res = await call(t.app, path, body, kiosk, human(admin));
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.err).toMatchObject({ code: ERR.forbidden, message: DEVICE_REFUSAL.message });
    }
    expect((await t.db.select().from(accounts).where(eq(accounts.userName, 'kiosk-made'))).length).toBe(0);
    expect((await idOf('svc')).apiKeyHash).toBe(svc.apiKeyHash);
    expect((await idOf('clerk')).passwordHash).toBe(clerk.passwordHash);
    // The refusals did not end the session: the admin's work through the kiosk goes on.
    expect((await call(t.app, 'order/list', {}, kiosk, human(admin))).status).toBe(200);
    // With the admin's own login the same call is theirs to make.
    expect((await call(t.app, 'admin/account/list', {}, await tokenFor(t.app, 'admin'))).status).toBe(200);
  });
});

describe("the kiosk's logout ends its worker sessions", () => {
  it('at once, on this node and on a second one, and the old human token stays ended after a new login', async () => {
    const node2 = await createSecondNode(t);
    try {
      const kiosk = await tokenFor(t.app, 'kiosk');
      const clerk = await badge(kiosk, 'B-CLERK');
      // Both nodes have answered for the kiosk's token (and remember it for a moment).
      for (const app of [t.app, node2.app]) {
        expect((await call(app, 'kiosk/current', {}, kiosk, human(clerk))).status).toBe(200);
        expect((await call(app, 'order/list', {}, kiosk, human(clerk))).status).toBe(200);
      }
      expect((await call(t.app, 'auth/logout', {}, kiosk, human(clerk))).status).toBe(200);
      for (const app of [node2.app, t.app]) {
        for (const path of ['kiosk/current', 'order/list']) {
          const res = await call(app, path, {}, kiosk, human(clerk));
          expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(401);
          expect(res.body.err?.code).toBe(ERR.kioskSessionEnded);
        }
      }
      expect(await endReason(clerk, kiosk)).toBe('logout');
      // A new login of the kiosk does not bring the old session back.
      const again = await tokenFor(t.app, 'kiosk');
      for (const app of [t.app, node2.app])
        expect((await call(app, 'kiosk/current', {}, again, human(clerk))).body.err?.code).toBe(ERR.kioskSessionEnded);
    } finally {
      await node2.close();
    }
  });

  it('a human token never outlives the kiosk login it was opened under: refreshed it goes on, with another login it is refused', async () => {
    const kiosk = await tokenFor(t.app, 'kiosk');
    const clerk = await badge(kiosk, 'B-CLERK');
    const refreshed = (await call(t.app, 'auth/refresh', {}, kiosk)).body.authToken!;
    expect(refreshed).not.toBe(kiosk);
    expect((await call(t.app, 'order/list', {}, refreshed, human(clerk))).status).toBe(200);
    // Another login of the same kiosk account on the same device (after an expiry, say) is not that login.
    const later = await tokenFor(t.app, 'kiosk');
    expect((await call(t.app, 'order/list', {}, later, human(clerk))).body.err?.code).toBe(ERR.kioskSessionEnded);
    // The session itself was not ended by that login: its own login still holds it.
    expect((await call(t.app, 'order/list', {}, kiosk, human(clerk))).status).toBe(200);
  });

  it('a human token is valid only from the device it was opened on', async () => {
    const here = await tokenFor(t.app, 'kiosk', { workstationId: 'WS0001' });
    const there = await tokenFor(t.app, 'kiosk', { workstationId: 'WS0002' });
    const clerk = await badge(here, 'B-CLERK');
    expect((await call(t.app, 'order/list', {}, here, human(clerk))).status).toBe(200);
    expect((await call(t.app, 'order/list', {}, there, human(clerk))).body.err?.code).toBe(ERR.kioskSessionEnded);
  });

  it("a worker's call whose kiosk token has expired says the session has ended", async () => {
    const kiosk = await tokenFor(t.app, 'kiosk', { lifetimeSecs: 5 });
    const clerk = await badge(kiosk, 'B-CLERK');
    expect((await call(t.app, 'order/list', {}, kiosk, human(clerk))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 6000));
    const res = await call(t.app, 'order/list', {}, kiosk, human(clerk));
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.kioskSessionEnded);
    // Without a human token the kiosk's own call is the ordinary 401.
    expect((await call(t.app, 'order/list', {}, kiosk)).body.err?.code).not.toBe(ERR.kioskSessionEnded);
  }, 15_000);
});
