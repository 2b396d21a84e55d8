import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NONE, FEATURES } from '@floorhand/contract/features';
import { APP_ID } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { featureAccess } from '../../db/schema.ts';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from '../../test/logins.ts';
import { EVERYONE as EVERYONE_ROLE } from '@floorhand/contract/roles';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
});
afterAll(() => t?.close());

/** Logs in and starts a session: the auth token, session token and account id. */
async function startSession(userName: string) {
  const { token, login } = await demoLogin(t.app, userName);
  const res = await call(t.app, 'capture/session/genSessionToken', { userId: login.user?.id, roles: login.perms?.roles }, token);
  expect(res.status).toBe(200);
  const sessionToken = res.body.sessionToken ?? '';
  expect(sessionToken).not.toContain('.');
  return { token, sessionToken, userId: login.user?.id ?? '' };
}

const visibleFeatures = async (userName: string) => {
  const { token, sessionToken } = await startSession(userName);
  const res = await call(t.app, 'site/access/getVisibleFeatures', { sessionToken }, token);
  expect(res.status).toBe(200);
  return res.body.visibleFeatures ?? {};
};

const setLevel = (role: string, feature: string, level: 0 | 1 | null) =>
  t.db
    .insert(featureAccess)
    .values({ siteId: 'demo-main', appId: APP_ID, role, feature, level })
    .onConflictDoUpdate({ target: [featureAccess.siteId, featureAccess.appId, featureAccess.role, featureAccess.feature], set: { level } });

describe('session calls', () => {
  it('round-trips preferences, kept across a second genSessionToken', async () => {
    const { token, sessionToken } = await startSession('clerk');
    const first = await call(t.app, 'capture/session/getSession', { sessionToken }, token);
    expect(first.status).toBe(200);
    expect(first.body.session).toMatchObject({ sessionId: expect.any(String), prefs: {} });

    const prefs = { darkMode: true, mru: ['A-01', 'B-02'], scanner: { fps: 10 } };
    const put = await call(t.app, 'capture/session/putSession', { sessionToken, session: { prefs } }, token);
    expect(put.status).toBe(200);
    expect(put.body.session).toMatchObject({
      sessionId: first.body.session?.sessionId,
      prefs,
      audit: { modify: { user: expect.any(String), ts: expect.any(String) } },
    });

    // A later login of the same account starts the same session with its preferences.
    const again = await startSession('clerk');
    const read = await call(t.app, 'capture/session/getSession', { sessionToken: again.sessionToken }, again.token);
    expect(read.body.session).toMatchObject({ sessionId: first.body.session?.sessionId, prefs });
  });

  it('replaces the preferences as a whole', async () => {
    const { token, sessionToken } = await startSession('kiosk');
    await call(t.app, 'capture/session/putSession', { sessionToken, session: { prefs: { a: 1, b: 2 } } }, token);
    await call(t.app, 'capture/session/putSession', { sessionToken, session: { prefs: { b: 3 } } }, token);
    const read = await call(t.app, 'capture/session/getSession', { sessionToken }, token);
    expect(read.body.session?.prefs).toEqual({ b: 3 });
  });

  it('keeps the sessions of different accounts apart', async () => {
    const a = await startSession('clock');
    const b = await startSession('tcadmin');
    await call(t.app, 'capture/session/putSession', { sessionToken: a.sessionToken, session: { prefs: { owner: 'clock' } } }, a.token);
    const read = await call(t.app, 'capture/session/getSession', { sessionToken: b.sessionToken }, b.token);
    expect(read.body.session?.prefs).not.toHaveProperty('owner');
  });

  it('refuses to start a session for another user with 403 ERR_FORBIDDEN', async () => {
    const token = await tokenFor(t.app, 'clerk');
    const { login: adminLogin } = await demoLogin(t.app, 'admin');
    const res = await call(t.app, 'capture/session/genSessionToken', { userId: adminLogin.user?.id }, token);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
  });

  it('refuses the session token of another user with 403 ERR_FORBIDDEN on every session call', async () => {
    const admin = await startSession('admin');
    const clerk = await startSession('clerk');
    await call(t.app, 'capture/session/putSession', { sessionToken: admin.sessionToken, session: { prefs: { mine: true } } }, admin.token);
    const cases = [
      call(t.app, 'capture/session/getSession', { sessionToken: admin.sessionToken }, clerk.token),
      call(t.app, 'capture/session/putSession', { sessionToken: admin.sessionToken, session: { prefs: { stolen: true } } }, clerk.token),
      call(t.app, 'site/access/getVisibleFeatures', { sessionToken: admin.sessionToken }, clerk.token),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(403);
      expect(res.body.err?.code).toBe(ERR.forbidden);
    }
    const read = await call(t.app, 'capture/session/getSession', { sessionToken: admin.sessionToken }, admin.token);
    expect(read.body.session?.prefs).toEqual({ mine: true });
  });

  it('refuses a demo session token with an acme login', async () => {
    const demo = await startSession('admin');
    const token = await acmeAdminToken(t.app);
    const res = await call(t.app, 'capture/session/getSession', { ...ACME_BASE, sessionToken: demo.sessionToken }, token);
    expect(res.status).toBe(403);
  });

  it.each([
    { why: 'garbage', sessionToken: () => 'not-a-token' },
    { why: 'an auth token', sessionToken: (auth: string) => auth },
  ])('refuses $why as the session token with 401 ERR_BAD_TOKEN', async ({ sessionToken }) => {
    const { token } = await startSession('clerk');
    const res = await call(t.app, 'capture/session/getSession', { sessionToken: sessionToken(token) }, token);
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.badToken);
  });

  it.each([
    { why: 'prefs that are not an object', session: { prefs: ['a'] }, field: 'session.prefs' },
    { why: 'no session', session: undefined, field: 'session' },
    { why: 'a NUL character in the prefs', session: { prefs: { name: 'a\u0000b' } }, field: 'session.prefs.name' },
  ])('refuses $why in putSession with 400 ERR_BAD_INPUT naming the field', async ({ session, field }) => {
    const { token, sessionToken } = await startSession('clerk');
    const res = await call(t.app, 'capture/session/putSession', { sessionToken, session }, token);
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain(field);
  });
});

describe('site/access/getVisibleFeatures', () => {
  it('shows every feature by default but an admin’s jobs (DEFAULT_NONE), which admins see', async () => {
    const features = await visibleFeatures('clerk');
    expect(Object.keys(features).sort()).toEqual([...FEATURES].sort());
    expect(
      Object.entries(features)
        .filter(([, v]) => !v)
        .map(([f]) => f)
        .sort(),
    ).toEqual([...DEFAULT_NONE].sort());
    expect(Object.values(await visibleFeatures('admin')).every(Boolean)).toBe(true);
  });

  it('hides a feature set to None for everyone', async () => {
    await setLevel(EVERYONE_ROLE, 'stockAdjust.split', 0);
    expect((await visibleFeatures('clerk'))['stockAdjust.split']).toBe(false);
    expect((await visibleFeatures('kiosk'))['stockAdjust.split']).toBe(false);
    expect((await visibleFeatures('clerk'))['stockAdjust.move']).toBe(true);
  });

  it('shows it again to the members of a role set to Full', async () => {
    await setLevel(EVERYONE_ROLE, 'physicalInventory.post', 0);
    await setLevel(ROLE.siteAdmin, 'physicalInventory.post', 1);
    expect((await visibleFeatures('admin'))['physicalInventory.post']).toBe(true);
    expect((await visibleFeatures('clerk'))['physicalInventory.post']).toBe(false);
  });

  it('hides a feature set to None for a role from its members only', async () => {
    await setLevel(ROLE.timeclockAdmin, 'labelPrinter', 0);
    expect((await visibleFeatures('tcadmin')).labelPrinter).toBe(false);
    expect((await visibleFeatures('clerk')).labelPrinter).toBe(true);
  });

  it('shows a feature again when its level goes back to default', async () => {
    await setLevel(EVERYONE_ROLE, 'shipping', 0);
    expect((await visibleFeatures('clerk')).shipping).toBe(false);
    await setLevel(EVERYONE_ROLE, 'shipping', null);
    expect((await visibleFeatures('clerk')).shipping).toBe(true);
  });

  it('applies the feature access of the site only', async () => {
    await setLevel(EVERYONE_ROLE, 'stockLookup', 0);
    const token = await acmeAdminToken(t.app);
    const { sessionToken } = (await call(t.app, 'capture/session/genSessionToken', ACME_BASE, token)).body;
    const res = await call(t.app, 'site/access/getVisibleFeatures', { ...ACME_BASE, sessionToken }, token);
    expect(res.body.visibleFeatures?.stockLookup).toBe(true);
  });
});

describe('docIo/zplPrinter/getAttachedPrinters', () => {
  it('lists no printers while no agent is attached', async () => {
    const token = await tokenFor(t.app, 'clerk');
    const res = await call(t.app, 'docIo/zplPrinter/getAttachedPrinters', {}, token);
    expect(res.status).toBe(200);
    expect(res.body.printers).toEqual([]);
  });
});
