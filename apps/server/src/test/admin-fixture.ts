import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema.ts';
import { call, createAcme, createTestApp, DEMO_BASE, type TestApp } from './harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from './logins.ts';

// The setup the administration API tests share (accounts, roles, site-admin): one app and database per
// test file, the demo logins, the other organisation, the demo service account's API key, and helpers
// that create accounts and roles as the demo admin.

export let t: TestApp;
export const tokens: Record<string, string> = {};
export const ids: Record<string, string> = {};
export let acmeAdminId = '';

/** Accounts the tests create log in with their own passwords. */
export const login = (userName: string, password?: string) => tokenFor(t.app, userName, { password });
export const perms = (roles: string[] = [], flags: Partial<Record<'kioskAcct' | 'timeclockAcct' | 'serviceAcct', boolean>> = {}) => ({
  siteId: DEMO_BASE.siteId,
  roles,
  kioskAcct: false,
  timeclockAcct: false,
  serviceAcct: false,
  ...flags,
});
let seq = 0;
export const unique = (p: string) => `${p}${++seq}`;

/** Creates an account as the demo admin; answers its id. */
export async function newAccount(
  userName: string,
  roles: string[] = [],
  flags: Parameters<typeof perms>[1] = {},
  password = 'secret-pass-1',
) {
  const res = await call(
    t.app,
    'admin/account/create',
    {
      account: { userName, firstName: 'Test', surnames: userName, email: '', badgeCode: '' },
      password: flags.serviceAcct ? undefined : password,
      perms: [perms(roles, flags)],
    },
    tokens.admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.account!.id;
}

export async function newRole(name: string) {
  const res = await call(t.app, 'admin/role/create', { name }, tokens.admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return name;
}

export const siteData = async (section: string, dataId: string) =>
  (await call(t.app, 'site/getData', { section, dataId }, tokens.admin)).body.siteData;

/** The app, the demo logins and the service account's key, for the tests of one file. */
export function useAdminFixture(): void {
  beforeAll(async () => {
    t = await createTestApp();
    acmeAdminId = (await createAcme(t.db)).adminId;
    for (const u of ['admin', 'clerk', 'kiosk', 'clock', 'tcadmin']) {
      const { token, login: res } = await demoLogin(t.app, u);
      tokens[u] = token;
      ids[u] = res.user!.id;
    }
    tokens.acme = await acmeAdminToken(t.app);
    const [svc] = await t.db.select().from(accounts).where(eq(accounts.userName, 'svc'));
    ids.svc = svc!.id;
    const key = await call(t.app, 'admin/account/issueApiKey', { accountId: ids.svc }, tokens.admin);
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    tokens.svc = key.body.apiKey!;
  });
  afterAll(() => t?.close());
}

/** A workstation id the clerk logged in from. */
export async function seenWorkstation(): Promise<string> {
  const id = unique('WS-SEEN-');
  await demoLogin(t.app, 'clerk', { workstationId: id });
  return id;
}
/** The pairing code a device shows, asked for by the clerk signed in on it. */
export async function pairCode(workstationId: string): Promise<string> {
  const res = await call(t.app, 'workstation/pair/start', { workstationId }, tokens.clerk);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.code!;
}
