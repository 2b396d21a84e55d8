import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, type CallPath } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { SITE_DATA_DEFAULTS } from '../../lib/site-defaults.ts';
import {
  ACME,
  ACME_BASE,
  call,
  createAcme,
  createSecondNode,
  createTestApp,
  DEMO_BASE,
  DEMO_WORKSTATION,
  uniqueIp,
  type TestApp,
} from '../../test/harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from '../../test/logins.ts';
import { AUTH_CACHE_MS } from '../../lib/auth-cache.ts';
import { eq } from 'drizzle-orm';
import { accountPerms } from '../../db/schema.ts';
import { createAccount, DEMO } from '../../seed/demo.ts';
import { NO_ACCESS_HERE, SERVICE_NOT_INTERACTIVE } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
});
afterAll(() => t?.close());

/** The claims of a token in the spec's form (header!payload!signature). */
function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('!')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** The smallest valid body of each call that needs more than the base fields. */
const minimalBodies: Partial<Record<CallPath, Record<string, unknown>>> = {
  'site/getData': { section: 'conf', dataId: 'app_settings' },
  'site/putData': { section: 'conf', siteData: { dataId: 'x', data: {} } },
  'site/access/getVisibleFeatures': { sessionToken: 'x' },
  'capture/session/getSession': { sessionToken: 'x' },
  'capture/session/putSession': { sessionToken: 'x', session: { prefs: {} } },
  'account/me/update': { account: { firstName: '', surnames: '', email: '' } },
  'account/me/changePassword': { oldPassword: 'x', newPassword: 'x' },
  'admin/account/get': { accountId: 'x' },
  'admin/account/create': { account: { userName: 'x', firstName: '', surnames: '', email: '', badgeCode: '' }, perms: [] },
  'admin/account/update': { accountId: 'x' },
  'admin/account/setPassword': { accountId: 'x', password: 'x' },
  'admin/account/resetPassword': { accountId: 'x' },
  'admin/account/issueApiKey': { accountId: 'x' },
  'admin/account/revokeApiKey': { accountId: 'x' },
  'admin/role/create': { name: 'x' },
  'admin/role/rename': { name: 'x', newName: 'y' },
  'admin/role/remove': { name: 'x' },
  'admin/featureAccess/put': { levels: {} },
  'admin/workstation/update': { id: 'x', timeclock: false, kiosk: false },
  'admin/workstation/remove': { id: 'x' },
  'admin/workstation/pair': { code: 'ABCDEF', timeclock: false, kiosk: false },
  'workstation/pair/start': { workstationId: 'x' },
  'workstation/pair/claim': { workstationId: 'x', code: 'ABCDEF' },
  'admin/appSettings/put': { siteData: { data: SITE_DATA_DEFAULTS.conf!.app_settings } },
  'admin/brand/put': { siteData: { data: SITE_DATA_DEFAULTS.brand!.brand } },
  'record/insert': { type: 'department', record: {} },
  'record/update': { type: 'department', record: {} },
  'record/get': { type: 'department', id: 'x' },
  'record/list': { type: 'department' },
  'record/getSchema': { type: 'department' },
  'media/upload': { dataUrl: 'data:image/png;base64,' },
  'stock/lookup': { value: 'x' },
  'task/get': { taskCode: 'x' },
  'task/upsert': { record: {} },
  'task/import': { csv: 'x' },
  'labor/start': { idempotencyKey: 'key-00000001', taskCode: 'x', mode: 'single' },
  'labor/stop': { idempotencyKey: 'key-00000001', entryId: 'x' },
  'labor/report': { from: '2026-01-01', to: '2026-01-02', groupBy: 'day' },
  'labor/export': { from: '2026-01-01', to: '2026-01-02' },
  'stock/get': { stockId: 'x' },
  'stock/receive': { idempotencyKey: 'key-00000001', record: {} },
  'stock/adjust': { idempotencyKey: 'key-00000001', stockId: 'x', deltaType: 'delta', qty: 1, reason: 'Found' },
  'stock/move': { idempotencyKey: 'key-00000001', stockId: 'x', toLocation: 'x' },
  'stock/split': { idempotencyKey: 'key-00000001', stockId: 'x', qty: 1 },
  'order/save': { order: { type: 'sos', number: 'X', warehouse: 'MAIN', lines: [{ lineNo: 1, partNumber: 'X', qty: 1 }] } },
  'order/cancel': { idempotencyKey: 'key-00000001', orderId: 'x' },
  'pick/claim': { orderId: 'x' },
  'pick/release': { orderId: 'x' },
  'pick/confirm': { idempotencyKey: 'key-00000001', lineId: 'x', location: 'x', scan: 'x', qty: 1 },
  'pick/short': { idempotencyKey: 'key-00000001', lineId: 'x', reason: 'x' },
  'pick/skip': { idempotencyKey: 'key-00000001', lineId: 'x' },
  'pick/reportDiscrepancy': { idempotencyKey: 'key-00000001', lineId: 'x', location: 'x' },
  'pick/unpick': { idempotencyKey: 'key-00000001', pickId: 'x', toLocation: 'x' },
  'package/save': { orderId: 'x' },
  'package/pack': { idempotencyKey: 'key-00000001', packageId: 'x', stockId: 'x' },
  'package/unpack': { idempotencyKey: 'key-00000001', packageId: 'x', stockId: 'x' },
  'ship/confirm': { idempotencyKey: 'key-00000001', orderId: 'x' },
  'order/issue': { idempotencyKey: 'key-00000001', orderId: 'x' },
  'package/packingList': { packageId: 'x' },
  'warehouse/save': { record: {} },
  'location/get': { warehouse: 'x', code: 'x' },
  'location/save': { record: {} },
  'location/deactivate': { warehouse: 'x', code: 'x' },
  'item/get': { partNumber: 'x' },
  'item/save': { record: {} },
  'import/csv': { entity: 'warehouses', csv: 'code,name' },
  'export/csv': { entity: 'warehouses' },
  'label/template/save': { kind: 'stock', name: 'x', zpl: '^XA^XZ', widthMm: 50, heightMm: 25, dpi: 203 },
  'label/preview': { kind: 'stock', zpl: '^XA^XZ', widthMm: 50, heightMm: 25, dpi: 203 },
  'label/render': { kind: 'stock', source: { test: true } },
  'label/print': { idempotencyKey: 'key-00000001', kind: 'stock', printerId: 'a/b', source: { test: true } },
  'label/job/reprint': { idempotencyKey: 'key-00000001', jobId: 'x' },
  'label/job/printRest': { idempotencyKey: 'key-00000001', jobId: 'x' },
  'label/agent/create': { agentId: 'dock', name: 'Dock' },
  'label/agent/revoke': { agentId: 'dock' },
  'counts/sheet/create': { warehouse: 'x' },
  'counts/sheet/import': { csv: 'warehouse\nx' },
  'counts/sheet/pdf': { sheetId: 'x' },
  'counts/sheet/get': { sheetId: 'x' },
  'counts/sheet/start': { sheetId: 'x' },
  'counts/sheet/submit': { sheetId: 'x' },
  'counts/sheet/cancel': { sheetId: 'x' },
  'counts/scanLocation': { sheetId: 'x', location: 'x' },
  'counts/record': { idempotencyKey: 'key-00000001', sheetId: 'x', location: 'x' },
  'counts/review': { sheetId: 'x' },
  'counts/decide': { sheetId: 'x', decision: 'accept', all: true },
  'counts/post': { idempotencyKey: 'key-00000001', sheetId: 'x' },
  'counts/export': { sheetId: 'x' },
  'counts/threshold/get': { warehouse: 'x' },
  'counts/threshold/put': { warehouse: 'x', maxQty: null, maxPct: null },
  'counts/frequency/get': { warehouse: 'x' },
  'counts/frequency/put': { warehouse: 'x', days: null },
  'timeclock/punch': { badge: 'x' },
  'timeclock/setPin': { accountId: 'x', pin: null },
  'timeclock/punches/list': { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
  'timeclock/correct': { idempotencyKey: 'key-00000001', accountId: 'x', kind: 'in', at: '2026-01-01T00:00:00Z', reason: 'xxx' },
  'timeclock/punches/export': { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
  'kiosk/start': { badge: 'x' },
  'kiosk/current': {},
};

const NO_FLAGS = { kioskAcct: false, timeclockAcct: false, serviceAcct: false };

describe('auth/login', () => {
  it.each([
    { userName: 'admin', perms: { ...NO_FLAGS, roles: [ROLE.orgAdmin, ROLE.siteAdmin] } },
    { userName: 'clerk', perms: { ...NO_FLAGS, roles: [] } },
    { userName: 'kiosk', perms: { ...NO_FLAGS, roles: [], kioskAcct: true } },
    { userName: 'clock', perms: { ...NO_FLAGS, roles: [], timeclockAcct: true } },
    { userName: 'tcadmin', perms: { ...NO_FLAGS, roles: [ROLE.timeclockAdmin] } },
  ])('logs $userName in with its perms and the workstation flags', async ({ userName, perms }) => {
    const res = await call(
      t.app,
      'auth/login',
      { userName, password: 'demo1234', workstationId: DEMO_WORKSTATION, workstationSecret: DEMO.workstationSecret },
      undefined,
      { ip: uniqueIp() },
    );
    expect(res.status).toBe(200);
    expect(res.body.err).toBeUndefined();
    expect(res.body.perms).toEqual(perms);
    expect(res.body.org).toEqual({ id: 'demo', name: 'Demo Warehouse Co.' });
    expect(res.body.user).toMatchObject({ userName });
    expect(res.body.workstation).toEqual({ id: DEMO_WORKSTATION, kiosk: true, timeclock: true });
    const claims = claimsOf(res.body.authToken ?? '');
    expect(claims).toMatchObject({ typ: 'auth', sub: res.body.user?.id, org: 'demo', site: 'demo-main', app: 'floorhand' });
  });

  it('sends the token in the URL-safe form: three parts joined by "!" and no "."', async () => {
    const token = await tokenFor(t.app, 'clerk');
    expect(token).not.toContain('.');
    expect(token.split('!')).toHaveLength(3);
    // Both forms are accepted back.
    const dotted = token.replaceAll('!', '.');
    expect((await call(t.app, 'docIo/zplPrinter/getAttachedPrinters', {}, dotted)).status).toBe(200);
  });

  it('matches the account name regardless of case', async () => {
    const { login } = await demoLogin(t.app, 'ADMIN');
    expect(login.user?.userName).toBe('admin');
  });

  it('reports an unauthorised workstation and records it', async () => {
    const { login } = await demoLogin(t.app, 'clerk', { workstationId: 'WS-NEW-1' });
    expect(login.workstation).toEqual({ id: 'WS-NEW-1', kiosk: false, timeclock: false });
  });

  it.each([
    { why: 'wrong password', userName: 'admin', password: 'wrong-password' },
    { why: 'unknown account', userName: 'nobody', password: 'demo1234' },
    { why: 'account of another organisation', userName: 'admin', password: 'demo1234', base: ACME_BASE, wrongOrg: true },
  ])('refuses a $why with 401 ERR_LOGIN_FAILED', async ({ userName, password, base, wrongOrg }) => {
    // The acme admin's password is demo1234 too; the demo clerk must not log in on the acme site.
    const body = wrongOrg ? { ...base, userName: 'clerk', password } : { userName, password };
    const res = await call(t.app, 'auth/login', { ...body, workstationId: 'W1' }, undefined, { ip: uniqueIp() });
    expect(res.status).toBe(401);
    expect(res.body.err).toMatchObject({ code: ERR.loginFailed, message: expect.any(String), locId: 'test' });
    expect(res.body.authToken).toBeUndefined();
  });

  it('logs the acme admin in on the acme site, whatever orgId the body names', async () => {
    // Before login the client sends orgId 'demo' (spec section 7): the organisation is the site's own.
    const { token, login } = await demoLogin(t.app, ACME.adminUserName, { base: { ...ACME_BASE, orgId: 'demo' } });
    expect(login.org?.id).toBe(ACME.orgId);
    expect(claimsOf(token)).toMatchObject({ org: ACME.orgId, site: ACME.siteId });
  });

  it('gives the demo service account no password: its login fails like a wrong one', async () => {
    const res = await call(t.app, 'auth/login', { userName: 'svc', password: 'demo1234', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.loginFailed);
    expect(res.body.authToken).toBeUndefined();
  });

  it('refuses an account that is a service account on this site, even with a password, with 403 ERR_ACCOUNT_RESTRICTED', async () => {
    const id = await createAccount(t.db, DEMO.orgId, DEMO.siteId, { userName: 'svcpw', firstName: 'S', surnames: 'P' }, 'svc-password-1');
    await t.db.update(accountPerms).set({ serviceAcct: true }).where(eq(accountPerms.accountId, id));
    const res = await call(t.app, 'auth/login', { userName: 'svcpw', password: 'svc-password-1', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(res.status).toBe(403);
    expect(res.body.err).toMatchObject({ code: ERR.accountRestricted, message: SERVICE_NOT_INTERACTIVE });
    expect(res.body.authToken).toBeUndefined();
  });

  const EAST = { ...DEMO_BASE, siteId: DEMO.eastSiteId };
  it.each(['clerk', 'kiosk', 'clock', 'tcadmin'])(
    'refuses %s on a site where it holds no perms, naming no other site',
    async (userName) => {
      const res = await call(t.app, 'auth/login', { ...EAST, userName, password: 'demo1234', workstationId: 'W1' }, undefined, {
        ip: uniqueIp(),
      });
      expect(res.status).toBe(403);
      expect(res.body.err).toMatchObject({ code: ERR.accountRestricted, message: NO_ACCESS_HERE });
      expect(JSON.stringify(res.body)).not.toMatch(/demo-main/);
      expect(res.body.authToken).toBeUndefined();
    },
  );

  it('still lets the admin in on the east site, where it holds roles', async () => {
    const res = await call(t.app, 'auth/login', { ...EAST, userName: 'admin', password: 'demo1234', workstationId: 'W1' }, undefined, {
      ip: uniqueIp(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('refuses no-perms logins only after the right password (a wrong one is the usual 401)', async () => {
    const res = await call(
      t.app,
      'auth/login',
      { ...EAST, userName: 'clerk', password: 'wrong-password', workstationId: 'W1' },
      undefined,
      { ip: uniqueIp() },
    );
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.loginFailed);
  });

  it('spends the same password hashing on an unknown name as on a known one (names cannot be told by timing)', async () => {
    const once = async (userName: string) => {
      const started = performance.now();
      await call(t.app, 'auth/login', { userName, password: 'wrong-password', workstationId: 'W1' }, undefined, { ip: uniqueIp() });
      return performance.now() - started;
    };
    await once('clerk'); // warm-up: the decoy hash is made once
    await once('nobody-by-this-name');
    // Alternated, so a busy moment of a shared machine weighs on both alike; medians of 11.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 11; i++) {
      known.push(await once('clerk'));
      unknown.push(await once('nobody-by-this-name'));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[5]!;
    // Without the decoy an unknown name answered in about a sixth of the time (5 against 32 ms).
    expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
  });

  it.each(['svc', 'admin'])(
    'refuses a login of %s for another app with 400 ERR_BAD_INPUT (no way round the service-account rule)',
    async (userName) => {
      const res = await call(t.app, 'auth/login', { appId: 'other-app', userName, password: 'demo1234', workstationId: 'W1' }, undefined, {
        ip: uniqueIp(),
      });
      expect(res.status).toBe(400);
      expect(res.body.err?.code).toBe(ERR.badInput);
      expect(res.body.authToken).toBeUndefined();
    },
  );

  it('refuses an unknown site with 400 ERR_SITE_UNKNOWN', async () => {
    const res = await call(
      t.app,
      'auth/login',
      { siteId: 'no-such-site', userName: 'admin', password: 'demo1234', workstationId: 'W1' },
      undefined,
      { ip: uniqueIp() },
    );
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.siteUnknown);
  });

  it('answers 429 ERR_RATE_LIMITED after 5 failures, even with the right password, for that client only', async () => {
    const ip = uniqueIp();
    const attempt = (password: string, from = ip) =>
      call(t.app, 'auth/login', { userName: 'clerk', password, workstationId: 'W1' }, undefined, { ip: from });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong')).body.err?.code).toBe(ERR.loginFailed);
    const limited = await attempt('demo1234');
    expect(limited.status).toBe(429);
    expect(limited.body.err).toMatchObject({ code: ERR.rateLimited, message: expect.stringMatching(/minute/) });
    expect((await attempt('wrong')).status).toBe(429);
    // Another client logging in to the same account is not slowed.
    expect((await attempt('demo1234', uniqueIp())).status).toBe(200);
  });

  it('cannot be dodged by sending a different X-Forwarded-For each time', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const headers = { 'x-forwarded-for': `203.0.113.${i}` };
      statuses.push(
        (await call(t.app, 'auth/login', { userName: 'clock', password: 'wrong', workstationId: 'W1' }, undefined, { ip, headers })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('believes X-Forwarded-For from a proxy on the same host', async () => {
    const client = uniqueIp();
    const attempt = (from: string) =>
      call(t.app, 'auth/login', { userName: 'tcadmin', password: 'wrong', workstationId: 'W1' }, undefined, {
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': from },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(client)).status).toBe(401);
    expect((await attempt(client)).status).toBe(429);
    expect((await attempt(uniqueIp())).status).toBe(401);
  });

  it('forgets earlier failures after a successful login', async () => {
    const ip = uniqueIp();
    const attempt = (password: string) =>
      call(t.app, 'auth/login', { userName: 'kiosk', password, workstationId: 'W1' }, undefined, { ip });
    for (let i = 0; i < 4; i++) expect((await attempt('wrong')).status).toBe(401);
    expect((await attempt('demo1234')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt('wrong')).status).toBe(401);
    expect((await attempt('demo1234')).status).toBe(200);
  });

  it.each([
    { asked: undefined, expected: 3600 },
    { asked: 60, expected: 60 },
    { asked: 5, expected: 5 },
    { asked: 999_999, expected: 3600 },
  ])('gives a token lifetime of $expected s when asked for $asked (capped by TOKEN_LIFETIME_SECS)', async ({ asked, expected }) => {
    const { token } = await demoLogin(t.app, 'clerk', { lifetimeSecs: asked });
    const c = claimsOf(token);
    expect(Number(c.exp) - Number(c.iat)).toBe(expected);
    expect(c.lt).toBe(expected);
  });

  it.each([
    { why: 'a lifetime below 5 s', extra: { lifetimeSecs: 4 }, field: 'lifetimeSecs' },
    { why: 'a non-integer lifetime', extra: { lifetimeSecs: 10.5 }, field: 'lifetimeSecs' },
    { why: 'an empty password', extra: { password: '' }, field: 'password' },
    { why: 'a numeric account name', extra: { userName: 42 }, field: 'userName' },
    { why: 'no workstation', extra: { workstationId: undefined }, field: 'workstationId' },
    { why: 'a workstation id of 41 characters', extra: { workstationId: 'W'.repeat(41) }, field: 'workstationId' },
    { why: 'stayLoggedIn as a string', extra: { stayLoggedIn: 'yes' }, field: 'stayLoggedIn' },
    { why: 'a NUL character in the account name', extra: { userName: 'ad\u0000min' }, field: 'userName' },
    { why: 'a NUL character in the workstation id', extra: { workstationId: 'W\u0000S' }, field: 'workstationId' },
  ])('refuses $why with 400 ERR_BAD_INPUT naming the field', async ({ extra, field }) => {
    const res = await call(t.app, 'auth/login', { userName: 'clerk', password: 'demo1234', workstationId: 'W1', ...extra }, undefined, {
      ip: uniqueIp(),
    });
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain(field);
  });
});

describe('auth/refresh', () => {
  it('gives a new valid token with the same identity and lifetime', async () => {
    const { token } = await demoLogin(t.app, 'clerk', { lifetimeSecs: 600, stayLoggedIn: true });
    const res = await call(t.app, 'auth/refresh', {}, token);
    expect(res.status).toBe(200);
    const fresh = res.body.authToken ?? '';
    expect(fresh).not.toBe(token);
    expect(fresh).not.toContain('.');
    const [before, after] = [claimsOf(token), claimsOf(fresh)];
    expect(after).toMatchObject({ sub: before.sub, org: 'demo', site: 'demo-main', app: 'floorhand', lt: 600, stay: true });
    expect(after.jti).not.toBe(before.jti);
    expect((await call(t.app, 'auth/refresh', {}, fresh)).status).toBe(200);
  });
});

describe('auth/logout', () => {
  it('revokes the token: the next call answers 401 ERR_UNAUTHORIZED', async () => {
    const token = await tokenFor(t.app, 'clerk');
    const { token: other } = await demoLogin(t.app, 'clerk');
    const res = await call(t.app, 'auth/logout', {}, token);
    expect(res.status).toBe(200);
    expect(res.body.err).toBeUndefined();
    for (const path of ['auth/refresh', 'auth/logout', 'docIo/zplPrinter/getAttachedPrinters'] as const) {
      const after = await call(t.app, path, {}, token);
      expect(after.status).toBe(401);
      expect(after.body.err?.code).toBe(ERR.unauthorized);
    }
    // Another login of the same account stays valid.
    expect((await call(t.app, 'auth/refresh', {}, other)).status).toBe(200);
  });
});

describe('several server nodes', () => {
  it('a logout on one node is refused on the other: at once with Redis, within AUTH_CACHE_MS without', async () => {
    const other = await createSecondNode(t);
    try {
      const token = await tokenFor(t.app, 'clerk');
      // The other node has seen the token, so it remembers who it is.
      expect((await call(other.app, 'account/me/get', {}, token)).status).toBe(200);
      expect((await call(t.app, 'auth/logout', {}, token)).status).toBe(200);
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < AUTH_CACHE_MS + 1000) {
        status = (await call(other.app, 'account/me/get', {}, token)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(401);
      // Through Redis the other node is told after the logout's commit, in well under the cache's time.
      if (process.env.REDIS_URL) expect(Date.now() - started).toBeLessThan(AUTH_CACHE_MS / 2);
    } finally {
      await other.close();
    }
  });
});

describe('tokens', () => {
  it('refuses an expired token with 401 ERR_UNAUTHORIZED', async () => {
    const { token } = await demoLogin(t.app, 'clerk', { lifetimeSecs: 5 });
    expect((await call(t.app, 'auth/refresh', {}, token)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60 * 60_000);
      const res = await call(t.app, 'auth/refresh', {}, token);
      expect(res.status).toBe(401);
      expect(res.body.err?.code).toBe(ERR.unauthorized);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    {
      why: 'a changed payload (another account)',
      tamper: (tok: string) => {
        const [h, p, s] = tok.split('!');
        const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
        return [h, b64({ ...claims, org: 'acme', site: 'acme-main' }), s].join('!');
      },
    },
    {
      why: 'a changed signature',
      tamper: (tok: string) => {
        const [h, p, s = ''] = tok.split('!');
        const i = Math.floor(s.length / 2);
        return [h, p, s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)].join('!');
      },
    },
    { why: 'no signature', tamper: (tok: string) => tok.split('!').slice(0, 2).join('!') + '!' },
    {
      why: 'alg "none"',
      tamper: (tok: string) => [b64({ alg: 'none' }), tok.split('!')[1], ''].join('!'),
    },
    { why: 'garbage', tamper: () => 'not-a-token' },
  ])('refuses a token with $why with 401 ERR_BAD_TOKEN', async ({ tamper }) => {
    const token = await tokenFor(t.app, 'clerk');
    const res = await call(t.app, 'auth/refresh', {}, tamper(token));
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.badToken);
  });

  it('refuses a session token used as the bearer token', async () => {
    const token = await tokenFor(t.app, 'clerk');
    const { body } = await call(t.app, 'capture/session/genSessionToken', {}, token);
    const res = await call(t.app, 'auth/refresh', {}, body.sessionToken);
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.badToken);
  });

  const required = (Object.keys(calls) as CallPath[]).filter((p) => calls[p].auth === 'required');
  it.each(required)('%s without a token answers 401 ERR_UNAUTHORIZED', async (path) => {
    const res = await call(t.app, path, minimalBodies[path] ?? {});
    expect(res.status).toBe(401);
    expect(res.body.err).toMatchObject({ code: ERR.unauthorized, locId: 'test' });
  });

  it('refuses an Authorization header that is not a bearer token like a missing one', async () => {
    const token = await tokenFor(t.app, 'clerk');
    const res = await call(t.app, 'auth/refresh', {}, undefined, { headers: { authorization: `Basic ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.unauthorized);
  });
});

describe('organisation boundary', () => {
  const acmeBody = { siteId: ACME.siteId, orgId: ACME.orgId };
  it.each([
    { why: 'orgId and siteId of acme', body: acmeBody },
    { why: 'only the orgId of acme', body: { orgId: ACME.orgId } },
    { why: 'only the siteId of acme', body: { siteId: ACME.siteId } },
    { why: 'another appId', body: { appId: 'other-app' } },
  ])('refuses a demo token with $why: 403 ERR_ORG_MISMATCH on every call', async ({ body }) => {
    const token = await tokenFor(t.app, 'admin');
    for (const path of Object.keys(calls) as CallPath[]) {
      if (calls[path].auth === 'none') continue;
      const res = await call(t.app, path, { ...body, ...minimalBodies[path] }, token);
      expect(res.status, path).toBe(403);
      expect(res.body.err?.code, path).toBe(ERR.orgMismatch);
    }
    // The refused logout revoked nothing.
    expect((await call(t.app, 'auth/refresh', {}, token)).status).toBe(200);
  });

  it('refuses an acme token naming the demo site, and accepts it with its own', async () => {
    const token = await acmeAdminToken(t.app);
    const res = await call(t.app, 'auth/refresh', { ...DEMO_BASE }, token);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.orgMismatch);
    expect((await call(t.app, 'auth/refresh', ACME_BASE, token)).status).toBe(200);
  });
});
