import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_KEY_PATTERN } from '@floorhand/contract/accounts';
import type { CallPath } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { accounts } from '../../db/schema.ts';
import { ACME_BASE, call, DEMO_BASE, uniqueIp } from '../../test/harness.ts';
import { acmeAdminToken } from '../../test/logins.ts';
import { SITE_DATA_DEFAULTS } from '../../lib/site-defaults.ts';
import { permsChangeProblem } from './rules.ts';
import {
  acmeAdminId,
  ids,
  login,
  newAccount,
  newRole,
  pairCode,
  perms,
  seenWorkstation,
  siteData,
  t,
  tokens,
  unique,
  useAdminFixture,
} from '../../test/admin-fixture.ts';

useAdminFixture();

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
  {
    path: 'admin/account/create',
    body: async () => ({
      account: { userName: unique('mx'), firstName: 'M', surnames: 'X', email: '', badgeCode: '' },
      password: 'long-enough-1',
      perms: [],
    }),
    otherOrg: 'ownData',
  },
  {
    path: 'admin/account/update',
    body: async () => ({ accountId: await newAccount(unique('up')), account: { firstName: 'Changed' } }),
    otherOrg: 'notFound',
  },
  {
    path: 'admin/account/setPassword',
    body: async () => ({ accountId: await newAccount(unique('sp')), password: 'another-pass-2' }),
    otherOrg: 'notFound',
  },
  { path: 'admin/account/resetPassword', body: async () => ({ accountId: await newAccount(unique('rp')) }), otherOrg: 'notFound' },
  {
    path: 'admin/account/issueApiKey',
    body: async () => ({ accountId: await newAccount(unique('ik'), [], { serviceAcct: true }) }),
    otherOrg: 'notFound',
  },
  {
    path: 'admin/account/revokeApiKey',
    body: async () => ({ accountId: await newAccount(unique('rk'), [], { serviceAcct: true }) }),
    otherOrg: 'notFound',
  },
  { path: 'admin/role/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/role/create', body: async () => ({ name: unique('roleC') }), otherOrg: 'ownData' },
  {
    path: 'admin/role/rename',
    body: async () => ({ name: await newRole(unique('roleR')), newName: unique('roleRn') }),
    otherOrg: 'notFound',
  },
  { path: 'admin/role/remove', body: async () => ({ name: await newRole(unique('roleX')) }), otherOrg: 'notFound' },
  { path: 'admin/featureAccess/get', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/featureAccess/put', body: async () => ({ levels: {} }), otherOrg: 'ownData' },
  { path: 'admin/site/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/workstation/list', body: async () => ({}), otherOrg: 'ownData' },
  { path: 'admin/workstation/update', body: async () => ({ id: 'WS7777', timeclock: false, kiosk: false }), otherOrg: 'ownData' },
  { path: 'admin/workstation/remove', body: async () => ({ id: await seenWorkstation() }), otherOrg: 'notFound' },
  {
    path: 'admin/workstation/pair',
    body: async () => ({ code: await pairCode(await seenWorkstation()), timeclock: false, kiosk: true }),
    otherOrg: 'notFound',
  },
  { path: 'admin/audit/list', body: async () => ({}), otherOrg: 'ownData' },
  {
    path: 'admin/appSettings/put',
    body: async () => ({ siteData: { _rev: (await siteData('conf', 'app_settings'))?._rev, data: SITE_DATA_DEFAULTS.conf!.app_settings } }),
    otherOrg: 'ownData',
  },
  {
    path: 'admin/brand/put',
    body: async () => ({ siteData: { _rev: (await siteData('brand', 'brand'))?._rev, data: SITE_DATA_DEFAULTS.brand!.brand } }),
    otherOrg: 'ownData',
  },
];

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

  it.each(ADMIN_CALLS.map((c) => [c.path, c] as const))(
    '%s: the admin of another organisation naming the demo organisation gets 403 ERR_ORG_MISMATCH',
    async (_p, c) => {
      const res = await call(t.app, c.path, { ...(await c.body()), ...DEMO_BASE }, tokens.acme);
      expect(res.status).toBe(403);
      expect(res.body.err?.code).toBe(ERR.orgMismatch);
    },
  );

  it.each(ADMIN_CALLS.map((c) => [c.path, c] as const))(
    '%s: the admin of another organisation never reaches the demo organisation',
    async (_p, c) => {
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
    },
  );

  const ME: Array<{ path: CallPath; body: Record<string, unknown>; allowed: number }> = [
    { path: 'account/me/get', body: {}, allowed: 200 },
    { path: 'account/me/update', body: { account: { firstName: 'Same', surnames: 'Person', email: '' } }, allowed: 200 },
    // A wrong current password gets past the rights check (400) without changing anything.
    { path: 'account/me/changePassword', body: { oldPassword: 'not-my-password', newPassword: 'new-password-9' }, allowed: 400 },
  ];
  it.each(ME.flatMap((c) => ['admin', 'clerk', 'tcadmin', 'kiosk', 'clock', 'svc', 'acme'].map((u) => [c.path, u, c] as const)))(
    '%s as %s',
    async (path, user, c) => {
      const restricted = ['kiosk', 'clock', 'svc'].includes(user) && path !== 'account/me/get';
      const res = await call(t.app, path, { ...c.body, ...(user === 'acme' ? ACME_BASE : {}) }, tokens[user]);
      expect(res.status, JSON.stringify(res.body)).toBe(restricted ? 403 : c.allowed);
      if (restricted) expect(res.body.err?.code).toBe(ERR.accountRestricted);
    },
  );

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
  const update = (token: string | undefined, accountId: string | undefined, p: ReturnType<typeof perms>) =>
    call(t.app, 'admin/account/update', { accountId, perms: [p] }, token);

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
    const actor = {
      accountId: 'a',
      siteId: DEMO_BASE.siteId,
      perms: { roles: [ROLE.orgAdmin], kioskAcct: false, timeclockAcct: false, serviceAcct: false },
    };
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
    const res = await call(
      t.app,
      'admin/account/update',
      { accountId: id, perms: [{ ...perms([ROLE.siteAdmin]), siteId: ACME_BASE.siteId }] },
      tokens.admin,
    );
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
    const short = await call(
      t.app,
      'admin/account/create',
      { account: { userName: 'shorty', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'short', perms: [] },
      tokens.admin,
    );
    expect(short.status).toBe(400);
    expect(short.body.err?.message).toBe('The password must be at least 8 characters long.');
    const same = await call(
      t.app,
      'admin/account/create',
      { account: { userName: 'samesame', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'SameSame', perms: [] },
      tokens.admin,
    );
    expect(same.body.err?.message).toBe('The password must not be the account name.');
    const none = await call(
      t.app,
      'admin/account/create',
      { account: { userName: 'nopass', firstName: '', surnames: '', email: '', badgeCode: '' }, perms: [] },
      tokens.admin,
    );
    expect(none.status).toBe(400);

    await newAccount('newbie');
    await login('newbie', 'secret-pass-1');
    const dup = await call(
      t.app,
      'admin/account/create',
      { account: { userName: 'NEWBIE', firstName: '', surnames: '', email: '', badgeCode: '' }, password: 'secret-pass-1', perms: [] },
      tokens.admin,
    );
    expect(dup.status).toBe(409);
    expect(dup.body.err).toMatchObject({ code: ERR.dup, message: "An account with id 'NEWBIE' already exists." });
    const badge = await call(
      t.app,
      'admin/account/create',
      {
        account: { userName: 'badger', firstName: '', surnames: '', email: '', badgeCode: 'B-CLERK' },
        password: 'secret-pass-1',
        perms: [],
      },
      tokens.admin,
    );
    expect(badge.status).toBe(409);
    expect(badge.body.err?.message).toContain("'clerk'");
  });

  it('gives a new account without a badge code a random one, not made from the name; a given code is kept; shared-device accounts get none', async () => {
    const create = (userName: string, badgeCode: string, flags: Parameters<typeof perms>[1] = {}) =>
      call(
        t.app,
        'admin/account/create',
        {
          account: { userName, firstName: 'Rand', surnames: 'Badge', email: '', badgeCode },
          password: flags.serviceAcct ? undefined : 'secret-pass-1',
          perms: [perms([], flags)],
        },
        tokens.admin,
      );
    const [one, two] = [await create('rand-badge-1', ''), await create('rand-badge-2', '')];
    const codes = [one.body.account?.badgeCode, two.body.account?.badgeCode];
    for (const code of codes) {
      expect(code).toMatch(/^B-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
      expect(code).not.toContain('RAND');
    }
    expect(codes[0]).not.toBe(codes[1]);
    // Stored, and found by a scan.
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, one.body.account!.id));
    expect(row?.badgeCode).toBe(codes[0]);
    expect((await create('rand-badge-3', 'MY-OWN-7')).body.account?.badgeCode).toBe('MY-OWN-7');
    expect((await create('rand-kiosk', '', { kioskAcct: true })).body.account?.badgeCode).toBe('');
    expect((await create('rand-svc', '', { serviceAcct: true })).body.account?.badgeCode).toBe('');
    // An admin may still clear it.
    const cleared = await call(
      t.app,
      'admin/account/update',
      { accountId: two.body.account!.id, account: { badgeCode: '' } },
      tokens.admin,
    );
    expect(cleared.body.account?.badgeCode).toBe('');
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
    const again = await call(t.app, 'auth/login', { userName: 'leaver', password: 'secret-pass-1', workstationId: 'WS0001' }, undefined, {
      ip: uniqueIp(),
    });
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
    const first = await call(t.app, 'auth/login', { userName: 'tempie', password: 'secret-pass-1', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(first.body.mustChangePassword).toBe(false);
    expect((await call(t.app, 'admin/account/setPassword', { accountId: id, password: 'temp-pass-123' }, tokens.admin)).status).toBe(200);
    const temp = await call(t.app, 'auth/login', { userName: 'tempie', password: 'temp-pass-123', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(temp.body.mustChangePassword).toBe(true);
    // The server holds it too, not only the web: nothing but what the change-password form needs.
    const meanwhile = await call(t.app, 'stock/lookup', { value: 'A-01-3' }, temp.body.authToken!);
    expect(meanwhile.status).toBe(403);
    expect(meanwhile.body.err).toMatchObject({
      code: ERR.forbidden,
      message: 'Choose your own password first: the one an administrator set is temporary.',
    });
    expect((await call(t.app, 'account/me/get', {}, temp.body.authToken!)).status).toBe(200);
    const changed = await call(
      t.app,
      'account/me/changePassword',
      { oldPassword: 'temp-pass-123', newPassword: 'my-own-pass-1' },
      temp.body.authToken!,
    );
    expect(changed.status).toBe(200);
    // The same token works everywhere once the password is the account's own.
    expect((await call(t.app, 'stock/lookup', { value: 'A-01-3' }, temp.body.authToken!)).status).toBe(200);
    const own = await call(t.app, 'auth/login', { userName: 'tempie', password: 'my-own-pass-1', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(own.body.mustChangePassword).toBe(false);
    const reset = await call(t.app, 'admin/account/resetPassword', { accountId: id }, tokens.admin);
    const again = await call(t.app, 'auth/login', { userName: 'tempie', password: reset.body.password!, workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(again.body.mustChangePassword).toBe(true);
  });

  it('lets everyone change their own names and password with the current one', async () => {
    await newAccount('selfie');
    const token = await login('selfie', 'secret-pass-1');
    const { badgeCode } = (await call(t.app, 'account/me/get', {}, token)).body.account!;
    const upd = await call(
      t.app,
      'account/me/update',
      { account: { firstName: 'Sally', surnames: 'Selfie', email: 'sally@example.com' } },
      token,
    );
    expect(upd.body.account).toMatchObject({ firstName: 'Sally', email: 'sally@example.com', badgeCode });
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
    expect(
      (await call(t.app, 'account/me/changePassword', { oldPassword: 'secret-pass-1', newPassword: 'brand-new-pass' }, other)).status,
    ).toBe(200);
  });
});

describe('API keys of service accounts', () => {
  it('is shown once, stored hashed, works for a call, and a revoked key is refused', async () => {
    // A name of its own: a retry of this test must not meet the first try's account.
    const erp = unique('erp');
    const id = await newAccount(erp, [], { serviceAcct: true });
    const issued = await call(t.app, 'admin/account/issueApiKey', { accountId: id }, tokens.admin);
    const key = issued.body.apiKey!;
    expect(key).toMatch(API_KEY_PATTERN);
    expect(issued.body.account?.apiKey?.prefix).toBe(API_KEY_PATTERN.exec(key)?.[1]);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    // The secret is the key's last 43 characters (base64url: it may hold '_' itself, so not split on it).
    expect(JSON.stringify(row)).not.toContain(API_KEY_PATTERN.exec(key)![2]);
    expect(row?.apiKeyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await call(t.app, 'admin/account/get', { accountId: id }, tokens.admin)).body)).not.toContain(key);

    const me = await call(t.app, 'account/me/get', {}, key);
    expect(me.status).toBe(200);
    expect(me.body.account?.userName).toBe(erp);
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
    const res = await call(t.app, 'auth/login', { userName: 'svc', password: 'demo1234', workstationId: 'WS0001' }, undefined, {
      ip: uniqueIp(),
    });
    expect(res.status).toBe(401); // the key replaced its password
    const id = await newAccount('erp2', [], { serviceAcct: true });
    expect((await call(t.app, 'admin/account/setPassword', { accountId: id, password: 'some-password' }, tokens.admin)).status).toBe(400);
    const withPassword = await call(
      t.app,
      'admin/account/create',
      {
        account: { userName: 'erp3', firstName: '', surnames: '', email: '', badgeCode: '' },
        password: 'some-password',
        perms: [perms([], { serviceAcct: true })],
      },
      tokens.admin,
    );
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
