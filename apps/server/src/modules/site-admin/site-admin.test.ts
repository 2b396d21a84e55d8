import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR } from '@floorhand/contract/errors';
import { ROLE } from '@floorhand/contract/perms';
import { describeAudit } from '@floorhand/contract/site-admin';
import { auditLog, workstations } from '../../db/schema.ts';
import { call, DEMO_BASE } from '../../test/harness.ts';
import { demoLogin } from '../../test/logins.ts';
import { SITE_DATA_DEFAULTS } from '../../lib/site-defaults.ts';
import { login, newAccount, pairCode, perms, seenWorkstation, siteData, t, tokens, useAdminFixture } from '../../test/admin-fixture.ts';

useAdminFixture();

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
    const res = await call(
      t.app,
      'admin/account/update',
      { accountId: id, perms: [{ ...perms([ROLE.timeclockAdmin]), siteId: 'demo-east' }] },
      tokens.admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.account?.perms.map((p) => p.siteId).sort()).toEqual(['demo-east', 'demo-main']);
    const east = { ...DEMO_BASE, siteId: 'demo-east' };
    expect((await demoLogin(t.app, 'eastworker', { password: 'secret-pass-1', base: east })).login.user?.id).toBe(id);
  });
});

describe('workstations: authorisation is a secret the device holds', () => {
  const loginFrom = (userName: string, workstationId: string, workstationSecret: string | undefined) =>
    demoLogin(t.app, userName, { workstationId, workstationSecret });

  it('an authorised id without its secret, or with a wrong one, is not authorised', async () => {
    expect((await loginFrom('kiosk', 'WS0001', 'demo-workstation-secret')).login.workstation).toEqual({
      id: 'WS0001',
      timeclock: true,
      kiosk: true,
    });
    expect((await loginFrom('kiosk', 'WS0001', undefined)).login.workstation).toEqual({ id: 'WS0001', timeclock: false, kiosk: false });
    expect((await loginFrom('kiosk', 'WS0001', 'a-guessed-secret-value')).login.workstation).toEqual({
      id: 'WS0001',
      timeclock: false,
      kiosk: false,
    });
  });

  it('authorised from the device itself, the answer carries its secret; authorised from elsewhere, the device holds none', async () => {
    const upd = await call(
      t.app,
      'admin/workstation/update',
      { id: 'WS-HERE-1', timeclock: false, kiosk: true, thisDevice: true },
      tokens.admin,
    );
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await loginFrom('kiosk', 'WS-HERE-1', upd.body.secret)).login.workstation).toEqual({
      id: 'WS-HERE-1',
      timeclock: false,
      kiosk: true,
    });
    const [stored] = await t.db.select({ hash: workstations.secretHash }).from(workstations).where(eq(workstations.id, 'WS-HERE-1'));
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.hash).not.toContain(upd.body.secret);
    const elsewhere = await call(t.app, 'admin/workstation/update', { id: 'WS-THERE-1', timeclock: true, kiosk: true }, tokens.admin);
    expect(elsewhere.body.secret).toBeUndefined();
    expect((await loginFrom('clock', 'WS-THERE-1', undefined)).login.workstation).toEqual({
      id: 'WS-THERE-1',
      timeclock: false,
      kiosk: false,
    });
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

  it('a code for an id that holds a secret takes the authorised device over only on an explicit, audited "replace this device"', async () => {
    const id = await seenWorkstation();
    const upd = await call(t.app, 'admin/workstation/update', { id, timeclock: true, kiosk: true, thisDevice: true }, tokens.admin);
    const realSecret = upd.body.secret!;
    expect((await loginFrom('kiosk', id, realSecret)).login.workstation).toEqual({ id, timeclock: true, kiosk: true });
    const lastSeen = async () => (await t.db.select().from(workstations).where(eq(workstations.id, id)))[0]!.lastSeen.toISOString();
    const seenBefore = await lastSeen();
    // A clerk's browser sends the id without the secret, then asks for a code with it: the device's
    // last account and last seen stay the real device's.
    expect((await loginFrom('clerk', id, undefined)).login.workstation).toEqual({ id, timeclock: false, kiosk: false });
    const code = await pairCode(id);
    const listed = (await call(t.app, 'admin/workstation/list', {}, tokens.admin)).body.workstations?.find((w) => w.id === id);
    expect(listed).toMatchObject({ lastUserName: 'kiosk', lastSeen: seenBefore });
    // The admin types the code: refused, naming the device that would lose its rights.
    const refused = await call(t.app, 'admin/workstation/pair', { code, timeclock: true, kiosk: true }, tokens.admin);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.err?.code).toBe(ERR.conflict);
    expect(refused.body.err?.message).toContain(`Workstation ${id} is already an authorised device`);
    expect(refused.body.err?.message).toContain('last used by kiosk');
    expect(JSON.parse(refused.body.err!.detail!)).toEqual({ workstationId: id, lastUserName: 'kiosk', lastSeen: seenBefore });
    // Nothing was approved: the clerk's browser gets no secret, the real device keeps its rights.
    expect((await call(t.app, 'workstation/pair/claim', { workstationId: id, code }, tokens.clerk)).body).toMatchObject({ pending: true });
    expect((await loginFrom('kiosk', id, realSecret)).login.workstation).toEqual({ id, timeclock: true, kiosk: true });
    // Replacing on purpose: the pairing proceeds, the audit log says so, the old device loses its rights.
    const replaced = await call(t.app, 'admin/workstation/pair', { code, timeclock: false, kiosk: true, replace: true }, tokens.admin);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'admin/workstation/pair')));
    expect(entry?.after).toMatchObject({ kiosk: true, timeclock: false, replaced: true, replacedLastUser: 'kiosk' });
    expect(describeAudit({ ...entry!, before: entry!.before, after: entry!.after })).toBe(
      `Paired workstation ${id}, replacing the device that held it`,
    );
    const claim = await call(t.app, 'workstation/pair/claim', { workstationId: id, code }, tokens.clerk);
    expect(claim.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await loginFrom('kiosk', id, realSecret)).login.workstation).toEqual({ id, timeclock: false, kiosk: false });
    expect((await loginFrom('kiosk', id, claim.body.secret)).login.workstation).toEqual({ id, timeclock: false, kiosk: true });
  });

  it('a code for an id without a secret pairs as before, and is not audited as a replacement', async () => {
    const id = await seenWorkstation();
    const code = await pairCode(id);
    expect((await call(t.app, 'admin/workstation/pair', { code, timeclock: true, kiosk: false }, tokens.admin)).status).toBe(200);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'admin/workstation/pair')));
    expect(entry?.after).toEqual({ timeclock: true, kiosk: false });
  });

  it('refuses an unknown, expired or other-device code, and a malformed one, in the spec shape', async () => {
    const id = await seenWorkstation();
    const code = await pairCode(id);
    const other = await seenWorkstation();
    expect((await call(t.app, 'workstation/pair/claim', { workstationId: other, code }, tokens.clerk)).status).toBe(404);
    await t.db
      .update(workstations)
      .set({ pairExpires: new Date(Date.now() - 1000) })
      .where(eq(workstations.id, id));
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
    for (const path of [
      'admin/workstation/pair',
      'admin/workstation/remove',
      'admin/workstation/update',
      'workstation/pair/start',
      'workstation/pair/claim',
    ] as const) {
      for (const a of junk) {
        for (const key of ['id', 'code', 'workstationId', 'timeclock', 'thisDevice', 'replace']) {
          const res = await call(
            t.app,
            path,
            { [key]: a, id: 'WS-F', code: 'ABCDEF', workstationId: 'WS-F', timeclock: false, kiosk: false, [`${key}`]: a } as never,
            tokens.admin,
          );
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
    const upd = await call(
      t.app,
      'admin/workstation/update',
      { id: 'WS4321', timeclock: false, kiosk: true, thisDevice: true },
      tokens.admin,
    );
    expect(upd.body.workstation).toMatchObject({ id: 'WS4321', kiosk: true });
    const kiosk = await demoLogin(t.app, 'kiosk', { workstationId: 'WS4321', workstationSecret: upd.body.secret });
    expect(kiosk.login.workstation).toEqual({ id: 'WS4321', timeclock: false, kiosk: true });
    expect((await call(t.app, 'admin/workstation/update', { id: 'bad id!', timeclock: false, kiosk: true }, tokens.admin)).status).toBe(
      400,
    );
  });

  it('validates app settings, keeps _rev and unknown sections', async () => {
    const current = await siteData('conf', 'app_settings');
    const data = {
      ...SITE_DATA_DEFAULTS.conf!.app_settings,
      labor: { displayScale: 2, roundToMinutes: 15, batchGraceTimeSecs: 60 },
      printing: { extra: true },
    };
    const bad = await call(
      t.app,
      'admin/appSettings/put',
      { siteData: { _rev: current?._rev, data: { ...data, labor: { ...data.labor, roundToMinutes: -1 } } } },
      tokens.admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain('labor.roundToMinutes');
    const noReasons = await call(
      t.app,
      'admin/appSettings/put',
      { siteData: { _rev: current?._rev, data: { ...data, stockAdjust: { clearDstLoc: true, reasons: [] } } } },
      tokens.admin,
    );
    expect(noReasons.status).toBe(400);
    const ok = await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data } }, tokens.admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await siteData('conf', 'app_settings'))?.data).toMatchObject({ labor: { roundToMinutes: 15 }, printing: { extra: true } });
    expect((await call(t.app, 'admin/appSettings/put', { siteData: { _rev: current?._rev, data } }, tokens.admin)).status).toBe(409);
    // The generic site/putData checks the same shape.
    const generic = await call(
      t.app,
      'site/putData',
      { section: 'conf', siteData: { dataId: 'app_settings', _rev: 2, data: { ...data, labor: { displayScale: 'one' } } } },
      tokens.admin,
    );
    expect(generic.status).toBe(400);
    expect(generic.body.err?.message).toContain('siteData.data.labor');
    const brand = await call(
      t.app,
      'site/putData',
      { section: 'brand', siteData: { dataId: 'brand', data: { colors: {} } } },
      tokens.admin,
    );
    expect(brand.status).toBe(400);
  });

  it('validates the brand, which everyone reads before login', async () => {
    const current = await siteData('brand', 'brand');
    const brand = SITE_DATA_DEFAULTS.brand!.brand as { colors: Record<string, string> };
    const bad = await call(
      t.app,
      'admin/brand/put',
      { siteData: { _rev: current?._rev, data: { ...brand, colors: { ...brand.colors, primary: 'red' } } } },
      tokens.admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain('colors.primary');
    const data = {
      ...brand,
      siteName: 'North DC',
      logo: { mediaId: 'm1' },
      favIcon: { '16': { mediaId: 'f16' }, '192': { mediaId: 'f192' } },
      colors: { ...brand.colors, primary: '#aa3300' },
    };
    const ok = await call(t.app, 'admin/brand/put', { siteData: { _rev: current?._rev, data } }, tokens.admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const pub = await call(t.app, 'site/getData', { section: 'brand', dataId: 'brand' });
    expect(pub.body.siteData?.data).toMatchObject({
      siteName: 'North DC',
      colors: { primary: '#aa3300' },
      favIcon: { '192': { mediaId: 'f192' } },
    });
  });

  it('writes who, when, what, before and after for admin changes, readable page by page', async () => {
    const id = await newAccount('audited');
    await call(t.app, 'admin/account/update', { accountId: id, account: { firstName: 'Audrey' } }, tokens.admin);
    const res = await call(t.app, 'admin/audit/list', { limit: 2 }, tokens.admin);
    expect(res.body.more).toBe(true);
    expect(res.body.entries?.[0]).toMatchObject({
      action: 'admin/account/update',
      entity: 'account',
      entityId: id,
      userName: 'admin',
      before: { firstName: 'Test' },
      after: { firstName: 'Audrey' },
    });
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
