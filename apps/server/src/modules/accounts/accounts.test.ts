import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_KEY_PATTERN } from '@floorhand/contract/accounts';
import type { CallPath } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { accounts, auditLog, workstations } from '../../db/schema.ts';
import { SITE_DATA_DEFAULTS } from '../site/defaults.ts';
import { ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, uniqueIp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from '../../test/logins.ts';
import { permsChangeProblem } from './rules.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
let acmeAdminId = '';

/** Accounts the tests create log in with their own passwords. */
const login = (userName: string, password?: string) => tokenFor(t.app, userName, { password });
const perms = (roles: string[] = [], flags: Partial<Record<'kioskAcct' | 'timeclockAcct' | 'serviceAcct', boolean>> = {}) => ({
  siteId: DEMO_BASE.siteId,
  roles,
  kioskAcct: false,
  timeclockAcct: false,
  serviceAcct: false,
  ...flags,
});
let seq = 0;
const unique = (p: string) => `${p}${++seq}`;

/** Creates an account as the demo admin; answers its id. */
async function newAccount(userName: string, roles: string[] = [], flags: Parameters<typeof perms>[1] = {}, password = 'secret-pass-1') {
  const res = await call(
    t.app,
    'admin/account/create',
    { account: { userName, firstName: 'Test', surnames: userName, email: '', badgeCode: '' }, password: flags.serviceAcct ? undefined : password, perms: [perms(roles, flags)] },
    tokens.admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.account!.id;
}

async function newRole(name: string) {
  const res = await call(t.app, 'admin/role/create', { name }, tokens.admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return name;
}

const siteData = async (section: string, dataId: string) => (await call(t.app, 'site/getData', { section, dataId }, tokens.admin)).body.siteData;

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

// ---------------------------------------------------------------------------------------------
// Who may call what

interface Case {
  path: CallPath;
  /** A valid body, prepared fresh for each caller (some calls change state). */
  body: () => Promise<Record<string, unknown>>;
  /** For the admin of another organisation: what its ids name in the demo organisation (404), or a list it may read (200). */
  otherOrg: 'notFound' | 'ownData';
}

const ADMIN_CALLS: Case[] = [
  { path: 'admin/account/list', body: async () => ({ search: 'clerk' }), otherOrg: 'ownData' },
  { path: 'admin/account/get', body: async () => ({ accountId: ids.clerk }), otherOrg: 'notFound' },
  { path: 'admin/account/create', body: async () => ({ account: { userName: unique('mx'), firstName: 'M', surnames: 'X', email: '', badgeCode: '' }, password: 'long-enough-1', perms: [] }), otherOrg: 'ownData' },
  { path: 'admin/account/update', body: async () => ({ accountId: await newAccount(unique('up')), account: { firstName: 'Changed' } }), otherOrg: 'notFound' },
  { path: 'admin/account/setPassword', body: async () => ({ accountId: await newAccount(unique('sp')), password: 'another-pass-2' }), otherOrg: 'notFound' },
  { path: 'admin/account/resetPassword', body: async () => ({ accountId: await newAccount(unique('rp')) }), otherOrg: 'notFound' },
  { path: 'admin/account/issueApiKey', body: async () => ({ accountId: await newAccount(unique('ik'), [], { serviceAcct: true }) }), otherOrg: 'notFound' },
  { path: 'admin/account/revokeApiKey', body: async () => ({ accountId: await newAccount(unique('rk'), [], { serviceAcct: true }) }), otherOrg: 'notFound' },
  { path: 'admin/role/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/role/create', body: async () => ({ name: unique('roleC') }), otherOrg: 'ownData' },
  { path: 'admin/role/rename', body: async () => ({ name: await newRole(unique('roleR')), newName: unique('roleRn') }), otherOrg: 'notFound' },
  { path: 'admin/role/remove', body: async () => ({ name: await newRole(unique('roleX')) }), otherOrg: 'notFound' },
  { path: 'admin/featureAccess/get', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/featureAccess/put', body: async () => ({ levels: {} }), otherOrg: 'ownData' },
  { path: 'admin/site/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/workstation/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/workstation/update', body: async () => ({ id: 'WS7777', timeclock: false, kiosk: false }), otherOrg: 'ownData' },
  { path: 'admin/workstation/remove', body: async () => ({ id: await seenWorkstation() }), otherOrg: 'notFound' },
  { path: 'admin/workstation/pair', body: async () => ({ code: await pairCode(await seenWorkstation()), timeclock: false, kiosk: true }), otherOrg: 'notFound' },
  { path: 'admin/audit/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/appSettings/put', body: async () => ({ siteData: { _rev: (await siteData('conf', 'app_settings'))?._rev, data: SITE_DATA_DEFAULTS.conf!.app_settings } }), otherOrg: 'ownData' },
  { path: 'admin/brand/put', body: async () => ({ siteData: { _rev: (await siteData('brand', 'brand'))?._rev, data: SITE_DATA_DEFAULTS.brand!.brand } }), otherOrg: 'ownData' },
];

/** A workstation id the clerk logged in from. */
async function seenWorkstation(): Promise<string> {
  const id = unique('WS-SEEN-');
  await demoLogin(t.app, 'clerk', { workstationId: id });
  return id;
}
/** The pairing code a device shows, asked for by the clerk signed in on it. */
async function pairCode(workstationId: string): Promise<string> {
  const res = await call(t.app, 'workstation/pair/start', { workstationId }, tokens.clerk);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.code!;
}

describe('admin calls × accounts', () => {
  it.each(ADMIN_CALLS.map((c) => [c.path, c] as const))('%s: the admin succeeds', async (_p, c) => {
    const res = await call(t.app, c.path, await c.body(), tokens.admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.err).toBeUndefined();
  });

  const refused = ['clerk', 'kiosk', 'clock', 'tcadmin', 'svc'];
  it.each(ADMIN_CALLS.flatMap((c) => refused.map((u) => [c.path, u, c] as const)))('%s: %s is refused with 403', async (_p, user, c) => {
    const res = await call(t.app, c.path, await c.body(), tokens[user]);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.err?.code).toBe(ERR.forbidden);
  });

  it.each(ADMIN_CALLS.map((c) => [c.path, c] as const))('%s: the admin of another organisation naming the demo organisation gets 403 ERR_ORG_MISMATCH', async (_p, c) => {
    const res = await call(t.app, c.path, { ...(await c.body()), ...DEMO_BASE }, tokens.acme);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.orgMismatch);
  });

  it.each(ADMIN_CALLS.map((c) => [c.path, c] as const))('%s: the admin of another organisation never reaches the demo organisation', async (_p, c) => {
    const res = await call(t.app, c.path, { ...(await c.body()), ...ACME_BASE }, tokens.acme);
    if (c.otherOrg === 'notFound') {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.err?.code).toBe(ERR.notFound);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const text = JSON.stringify(res.body);
      for (const demoId of Object.values(ids)) expect(text).not.toContain(demoId);
      expect(text).not.toContain('demo-main');
    }
  });

  const ME: Array<{ path: CallPath; body: Record<string, unknown>; allowed: number }> = [
    { path: 'account/me/get', body: {}, allowed: 200 },
    { path: 'account/me/update', body: { account: { firstName: 'Same', surnames: 'Person', email: '' } }, allowed: 200 },
    // A wrong current password gets past the rights check (400) without changing anything.
    { path: 'account/me/changePassword', body: { oldPassword: 'not-my-password', newPassword: 'new-password-9' }, allowed: 400 },
  ];
  it.each(ME.flatMap((c) => ['admin', 'clerk', 'tcadmin', 'kiosk', 'clock', 'svc', 'acme'].map((u) => [c.path, u, c] as const)))('%s as %s', async (path, user, c) => {
    const restricted = ['kiosk', 'clock', 'svc'].includes(user) && path !== 'account/me/get';
    const res = await call(t.app, path, { ...c.body, ...(user === 'acme' ? ACME_BASE : {}) }, tokens[user]);
    expect(res.status, JSON.stringify(res.body)).toBe(restricted ? 403 : c.allowed);
    if (restricted) expect(res.body.err?.code).toBe(ERR.accountRestricted);
  });

  it('answers 401 without a token', async () => {
    for (const c of ADMIN_CALLS) expect((await call(t.app, c.path, await c.body())).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------

describe('nobody raises their own rights', () => {
  let siteAdmin: string;
  let siteAdminId: string;
  beforeAll(async () => {
    await newRole('picker');
    siteAdminId = await newAccount('sadmin', [ROLE.siteAdmin]);
    siteAdmin = await login('sadmin', 'secret-pass-1');
  });
  const update = (token: string | undefined, accountId: string | undefined, p: ReturnType<typeof perms>) => call(t.app, 'admin/account/update', { accountId, perms: [p] }, token);

  it.each([
    ['orgAdmin', [ROLE.siteAdmin, ROLE.orgAdmin]],
    ['a custom role', [ROLE.siteAdmin, 'picker']],
    ['timeclockAdmin', [ROLE.siteAdmin, ROLE.timeclockAdmin]],
  ])('a site admin cannot give themselves %s', async (_what, roles) => {
    const res = await update(siteAdmin, siteAdminId, perms(roles));
    expect(res.status).toBe(403);
    expect(res.body.err?.message).toMatch(/yourself/);
  });

  it('an org admin cannot give themselves a role either', async () => {
    const res = await update(tokens.admin, ids.admin, perms([ROLE.orgAdmin, ROLE.siteAdmin, ROLE.timeclockAdmin]));
    expect(res.status).toBe(403);
  });

  it('an admin cannot remove their own last admin role, but may drop one of two', async () => {
    const id = await newAccount('twohats', [ROLE.orgAdmin, ROLE.siteAdmin]);
    const token = await login('twohats', 'secret-pass-1');
    expect((await update(token, id, perms([]))).status).toBe(403);
    expect((await update(token, id, perms(['picker']))).status).toBe(403);
    const dropped = await update(token, id, perms([ROLE.siteAdmin]));
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    expect((await update(token, id, perms([]))).body.err?.message).toMatch(/last administrator role/);
  });

  it('an admin cannot change their own account type, nor deactivate themselves', async () => {
    expect((await update(tokens.admin, ids.admin, perms([ROLE.orgAdmin, ROLE.siteAdmin], { kioskAcct: true }))).status).toBe(403);
    const res = await call(t.app, 'admin/account/update', { accountId: ids.admin, account: { active: false } }, tokens.admin);
    expect(res.status).toBe(403);
  });

  it('a site admin cannot grant orgAdmin to anyone, nor touch an org admin’s account', async () => {
    const id = await newAccount(unique('target'));
    expect((await update(siteAdmin, id, perms([ROLE.orgAdmin]))).status).toBe(403);
    for (const [path, body] of [
      ['admin/account/update', { accountId: ids.admin, account: { firstName: 'Mallory' } }],
      ['admin/account/setPassword', { accountId: ids.admin, password: 'taken-over-1' }],
      ['admin/account/resetPassword', { accountId: ids.admin }],
    ] as const) {
      const res = await call(t.app, path, body, siteAdmin);
      expect(res.status, path).toBe(403);
    }
    const view = await call(t.app, 'admin/account/get', { accountId: ids.admin }, siteAdmin);
    expect(view.body.account?.editable).toBe(false);
  });

  it('a site admin may grant siteAdmin and custom roles to others on their site', async () => {
    const id = await newAccount(unique('helper'));
    const res = await update(siteAdmin, id, perms([ROLE.siteAdmin, 'picker']));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.account?.perms[0]?.roles).toEqual([ROLE.siteAdmin, 'picker']);
  });

  it('a site admin may not create, rename or remove roles (they belong to the organisation)', async () => {
    expect((await call(t.app, 'admin/role/create', { name: 'sa_role' }, siteAdmin)).status).toBe(403);
    expect((await call(t.app, 'admin/role/remove', { name: 'picker' }, siteAdmin)).status).toBe(403);
    expect((await call(t.app, 'admin/role/list', {}, siteAdmin)).status).toBe(200);
  });

  it('nobody changes their own password without the current one', async () => {
    const res = await call(t.app, 'admin/account/setPassword', { accountId: ids.admin, password: 'new-admin-pass' }, tokens.admin);
    expect(res.status).toBe(403);
  });

  it('rules: unknown roles and sites are invalid, not forbidden', () => {
    const actor = { accountId: 'a', siteId: DEMO_BASE.siteId, perms: { roles: [ROLE.orgAdmin], kioskAcct: false, timeclockAcct: false, serviceAcct: false } };
    const known = new Set([ROLE.orgAdmin, ROLE.siteAdmin]);
    expect(permsChangeProblem(actor, 'b', [], [perms(['nope'])], known, [DEMO_BASE.siteId])?.kind).toBe('invalid');
    expect(permsChangeProblem(actor, 'b', [], [{ ...perms(), siteId: 'elsewhere' }], known, [DEMO_BASE.siteId])?.kind).toBe('invalid');
    expect(permsChangeProblem(actor, 'b', [], [perms([ROLE.siteAdmin])], known, [DEMO_BASE.siteId])).toBeUndefined();
  });
});

describe('organisations are apart', () => {
  it('the demo admin cannot read or change an acme account', async () => {
    for (const [path, body] of [
      ['admin/account/get', { accountId: acmeAdminId }],
      ['admin/account/update', { accountId: acmeAdminId, account: { firstName: 'X' } }],
      ['admin/account/setPassword', { accountId: acmeAdminId, password: 'hijacked-123' }],
      ['admin/account/issueApiKey', { accountId: acmeAdminId }],
    ] as const) {
      const res = await call(t.app, path, body, tokens.admin);
      expect(res.status, path).toBe(404);
    }
    const list = await call(t.app, 'admin/account/list', { limit: 100, includeInactive: true }, tokens.admin);
    expect(list.body.accounts?.map((a) => a.id)).not.toContain(acmeAdminId);
    // Acme's admin still logs in with the old password.
    await acmeAdminToken(t.app);
  });

  it('a demo account cannot be given a role on an acme site', async () => {
    const id = await newAccount(unique('cross'));
    const res = await call(t.app, 'admin/account/update', { accountId: id, perms: [{ ...perms([ROLE.siteAdmin]), siteId: ACME_BASE.siteId }] }, tokens.admin);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain('Unknown site');
  });

  it('role names are per organisation', async () => {
    const acme = await call(t.app, 'admin/role/list', { ...ACME_BASE }, tokens.acme);
    const names = acme.body.roles?.map((r) => r.name) ?? [];
    expect(names).toEqual(expect.arrayContaining([ROLE.orgAdmin, ROLE.siteAdmin, ROLE.timeclockAdmin]));
    expect(names).not.toContain('picker');
    expect((await call(t.app, 'admin/role/create', { ...ACME_BASE, name: 'picker' }, tokens.acme)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('accounts', () => {
  it('creates an account that can log in, and refuses weak passwords and duplicates clearly', async () => {
    const short = await call(t.app, 'admin/account/create', { account: { userName: 'shorty', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'short', perms: [] }, tokens.admin);
    expect(short.status).toBe(400);
    expect(short.body.err?.message).toBe('The password must be at least 8 characters long.');
    const same = await call(t.app, 'admin/account/create', { account: { userName: 'samesame', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'SameSame', perms: [] }, tokens.admin);
    expect(same.body.err?.message).toBe('The password must not be the account name.');
    const none = await call(t.app, 'admin/account/create', { account: { userName: 'nopass', firstName: '', surnames: '', email: '', badgeCode: '' }, perms: [] }, tokens.admin);
    expect(none.status).toBe(400);

    await newAccount('newbie');
    await login('newbie', 'secret-pass-1');
    const dup = await call(t.app, 'admin/account/create', { account: { userName: 'NEWBIE', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'secret-pass-1', perms: [] }, tokens.admin);
    expect(dup.status).toBe(409);
    expect(dup.body.err).toMatchObject({ code: ERR.dup, message: "An account with id 'NEWBIE' already exists." });
    const badge = await call(t.app, 'admin/account/create', { account: { userName: 'badger', firstName: '', surnames: '', email: '', badgeCode: 'B-CLERK' }, password: 'secret-pass-1', perms: [] }, tokens.admin);
    expect(badge.status).toBe(409);
    expect(badge.body.err?.message).toContain("'clerk'");
  });

  it('searches by name, e-mail or badge', async () => {
    const res = await call(t.app, 'admin/account/list', { search: 'b-clerk' }, tokens.admin);
    expect(res.body.accounts?.map((a) => a.userName)).toEqual(['clerk']);
    expect(res.body.total).toBe(1);
    const all = await call(t.app, 'admin/account/list', { limit: 2 }, tokens.admin);
    expect(all.body.accounts).toHaveLength(2);
    expect(all.body.total).toBeGreaterThan(2);
  });

  it('deactivates without deleting: login and tokens are refused, history stays', async () => {
    const id = await newAccount('leaver');
    const token = await login('leaver', 'secret-pass-1');
    // Used once, so the node remembers who the token is (lib/auth-cache.ts): deactivation must still win.
    expect((await call(t.app, 'account/me/get', {}, token)).status).toBe(200);
    const res = await call(t.app, 'admin/account/update', { accountId: id, account: { active: false } }, tokens.admin);
    expect(res.body.account?.active).toBe(false);
    expect((await call(t.app, 'account/me/get', {}, token)).status).toBe(401);
    const again = await call(t.app, 'auth/login', { userName: 'leaver', password: 'secret-pass-1', workstationId: 'WS0001' }, undefined, { ip: uniqueIp() });
    expect(again.status).toBe(401);
    const active = await call(t.app, 'admin/account/list', { search: 'leaver' }, tokens.admin);
    expect(active.body.accounts).toEqual([]);
    const all = await call(t.app, 'admin/account/list', { search: 'leaver', includeInactive: true }, tokens.admin);
    expect(all.body.accounts?.[0]).toMatchObject({ id, active: false });
  });

  it('resets a password to a temporary one that works once handed over', async () => {
    const id = await newAccount('forgetful');
    const res = await call(t.app, 'admin/account/resetPassword', { accountId: id }, tokens.admin);
    expect(res.body.password).toMatch(/^[A-Za-z0-9]{12}$/);
    await login('forgetful', res.body.password);
    expect((await call(t.app, 'admin/account/setPassword', { accountId: id, password: 'short' }, tokens.admin)).status).toBe(400);
  });

  it('makes a password an admin set temporary: the login says so until the account chose its own', async () => {
    const id = await newAccount('tempie');
    const first = await call(t.app, 'auth/login', { userName: 'tempie', password: 'secret-pass-1', workstationId: 'W1' }, undefined, { ip: uniqueIp() });
    expect(first.body.mustChangePassword).toBe(false);
    expect((await call(t.app, 'admin/account/setPassword', { accountId: id, password: 'temp-pass-123' }, tokens.admin)).status).toBe(200);
    const temp = await call(t.app, 'auth/login', { userName: 'tempie', password: 'temp-pass-123', workstationId: 'W1' }, undefined, { ip: uniqueIp() });
    expect(temp.body.mustChangePassword).toBe(true);
    // The server holds it too, not only the web: nothing but what the change-password form needs.
    const meanwhile = await call(t.app, 'stock/lookup', { value: 'A-01-3' }, temp.body.authToken!);
    expect(meanwhile.status).toBe(403);
    expect(meanwhile.body.err).toMatchObject({ code: ERR.forbidden, message: 'Choose your own password first: the one an administrator set is temporary.' });
    expect((await call(t.app, 'account/me/get', {}, temp.body.authToken!)).status).toBe(200);
    const changed = await call(t.app, 'account/me/changePassword', { oldPassword: 'temp-pass-123', newPassword: 'my-own-pass-1' }, temp.body.authToken!);
    expect(changed.status).toBe(200);
    // The same token works everywhere once the password is the account's own.
    expect((await call(t.app, 'stock/lookup', { value: 'A-01-3' }, temp.body.authToken!)).status).toBe(200);
    const own = await call(t.app, 'auth/login', { userName: 'tempie', password: 'my-own-pass-1', workstationId: 'W1' }, undefined, { ip: uniqueIp() });
    expect(own.body.mustChangePassword).toBe(false);
    const reset = await call(t.app, 'admin/account/resetPassword', { accountId: id }, tokens.admin);
    const again = await call(t.app, 'auth/login', { userName: 'tempie', password: reset.body.password!, workstationId: 'W1' }, undefined, { ip: uniqueIp() });
    expect(again.body.mustChangePassword).toBe(true);
  });

  it('lets everyone change their own names and password with the current one', async () => {
    await newAccount('selfie');
    const token = await login('selfie', 'secret-pass-1');
    const upd = await call(t.app, 'account/me/update', { account: { firstName: 'Sally', surnames: 'Selfie', email: 'sally@example.com' } }, token);
    expect(upd.body.account).toMatchObject({ firstName: 'Sally', email: 'sally@example.com', badgeCode: '' });
    const badMail = await call(t.app, 'account/me/update', { account: { firstName: 'S', surnames: 'S', email: 'not-an-email' } }, token);
    expect(badMail.status).toBe(400);
    for (const firstName of ['', '   ']) {
      const noName = await call(t.app, 'account/me/update', { account: { firstName, surnames: 'S', email: '' } }, token);
      expect(noName.status).toBe(400);
      expect(noName.body.err).toMatchObject({ code: ERR.badInput, message: "'First name' must be provided" });
    }
    expect((await call(t.app, 'account/me/get', {}, token)).body.account?.firstName).toBe('Sally');
    const weak = await call(t.app, 'account/me/changePassword', { oldPassword: 'secret-pass-1', newPassword: 'short' }, token);
    expect(weak.body.err?.message).toBe('The password must be at least 8 characters long.');
    const ok = await call(t.app, 'account/me/changePassword', { oldPassword: 'secret-pass-1', newPassword: 'brand-new-pass' }, token);
    expect(ok.status).toBe(200);
    await login('selfie', 'brand-new-pass');
  });

  it('limits wrong current passwords like failed logins: the sixth try in 15 minutes is 429 even when right', async () => {
    await newAccount('guessed');
    const token = await login('guessed', 'secret-pass-1');
    for (let i = 0; i < 5; i++) {
      const wrong = await call(t.app, 'account/me/changePassword', { oldPassword: `guess-${i}-wrong`, newPassword: 'taken-over-1' }, token);
      expect(wrong.body.err?.message).toBe('The current password is not correct.');
    }
    const blocked = await call(t.app, 'account/me/changePassword', { oldPassword: 'secret-pass-1', newPassword: 'taken-over-1' }, token);
    expect(blocked.status).toBe(429);
    expect(blocked.body.err?.code).toBe(ERR.rateLimited);
    await login('guessed', 'secret-pass-1');
    // Another account is not held back.
    await newAccount('unguessed');
    const other = await login('unguessed', 'secret-pass-1');
    expect((await call(t.app, 'account/me/changePassword', { oldPassword: 'secret-pass-1', newPassword: 'brand-new-pass' }, other)).status).toBe(200);
  });
});

describe('API keys of service accounts', () => {
  it('is shown once, stored hashed, works for a call, and a revoked key is refused', async () => {
    const id = await newAccount('erp', [], { serviceAcct: true });
    const issued = await call(t.app, 'admin/account/issueApiKey', { accountId: id }, tokens.admin);
    const key = issued.body.apiKey!;
    expect(key).toMatch(API_KEY_PATTERN);
    expect(issued.body.account?.apiKey?.prefix).toBe(API_KEY_PATTERN.exec(key)?.[1]);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    expect(JSON.stringify(row)).not.toContain(key.split('_').pop());
    expect(row?.apiKeyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body)).not.toContain(key);

    const me = await call(t.app, 'account/me/get', {}, key);
    expect(me.status).toBe(200);
    expect(me.body.account?.userName).toBe('erp');
    expect((await call(t.app, 'site/getData', { section: 'conf', dataId: 'app_settings' }, key)).status).toBe(200);

    const forged = key.slice(0, -4) + (key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await call(t.app, 'account/me/get', {}, forged)).status).toBe(401);
    expect((await call(t.app, 'account/me/get', { ...ACME_BASE }, key)).status).toBe(403);

    const second = await call(t.app, 'admin/account/issueApiKey', { accountId: id }, tokens.admin);
    expect((await call(t.app, 'account/me/get', {}, key)).status).toBe(401);
    expect((await call(t.app, 'account/me/get', {}, second.body.apiKey)).status).toBe(200);

    await call(t.app, 'admin/account/revokeApiKey', { accountId: id }, tokens.admin);
    const revoked = await call(t.app, 'account/me/get', {}, second.body.apiKey);
    expect(revoked.status).toBe(401);
    expect(revoked.body.err?.code).toBe(ERR.unauthorized);
  });

  it('service accounts still cannot log in interactively, and have no password', async () => {
    const res = await call(t.app, 'auth/login', { userName: 'svc', password: 'demo1234', workstationId: 'WS0001' }, undefined, { ip: uniqueIp() });
    expect(res.status).toBe(401); // the key replaced its password
    const id = await newAccount('erp2', [], { serviceAcct: true });
    expect((await call(t.app, 'admin/account/setPassword', { accountId: id, password: 'some-password' }, tokens.admin)).status).toBe(400);
    const withPassword = await call(t.app, 'admin/account/create', { account: { userName: 'erp3', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'some-password', perms: [perms([], { serviceAcct: true })] }, tokens.admin);
    expect(withPassword.status).toBe(400);
  });

  it('only service accounts get keys; a key stops working when the account stops being one', async () => {
    expect((await call(t.app, 'admin/account/issueApiKey', { accountId: ids.clerk }, tokens.admin)).status).toBe(400);
    const id = await newAccount('erp4', [], { serviceAcct: true });
    const key = (await call(t.app, 'admin/account/issueApiKey', { accountId: id }, tokens.admin)).body.apiKey;
    await call(t.app, 'admin/account/update', { accountId: id, perms: [perms()] }, tokens.admin);
    expect((await call(t.app, 'account/me/get', {}, key)).status).toBe(401);
  });

  it('a deactivated service account’s key is refused', async () => {
    const id = await newAccount('erp5', [], { serviceAcct: true });
    const key = (await call(t.app, 'admin/account/issueApiKey', { accountId: id }, tokens.admin)).body.apiKey;
    await call(t.app, 'admin/account/update', { accountId: id, account: { active: false } }, tokens.admin);
    expect((await call(t.app, 'account/me/get', {}, key)).status).toBe(401);
  });
});

describe('sites', () => {
  it('an organisation admin is offered every site of the organisation, a site admin only their own', async () => {
    const all = await call(t.app, 'admin/site/list', {}, tokens.admin);
    expect(all.body.sites).toEqual([
      { id: 'demo-east', name: 'Demo Warehouse Co. east site', hosts: ['east.localhost'] },
      { id: 'demo-main', name: 'Demo Warehouse Co. main site', hosts: expect.arrayContaining(['localhost']) },
    ]);
    await newAccount('siteboss', [ROLE.siteAdmin]);
    const own = await call(t.app, 'admin/site/list', {}, await login('siteboss', 'secret-pass-1'));
    expect(own.body.sites?.map((s) => s.id)).toEqual(['demo-main']);
  });

  it('an organisation admin gives an account roles on the other site, and it logs in there', async () => {
    const id = await newAccount('eastworker');
    const res = await call(t.app, 'admin/account/update', { accountId: id, perms: [{ ...perms([ROLE.timeclockAdmin]), siteId: 'demo-east' }] }, tokens.admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.account?.perms.map((p) => p.siteId).sort()).toEqual(['demo-east', 'demo-main']);
    const east = { ...DEMO_BASE, siteId: 'demo-east' };
    expect((await demoLogin(t.app, 'eastworker', { password: 'secret-pass-1', base: east })).login.user?.id).toBe(id);
  });
});

describe('roles', () => {
  it('lists built-in roles and holders, refuses to rename or remove built-ins', async () => {
    const res = await call(t.app, 'admin/role/list', {}, tokens.admin);
    const orgAdmin = res.body.roles?.find((r) => r.name === ROLE.orgAdmin);
    expect(orgAdmin).toMatchObject({ builtIn: true });
    expect(orgAdmin?.holders.map((h) => h.userName)).toContain('admin');
    for (const name of [ROLE.siteAdmin, ROLE.orgAdmin, ROLE.timeclockAdmin]) {
      expect((await call(t.app, 'admin/role/rename', { name, newName: `${name}2` }, tokens.admin)).status).toBe(403);
      expect((await call(t.app, 'admin/role/remove', { name }, tokens.admin)).status).toBe(403);
    }
    expect((await call(t.app, 'admin/role/create', { name: 'SITEADMIN' }, tokens.admin)).status).toBe(409);
    expect((await call(t.app, 'admin/role/create', { name: '*' }, tokens.admin)).status).toBe(400);
  });

  it('rename moves holders and feature access; remove takes it off every account', async () => {
    await newRole('packer');
    const id = await newAccount('pat', ['packer']);
    await call(t.app, 'admin/featureAccess/put', { levels: { packer: { shipping: 1 } } }, tokens.admin);
    const renamed = await call(t.app, 'admin/role/rename', { name: 'packer', newName: 'shipper' }, tokens.admin);
    expect(renamed.body.role?.holders.map((h) => h.accountId)).toEqual([id]);
    expect((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body.account?.perms[0]?.roles).toEqual(['shipper']);
    expect((await call(t.app, 'admin/featureAccess/get', {}, tokens.admin)).body.grid?.levels).toMatchObject({ shipper: { shipping: 1 } });

    const removed = await call(t.app, 'admin/role/remove', { name: 'shipper' }, tokens.admin);
    expect(removed.body.removedFrom).toBe(1);
    expect((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body.account?.perms[0]?.roles).toEqual([]);
    const grid = (await call(t.app, 'admin/featureAccess/get', {}, tokens.admin)).body.grid;
    expect(grid?.roles).not.toContain('shipper');
    expect(grid?.levels.shipper).toBeUndefined();
  });
});

describe('feature access', () => {
  const visible = async (token: string | undefined) => {
    const s = await call(t.app, 'capture/session/genSessionToken', {}, token);
    return (await call(t.app, 'site/access/getVisibleFeatures', { sessionToken: s.body.sessionToken }, token)).body.visibleFeatures ?? {};
  };

  it('saving changes getVisibleFeatures for existing sessions at once', async () => {
    await newRole('counter');
    const id = await newAccount('cory');
    const token = await login('cory', 'secret-pass-1');
    expect((await visible(token)).physicalInventory).toBe(true);

    const put = await call(t.app, 'admin/featureAccess/put', { levels: { '*': { physicalInventory: 0, stockAdjust: 'W' }, counter: { physicalInventory: 'R' } } }, tokens.admin);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.grid?.levels).toEqual({ '*': { physicalInventory: 0, stockAdjust: 1 }, counter: { physicalInventory: 1 } });
    expect((await visible(token)).physicalInventory).toBe(false);
    expect((await visible(tokens.clerk)).physicalInventory).toBe(false);

    await call(t.app, 'admin/account/update', { accountId: id, perms: [perms(['counter'])] }, tokens.admin);
    expect((await visible(token)).physicalInventory).toBe(true);

    await call(t.app, 'admin/featureAccess/put', { levels: {} }, tokens.admin);
    expect((await visible(tokens.clerk)).physicalInventory).toBe(true);
  });

  it('refuses unknown roles, features and levels', async () => {
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { ghost: { stockPick: 1 } } }, tokens.admin)).status).toBe(400);
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { '*': { teleport: 1 } } }, tokens.admin)).status).toBe(400);
    expect((await call(t.app, 'admin/featureAccess/put', { levels: { '*': { stockPick: 2 } } }, tokens.admin)).status).toBe(400);
  });
});

describe('workstations: authorisation is a secret the device holds', () => {
  const loginFrom = (userName: string, workstationId: string, workstationSecret: string | undefined) => demoLogin(t.app, userName, { workstationId, workstationSecret });

  it('an authorised id without its secret, or with a wrong one, is not authorised', async () => {
    expect((await loginFrom('kiosk', 'WS0001', 'demo-workstation-secret')).login.workstation).toEqual({ id: 'WS0001', timeclock: true, kiosk: true });
    expect((await loginFrom('kiosk', 'WS0001', undefined)).login.workstation).toEqual({ id: 'WS0001', timeclock: false, kiosk: false });
    expect((await loginFrom('kiosk', 'WS0001', 'a-guessed-secret-value')).login.workstation).toEqual({ id: 'WS0001', timeclock: false, kiosk: false });
  });

  it('authorised from the device itself, the answer carries its secret; authorised from elsewhere, the device holds none', async () => {
    const upd = await call(t.app, 'admin/workstation/update', { id: 'WS-HERE-1', timeclock: false, kiosk: true, thisDevice: true }, tokens.admin);
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await loginFrom('kiosk', 'WS-HERE-1', upd.body.secret)).login.workstation).toEqual({ id: 'WS-HERE-1', timeclock: false, kiosk: true });
    const [stored] = await t.db.select({ hash: workstations.secretHash }).from(workstations).where(eq(workstations.id, 'WS-HERE-1'));
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.hash).not.toContain(upd.body.secret);
    const elsewhere = await call(t.app, 'admin/workstation/update', { id: 'WS-THERE-1', timeclock: true, kiosk: true }, tokens.admin);
    expect(elsewhere.body.secret).toBeUndefined();
    expect((await loginFrom('clock', 'WS-THERE-1', undefined)).login.workstation).toEqual({ id: 'WS-THERE-1', timeclock: false, kiosk: false });
    // Revoking both forgets the secret: authorising again later needs a new one.
    await call(t.app, 'admin/workstation/update', { id: 'WS-HERE-1', timeclock: false, kiosk: false }, tokens.admin);
    await call(t.app, 'admin/workstation/update', { id: 'WS-HERE-1', timeclock: false, kiosk: true }, tokens.admin);
    expect((await loginFrom('kiosk', 'WS-HERE-1', upd.body.secret)).login.workstation?.kiosk).toBe(false);
  });

  it('pairs by a one-time code: the device shows it, an admin enters it, the device claims its secret once', async () => {
    const id = await seenWorkstation();
    const start = await call(t.app, 'workstation/pair/start', { workstationId: id }, tokens.kiosk);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const code = start.body.code!;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(new Date(start.body.expiresAt!).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect((await call(t.app, 'workstation/pair/claim', { workstationId: id, code }, tokens.kiosk)).body).toMatchObject({ pending: true });
    // A clerk cannot approve; the admin types it as shown, in lower case with a dash.
    expect((await call(t.app, 'admin/workstation/pair', { code, timeclock: false, kiosk: true }, tokens.clerk)).status).toBe(403);
    const typed = `${code.slice(0, 3).toLowerCase()}-${code.slice(3).toLowerCase()}`;
    const approved = await call(t.app, 'admin/workstation/pair', { code: typed, timeclock: false, kiosk: true }, tokens.admin);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.workstation).toMatchObject({ id, kiosk: true, timeclock: false });
    const claim = await call(t.app, 'workstation/pair/claim', { workstationId: id, code }, tokens.kiosk);
    expect(claim.body).toMatchObject({ pending: false, workstation: { id, kiosk: true } });
    expect((await loginFrom('kiosk', id, claim.body.secret)).login.workstation).toEqual({ id, timeclock: false, kiosk: true });
    // Spent: a second claim (another browser that saw the code) gets nothing.
    const again = await call(t.app, 'workstation/pair/claim', { workstationId: id, code }, tokens.kiosk);
    expect(again.status).toBe(404);
    expect(again.body.secret).toBeUndefined();
  });

  it('refuses an unknown, expired or other-device code, and a malformed one, in the spec shape', async () => {
    const id = await seenWorkstation();
    const code = await pairCode(id);
    const other = await seenWorkstation();
    expect((await call(t.app, 'workstation/pair/claim', { workstationId: other, code }, tokens.clerk)).status).toBe(404);
    await t.db.update(workstations).set({ pairExpires: new Date(Date.now() - 1000) }).where(eq(workstations.id, id));
    const expired = await call(t.app, 'admin/workstation/pair', { code, timeclock: true, kiosk: false }, tokens.admin);
    expect(expired.status).toBe(404);
    expect(expired.body.err?.message).toContain('No device shows this pairing code');
    const bad = await call(t.app, 'admin/workstation/pair', { code: 'O0I1L!', timeclock: true, kiosk: false }, tokens.admin);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.code).toBe(ERR.badInput);
  });

  it('an admin removes a stale id; it comes back unauthorised only if the device logs in again', async () => {
    const id = await seenWorkstation();
    expect((await call(t.app, 'admin/workstation/remove', { id }, tokens.clerk)).status).toBe(403);
    expect((await call(t.app, 'admin/workstation/remove', { id }, tokens.admin)).body).toEqual({ removed: true });
    expect((await call(t.app, 'admin/workstation/list', {}, tokens.admin)).body.workstations?.some((w) => w.id === id)).toBe(false);
    expect((await call(t.app, 'admin/workstation/remove', { id }, tokens.admin)).status).toBe(404);
  });

  it('never answers 500 to malformed workstation calls', async () => {
    const junk = [null, 1, 'x', '', ' ', 'constructor', '__proto__', [], {}, { code: 1 }, 'A'.repeat(10_000), true];
    for (const path of ['admin/workstation/pair', 'admin/workstation/remove', 'admin/workstation/update', 'workstation/pair/start', 'workstation/pair/claim'] as const) {
      for (const a of junk) {
        for (const key of ['id', 'code', 'workstationId', 'timeclock', 'thisDevice']) {
          const res = await call(t.app, path, { [key]: a, id: 'WS-F', code: 'ABCDEF', workstationId: 'WS-F', timeclock: false, kiosk: false, [`${key}`]: a } as never, tokens.admin);
          expect(res.status, `${path} ${key}=${JSON.stringify(a)?.slice(0, 20)}`).toBeLessThan(500);
        }
      }
    }
  });
});

describe('workstations, settings, brand and the audit log', () => {
  it('authorises a workstation as kiosk from that device; a login from it carries the authorisation', async () => {
    await demoLogin(t.app, 'admin', { workstationId: 'WS4321' });
    const list = await call(t.app, 'admin/workstation/list', {}, tokens.admin);
    expect(list.body.workstations?.find((w) => w.id === 'WS4321')).toMatchObject({ kiosk: false, timeclock: false, lastUserName: 'admin' });
    const upd = await call(t.app, 'admin/workstation/update', { id: 'WS4321', timeclock: false, kiosk: true, thisDevice: true }, tokens.admin);
    expect(upd.body.workstation).toMatchObject({ id: 'WS4321', kiosk: true });
    const kiosk = await demoLogin(t.app, 'kiosk', { workstationId: 'WS4321', workstationSecret: upd.body.secret });
    expect(kiosk.login.workstation).toEqual({ id: 'WS4321', timeclock: false, kiosk: true });
    expect((await call(t.app, 'admin/workstation/update', { id: 'bad id!', timeclock: false, kiosk: true }, tokens.admin)).status).toBe(400);
  });

  it('validates app settings, keeps _rev and unknown sections', async () => {
    const current = await siteData('conf', 'app_settings');
    const data = { ...SITE_DATA_DEFAULTS.conf!.app_settings, labor: { displayScale: 2, roundToMinutes: 15, batchGraceTimeSecs: 60 }, printing: { extra: true } };
    const bad = await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data: { ...data, labor: { ...data.labor, roundToMinutes: -1 } } } }, tokens.admin);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain('labor.roundToMinutes');
    const noReasons = await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data: { ...data, stockAdjust: { clearDstLoc: true, reasons: [] } } } }, tokens.admin);
    expect(noReasons.status).toBe(400);
    const ok = await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data } }, tokens.admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await siteData('conf', 'app_settings'))?.data).toMatchObject({ labor: { roundToMinutes: 15 }, printing: { extra: true } });
    expect((await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data } }, tokens.admin)).status).toBe(409);
    // The generic site/putData checks the same shape.
    const generic = await call(t.app, 'site/putData', { section: 'conf', siteData: { dataId: 'app_settings', _rev: 2, data: { ...data, labor: { displayScale: 'one' } } } }, tokens.admin);
    expect(generic.status).toBe(400);
    expect(generic.body.err?.message).toContain('siteData.data.labor');
    const brand = await call(t.app, 'site/putData', { section: 'brand', siteData: { dataId: 'brand', data: { colors: {} } } }, tokens.admin);
    expect(brand.status).toBe(400);
  });

  it('validates the brand, which everyone reads before login', async () => {
    const current = await siteData('brand', 'brand');
    const brand = SITE_DATA_DEFAULTS.brand!.brand as { colors: Record<string, string> };
    const bad = await call(t.app, 'admin/brand/put', { siteData: { _rev: current?._rev, data: { ...brand, colors: { ...brand.colors, primary: 'red' } } } }, tokens.admin);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain('colors.primary');
    const data = { ...brand, siteName: 'North DC', logo: { mediaId: 'm1' }, favIcon: { '16': { mediaId: 'f16' }, '192': { mediaId: 'f192' } }, colors: { ...brand.colors, primary: '#aa3300' } };
    const ok = await call(t.app, 'admin/brand/put', { siteData: { _rev: current?._rev, data } }, tokens.admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const pub = await call(t.app, 'site/getData', { section: 'brand', dataId: 'brand' });
    expect(pub.body.siteData?.data).toMatchObject({ siteName: 'North DC', colors: { primary: '#aa3300' }, favIcon: { '192': { mediaId: 'f192' } } });
  });

  it('writes who, when, what, before and after for admin changes, readable page by page', async () => {
    const id = await newAccount('audited');
    await call(t.app, 'admin/account/update', { accountId: id, account: { firstName: 'Audrey' } }, tokens.admin);
    const res = await call(t.app, 'admin/audit/list', { limit: 2 }, tokens.admin);
    expect(res.body.more).toBe(true);
    expect(res.body.entries?.[0]).toMatchObject({ action: 'admin/account/update', entity: 'account', entityId: id, userName: 'admin', before: { firstName: 'Test' }, after: { firstName: 'Audrey' } });
    expect(res.body.entries?.[1]).toMatchObject({ action: 'admin/account/create', before: null });
    const next = await call(t.app, 'admin/audit/list', { limit: 2, offset: 2 }, tokens.admin);
    expect(next.body.entries?.[0]?.id).not.toBe(res.body.entries?.[0]?.id);
    const roles = await call(t.app, 'admin/audit/list', { entity: 'role' }, tokens.admin);
    expect(roles.body.entries?.every((e) => e.entity === 'role')).toBe(true);
    // Passwords and keys never reach the log.
    const rows = await t.db.select().from(auditLog);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('secret-pass-1');
    expect(text).not.toContain(tokens.svc);
    expect(text).not.toMatch(/\$argon2/);
  });
});
