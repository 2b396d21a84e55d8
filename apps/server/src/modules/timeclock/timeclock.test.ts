import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { ERR } from '@floorhand/contract/errors';
import { APP_SETTINGS_DEFAULTS } from '@floorhand/contract/site-admin';
import { PIN_MAX_FAILURES, TIMECLOCK_SETTINGS_DEFAULTS, type TimeclockSettings } from '@floorhand/contract/timeclock';
import { accounts, media, punches, siteData } from '../../db/schema.ts';
import { purgeExpired } from '../housekeeping/service.ts';
import { query } from '../../db/sql.ts';
import { DEMO, createAccount } from '../../seed/demo.ts';
import { ACME, ACME_BASE, call, createAcme, createTestApp, uniqueIp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { isClockedIn } from './service.ts';

// The time clock on both databases (DATABASE_URL set: PostgreSQL; otherwise PGlite): badge punches,
// double scans, PINs, missed punches, corrections that never change the original, export, rights.

let t: TestApp;
let clock: string;
let tcadmin: string;
let admin: string;
let clerk: string;
let workerNo = 0;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  clock = await tokenFor(t.app, 'clock');
  tcadmin = await tokenFor(t.app, 'tcadmin');
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
});
afterAll(() => t?.close());

/** A fresh worker of the demo site with a badge of its own. */
async function newWorker(): Promise<{ id: string; badge: string }> {
  workerNo += 1;
  const userName = `worker${workerNo}`;
  const id = await createAccount(
    t.db,
    DEMO.orgId,
    DEMO.siteId,
    { userName, firstName: `Wanda${workerNo}`, surnames: 'Worker' },
    DEMO.password,
  );
  return { id, badge: `B-${userName.toUpperCase()}` };
}

const punch = (body: Record<string, unknown>, token = clock) => call(t.app, 'timeclock/punch', body, token);
/** Moves the worker's last punch (and its guard) back in time, as if `secs` had passed. */
async function age(accountId: string, secs: number) {
  await query(
    t.db,
    sql`UPDATE punch_guards SET last_punch_at = last_punch_at - make_interval(secs => ${secs}), last_client_ts = last_client_ts - make_interval(secs => ${secs}) WHERE account_id = ${accountId}`,
  );
}
/** A slow server: moves only the server time of the worker's last punch back, as if the server had handled this scan `secs` later. */
async function serverLag(accountId: string, secs: number) {
  await query(
    t.db,
    sql`UPDATE punch_guards SET last_punch_at = last_punch_at - make_interval(secs => ${secs}) WHERE account_id = ${accountId}`,
  );
}
const isoAt = (ms: number) => new Date(ms).toISOString();
const punchesOf = (accountId: string) => t.db.select().from(punches).where(eq(punches.accountId, accountId));

describe('punching', () => {
  it('punches in, then out, with the device, server time and client time; answers status and today', async () => {
    const w = await newWorker();
    const clientTime = new Date().toISOString();
    const first = await punch({ badge: w.badge, clientTime });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      result: 'punched',
      worker: { firstName: expect.stringMatching(/^Wanda/), initial: 'W' },
      punch: { kind: 'in', deviceId: 'WS0001', source: 'clock', status: 'valid' },
      status: { in: true },
    });
    expect(Date.parse(first.body.punch!.clientTs!)).toBe(Date.parse(clientTime));
    expect(first.body.today).toHaveLength(1);
    // Nothing about other people in the answer.
    expect(JSON.stringify(first.body)).not.toContain('userName');
    await age(w.id, 60);
    const second = await punch({ badge: w.badge });
    expect(second.body).toMatchObject({ result: 'punched', punch: { kind: 'out' }, status: { in: false } });
    expect(second.body.today?.map((p) => p.kind)).toEqual(['in', 'out']);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id)).toBe(false);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id, new Date(Date.parse(first.body.punch!.at) + 1))).toBe(true);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id, new Date(Date.parse(first.body.punch!.at) - 1000))).toBe(false);
  });

  it('a second scan within a few seconds never punches twice', async () => {
    const w = await newWorker();
    expect((await punch({ badge: w.badge })).body.result).toBe('punched');
    const again = await punch({ badge: w.badge });
    expect(again.body).toMatchObject({ result: 'duplicate', status: { in: true } });
    expect(await punchesOf(w.id)).toHaveLength(1);
  });

  it('a slow server: two scans 2 s apart on the device, handled 10 s apart by the server, punch once', async () => {
    const w = await newWorker();
    const c0 = Date.now() - 2000;
    expect((await punch({ badge: w.badge, clientTime: isoAt(c0) })).body.result).toBe('punched');
    await serverLag(w.id, 10);
    const again = await punch({ badge: w.badge, clientTime: isoAt(c0 + 2000) });
    expect(again.body).toMatchObject({ result: 'duplicate', status: { in: true } });
    expect(await punchesOf(w.id)).toHaveLength(1);
  });

  it('two scans 20 s apart on the device punch twice, however the server saw them', async () => {
    const w = await newWorker();
    const c0 = Date.now() - 20_000;
    expect((await punch({ badge: w.badge, clientTime: isoAt(c0) })).body.result).toBe('punched');
    await serverLag(w.id, 10);
    const second = await punch({ badge: w.badge, clientTime: isoAt(c0 + 20_000) });
    expect(second.body).toMatchObject({ result: 'punched', punch: { kind: 'out' } });
    expect(await punchesOf(w.id)).toHaveLength(2);
  });

  it('a device clock far from the server (stuck an hour behind) is not trusted: it never holds back a real punch', async () => {
    const w = await newWorker();
    const stuck = isoAt(Date.now() - 3_600_000);
    expect((await punch({ badge: w.badge, clientTime: stuck })).body.result).toBe('punched');
    await serverLag(w.id, 10);
    expect((await punch({ badge: w.badge, clientTime: stuck })).body.result).toBe('punched');
    expect(await punchesOf(w.id)).toHaveLength(2);
  });

  it('twenty scans of one badge at the same moment, with device times 1 s apart, punch exactly once', async () => {
    const w = await newWorker();
    const c0 = Date.now() - 20_000;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => punch({ badge: w.badge, clientTime: isoAt(c0 + i * 1000) })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.result === 'punched')).toHaveLength(1);
    expect(await punchesOf(w.id)).toHaveLength(1);
  });

  it('twenty scans of one badge at the same moment punch exactly once (the database decides)', async () => {
    const w = await newWorker();
    const results = await Promise.all(Array.from({ length: 20 }, () => punch({ badge: w.badge })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.result === 'punched')).toHaveLength(1);
    expect(await punchesOf(w.id)).toHaveLength(1);
  });

  it('stores the photo taken at the scan; a photo of another organisation is not found', async () => {
    const w = await newWorker();
    const image = new PNG({ width: 4, height: 3 });
    const dataUrl = `data:image/png;base64,${PNG.sync.write(image).toString('base64')}`;
    const up = await call(t.app, 'media/upload', { dataUrl, purpose: 'photo' }, clock);
    expect(up.status).toBe(200);
    const res = await punch({ badge: w.badge, photoMediaId: up.body.mediaId });
    expect(res.body.punch?.photoMediaId).toBe(up.body.mediaId);
    const acme = await acmeAdminToken(t.app);
    const acmeUp = await call(t.app, 'media/upload', { ...ACME_BASE, dataUrl, purpose: 'photo' }, acme);
    const w2 = await newWorker();
    const refused = await punch({ badge: w2.badge, photoMediaId: acmeUp.body.mediaId });
    expect(refused.status).toBe(404);
    expect(await punchesOf(w2.id)).toHaveLength(0);
  });

  it('an unknown badge, a badge of another organisation, a kiosk or time-clock badge: not recognised, no list of staff', async () => {
    for (const badge of ['B-NOBODY', 'B-KIOSK', 'B-CLOCK', 'B-SVC']) {
      const res = await punch({ badge });
      expect(res.status, badge).toBe(404);
      expect(res.body.err?.message).toMatch(/not recognised/);
    }
  });

  it('refuses the clock on a device not authorised as a time clock, and every account but time clocks and admins', async () => {
    const unauthorised = await tokenFor(t.app, 'clock', { workstationId: 'WS9999', workstationSecret: undefined });
    const w = await newWorker();
    const res = await punch({ badge: w.badge }, unauthorised);
    expect(res.status).toBe(403);
    expect(res.body.err?.message).toMatch(/not authorised as a timeclock/);
    for (const token of [clerk, tcadmin, await tokenFor(t.app, 'kiosk')]) expect((await punch({ badge: w.badge }, token)).status).toBe(403);
    expect(await punchesOf(w.id)).toHaveLength(0);
    // The spec admits admins to the clock: on an authorised device they may run it.
    expect((await punch({ badge: w.badge }, admin)).body.result).toBe('punched');
  });
});

describe('PINs', () => {
  it('a typed badge needs the PIN; wrong PINs lock the badge after the limit, even for the right PIN', async () => {
    const w = await newWorker();
    const typedNoPinSet = await punch({ badge: w.badge, entry: 'typed', pin: '1234' });
    expect(typedNoPinSet.status).toBe(404);
    expect((await call(t.app, 'timeclock/setPin', { accountId: w.id, pin: '4711' }, tcadmin)).status).toBe(200);
    expect((await punch({ badge: w.badge, entry: 'typed' })).status).toBe(404);
    expect((await punch({ badge: w.badge, entry: 'typed', pin: '' })).status).toBe(400);
    const ok = await punch({ badge: w.badge, entry: 'typed', pin: '4711' });
    expect(ok.body.result).toBe('punched');
    for (let i = 0; i < PIN_MAX_FAILURES; i++) expect((await punch({ badge: w.badge, entry: 'typed', pin: '0000' })).status).toBe(404);
    await age(w.id, 60);
    const locked = await punch({ badge: w.badge, entry: 'typed', pin: '4711' });
    expect(locked.status).toBe(429);
    expect(locked.body.err?.code).toBe(ERR.rateLimited);
    expect(await punchesOf(w.id)).toHaveLength(1);
    // Another badge is not locked.
    const other = await newWorker();
    await call(t.app, 'timeclock/setPin', { accountId: other.id, pin: '2468' }, tcadmin);
    expect((await punch({ badge: other.badge, entry: 'typed', pin: '2468' })).body.result).toBe('punched');
  });

  it('only a timeclockAdmin or an admin sets PINs, and only for accounts of their organisation', async () => {
    const w = await newWorker();
    expect((await call(t.app, 'timeclock/setPin', { accountId: w.id, pin: '1234' }, clerk)).status).toBe(403);
    const acme = await acmeAdminToken(t.app);
    expect((await call(t.app, 'timeclock/setPin', { ...ACME_BASE, accountId: w.id, pin: '1234' }, acme)).status).toBe(404);
    expect((await call(t.app, 'timeclock/setPin', { accountId: w.id, pin: '12ab' }, admin)).status).toBe(400);
    expect((await call(t.app, 'timeclock/setPin', { accountId: w.id, pin: null }, admin)).status).toBe(200);
  });
});

async function inSinceHoursAgo(hours: number) {
  const w = await newWorker();
  const at = new Date(Date.now() - hours * 3_600_000).toISOString();
  await t.db.insert(punches).values({
    id: `old-${w.id}`,
    orgId: DEMO.orgId,
    siteId: DEMO.siteId,
    accountId: w.id,
    kind: 'in',
    at,
    source: 'clock',
    status: 'valid',
    deviceId: 'WS0001',
    audit: { create: { user: 'x', ts: at }, modify: { user: 'x', ts: at } },
  });
  return { ...w, inAt: at };
}
/** Saves the app settings' timeclock section (the clock's time zone in these calls is UTC). */
async function putTimeclock(timeclock: TimeclockSettings) {
  const [row] = await t.db
    .select()
    .from(siteData)
    .where(and(eq(siteData.siteId, DEMO.siteId), eq(siteData.dataId, 'app_settings')));
  const data = { ...APP_SETTINGS_DEFAULTS, ...(row?.data ?? {}), timeclock };
  const res = await call(t.app, 'admin/appSettings/put', { siteData: { ...(row ? { _rev: row.rev } : {}), data } }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
/** The UTC time of day of an instant as HH:mm. */
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe('the shift rule: when the clock asks about a missed punch', () => {
  it('a 13-hour-old in asks (maximum shift 12 h by default); an 11-hour-old one punches out', async () => {
    const old = await inSinceHoursAgo(13);
    expect((await punch({ badge: old.badge })).body).toMatchObject({ result: 'missedPunch', maxShiftHours: 12 });
    expect(await punchesOf(old.id)).toHaveLength(1);
    const recent = await inSinceHoursAgo(11);
    expect((await punch({ badge: recent.badge })).body).toMatchObject({ result: 'punched', punch: { kind: 'out', status: 'valid' } });
  });

  it('an in from an earlier shift asks even within the maximum shift; within its shift (and grace) it punches out', async () => {
    const now = Date.now();
    // The in 4 h ago belongs to a shift that began 10 min before it and ended 90 min ago.
    await putTimeclock({
      shiftStarts: [hhmm(now - 4 * 3_600_000 - 600_000), hhmm(now - 90 * 60_000)],
      maxShiftHours: 12,
      graceMinutes: 30,
    });
    const earlier = await inSinceHoursAgo(4);
    expect((await punch({ badge: earlier.badge })).body).toMatchObject({ result: 'missedPunch' });
    // With 2 h of grace the scan 90 min after the shift's end is still leaving that shift.
    await putTimeclock({
      shiftStarts: [hhmm(now - 4 * 3_600_000 - 600_000), hhmm(now - 90 * 60_000)],
      maxShiftHours: 12,
      graceMinutes: 120,
    });
    expect((await punch({ badge: earlier.badge })).body).toMatchObject({ result: 'punched', punch: { kind: 'out' } });
    await putTimeclock(TIMECLOCK_SETTINGS_DEFAULTS);
  });

  it('bad timeclock settings are refused with a 400, not stored', async () => {
    const [row] = await t.db
      .select()
      .from(siteData)
      .where(and(eq(siteData.siteId, DEMO.siteId), eq(siteData.dataId, 'app_settings')));
    for (const timeclock of [
      { shiftStarts: ['6am'], maxShiftHours: 12, graceMinutes: 60 },
      { shiftStarts: ['06:00'], maxShiftHours: 48, graceMinutes: 60 },
      { shiftStarts: ['25:00'], maxShiftHours: 12, graceMinutes: 60 },
      { shiftStarts: ['06:00'], maxShiftHours: 12, graceMinutes: -1 },
    ]) {
      const res = await call(
        t.app,
        'admin/appSettings/put',
        { siteData: { ...(row ? { _rev: row.rev } : {}), data: { ...APP_SETTINGS_DEFAULTS, ...(row?.data ?? {}), timeclock } } },
        admin,
      );
      expect(res.status, JSON.stringify(timeclock)).toBe(400);
      expect(res.body.err?.message).toBeTruthy();
    }
  });

  it('"leaving now" beyond the maximum shift is a pending out for the timekeeper, not a 38-hour shift', async () => {
    const w = await inSinceHoursAgo(38);
    expect((await punch({ badge: w.badge })).body.result).toBe('missedPunch');
    const res = await punch({ badge: w.badge, leavingNow: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      result: 'forTimekeeper',
      maxShiftHours: 12,
      punch: { kind: 'out', source: 'missed', status: 'pending' },
      status: { in: false },
    });
    expect((await punchesOf(w.id)).map((r) => [r.kind, r.source, r.status]).sort()).toEqual([
      ['in', 'clock', 'valid'],
      ['out', 'missed', 'pending'],
    ]);
    // Nothing closed: the 38 h do not count until a timekeeper decides; the timekeeper sees it.
    const from = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const pending = await call(t.app, 'timeclock/punches/list', { from, to, pendingOnly: true, accountId: w.id }, tcadmin);
    expect(pending.body.punches?.map((p) => [p.kind, p.reason])).toEqual([['out', expect.stringMatching(/maximum shift/)]]);
    // The next scan (the next morning) punches in and asks nothing.
    await age(w.id, 60);
    expect((await punch({ badge: w.badge })).body).toMatchObject({ result: 'punched', punch: { kind: 'in' } });
  });
});

describe('photos of scans that end in no punch', () => {
  const image = new PNG({ width: 4, height: 3 });
  const dataUrl = `data:image/png;base64,${PNG.sync.write(image).toString('base64')}`;
  const photo = async (token = clock, base: Record<string, unknown> = {}) => {
    const up = await call(t.app, 'media/upload', { ...base, dataUrl, purpose: 'clockPhoto' }, token);
    expect(up.status).toBe(200);
    return up.body.mediaId!;
  };
  const clockPhotos = async () =>
    (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM media WHERE purpose = 'clockPhoto'`))[0]!.n;
  const exists = async (id: string) => (await t.db.select({ id: media.id }).from(media).where(eq(media.id, id))).length === 1;

  it("an unknown badge, another organisation's badge, a kiosk badge, a duplicate: the photo is deleted, the count does not grow", async () => {
    const w = await newWorker();
    const kept = await photo();
    expect((await punch({ badge: w.badge, photoMediaId: kept })).body.result).toBe('punched');
    const before = await clockPhotos();
    await query(
      t.db,
      sql`UPDATE accounts SET badge_code = 'B-ACME-ONLY' WHERE org_id = ${ACME.orgId} AND user_name = ${ACME.adminUserName}`,
    );
    for (const badge of ['B-NOBODY', 'B-KIOSK', 'B-ACME-ONLY']) {
      const id = await photo();
      const res = await punch({ badge, photoMediaId: id });
      expect(res.status, badge).toBe(404);
      expect(await exists(id), badge).toBe(false);
    }
    const dup = await photo();
    expect((await punch({ badge: w.badge, photoMediaId: dup })).body.result).toBe('duplicate');
    expect(await exists(dup)).toBe(false);
    expect(await clockPhotos()).toBe(before);
    // The punch's own photo stays.
    expect(await exists(kept)).toBe(true);
  });

  it('a refused scan never deletes a photo of another kind or of another organisation', async () => {
    const logo = await call(t.app, 'media/upload', { dataUrl, purpose: 'logo' }, admin);
    expect((await punch({ badge: 'B-NOBODY', photoMediaId: logo.body.mediaId })).status).toBe(404);
    expect(await exists(logo.body.mediaId!)).toBe(true);
    const acmePhoto = await photo(await acmeAdminToken(t.app), ACME_BASE);
    expect((await punch({ badge: 'B-NOBODY', photoMediaId: acmePhoto })).status).toBe(404);
    expect(await exists(acmePhoto)).toBe(true);
  });

  it("the question keeps the photo for the answer; the answer punches with it; an unanswered question's photo is swept", async () => {
    const w = await inSinceHoursAgo(20);
    const id = await photo();
    expect((await punch({ badge: w.badge, photoMediaId: id })).body.result).toBe('missedPunch');
    expect(await exists(id)).toBe(true);
    const res = await punch({ badge: w.badge, photoMediaId: id, missedOutAt: new Date(Date.parse(w.inAt) + 8 * 3_600_000).toISOString() });
    expect(res.body).toMatchObject({ result: 'punched', punch: { kind: 'in', photoMediaId: id } });

    const abandoned = await inSinceHoursAgo(20);
    const left = await photo();
    expect((await punch({ badge: abandoned.badge, photoMediaId: left })).body.result).toBe('missedPunch');
    // Not yet: the worker may still answer.
    await purgeExpired(t.db, t.config.IDEMPOTENCY_KEEP_HOURS);
    expect(await exists(left)).toBe(true);
    const purged = await purgeExpired(t.db, t.config.IDEMPOTENCY_KEEP_HOURS, new Date(Date.now() + 31 * 60_000));
    expect(purged.clockPhotos).toBeGreaterThanOrEqual(1);
    expect(await exists(left)).toBe(false);
    // Photos with punches stay.
    expect(await exists(id)).toBe(true);
  });
});

describe('missed punches and corrections', () => {
  it('a worker who missed nothing (a long shift) answers "leaving now": this scan punches out, nothing pending', async () => {
    // In 5 h ago, a shift start since (the in's shift ended 1 h ago): asked; within the maximum shift.
    await putTimeclock({
      shiftStarts: [hhmm(Date.now() - 5 * 3_600_000 - 600_000), hhmm(Date.now() - 3_600_000)],
      maxShiftHours: 12,
      graceMinutes: 0,
    });
    const w = await inSinceHoursAgo(5);
    expect((await punch({ badge: w.badge })).body).toMatchObject({ result: 'missedPunch', status: { in: true } });
    const res = await punch({ badge: w.badge, leavingNow: true });
    expect(res.body).toMatchObject({ result: 'punched', punch: { kind: 'out' }, status: { in: false } });
    expect((await punchesOf(w.id)).map((r) => [r.kind, r.source, r.status]).sort()).toEqual([
      ['in', 'clock', 'valid'],
      ['out', 'clock', 'valid'],
    ]);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id, new Date(Date.now() + 60_000))).toBe(false);
    await putTimeclock(TIMECLOCK_SETTINGS_DEFAULTS);
  });

  it('asks when the worker left, records a pending correction and punches in; never a silent close', async () => {
    const w = await inSinceHoursAgo(20);
    const asked = await punch({ badge: w.badge });
    expect(asked.body).toMatchObject({ result: 'missedPunch', status: { in: true } });
    expect(Date.parse(asked.body.inSince!)).toBe(Date.parse(w.inAt));
    expect(await punchesOf(w.id)).toHaveLength(1);
    // A time before the in, or in the future, is refused.
    expect((await punch({ badge: w.badge, missedOutAt: new Date(Date.parse(w.inAt) - 1000).toISOString() })).status).toBe(400);
    expect((await punch({ badge: w.badge, missedOutAt: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(400);
    const left = new Date(Date.parse(w.inAt) + 8 * 3_600_000).toISOString();
    const res = await punch({ badge: w.badge, missedOutAt: left });
    expect(res.body).toMatchObject({ result: 'punched', punch: { kind: 'in' }, status: { in: true } });
    const rows = await punchesOf(w.id);
    expect(rows.map((r) => [r.kind, r.source, r.status]).sort()).toEqual([
      ['in', 'clock', 'valid'],
      ['in', 'clock', 'valid'],
      ['out', 'missed', 'pending'],
    ]);
    // Until approved the pending out does not count.
    expect(await isClockedIn(t.db, DEMO.orgId, w.id, new Date(Date.parse(left) + 60_000))).toBe(true);

    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const pending = await call(t.app, 'timeclock/punches/list', { from, to, pendingOnly: true, accountId: w.id }, tcadmin);
    expect(pending.body.punches).toHaveLength(1);
    const pendingId = pending.body.punches![0]!.id;
    const approved = await call(
      t.app,
      'timeclock/correct',
      { idempotencyKey: `approve-${pendingId}`, replacesId: pendingId, kind: 'out', at: left, reason: 'Confirmed with the supervisor' },
      tcadmin,
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.punch).toMatchObject({
      kind: 'out',
      source: 'correction',
      status: 'valid',
      replacesId: pendingId,
      reason: 'Confirmed with the supervisor',
    });
    expect(await isClockedIn(t.db, DEMO.orgId, w.id, new Date(Date.parse(left) + 60_000))).toBe(false);
    expect(
      (await call(t.app, 'timeclock/punches/list', { from, to, pendingOnly: true, accountId: w.id }, tcadmin)).body.punches,
    ).toHaveLength(0);
    // The next scan does not ask again.
    await age(w.id, 60);
    expect((await punch({ badge: w.badge })).body).toMatchObject({ result: 'punched', punch: { kind: 'out' } });
  });

  it('a correction is a new record; the original stays, cannot be changed, and is corrected only once', async () => {
    const w = await newWorker();
    const p = (await punch({ badge: w.badge })).body.punch!;
    const at = new Date(Date.parse(p.at) - 15 * 60_000).toISOString();
    const body = { idempotencyKey: `fix-${p.id}`, replacesId: p.id, kind: 'in', at, reason: 'Forgot to scan at the gate' };
    const fixed = await call(t.app, 'timeclock/correct', body, admin);
    expect(fixed.status).toBe(200);
    // A retry with the same key is the same write.
    const retry = await call(t.app, 'timeclock/correct', body, admin);
    expect(retry.body.punch?.id).toBe(fixed.body.punch?.id);
    const again = await call(t.app, 'timeclock/correct', { ...body, idempotencyKey: `fix2-${p.id}` }, admin);
    expect(again.status).toBe(409);
    const [original] = await t.db.select().from(punches).where(eq(punches.id, p.id));
    expect(Date.parse(original!.at)).toBe(Date.parse(p.at));
    await expect(query(t.db, sql`UPDATE punches SET at = now() WHERE id = ${p.id}`)).rejects.toThrow();
    await expect(query(t.db, sql`DELETE FROM punches WHERE id = ${p.id}`)).rejects.toThrow();
    // Concurrent corrections of one punch: one wins.
    const fixedId = fixed.body.punch!.id;
    const race = await Promise.all(
      [1, 2, 3].map((n) => call(t.app, 'timeclock/correct', { ...body, idempotencyKey: `race-${n}-${p.id}`, replacesId: fixedId }, admin)),
    );
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409)).toHaveLength(2);
  });

  it('adds a missing punch or voids one; refuses the future, a void without a punch, and clerks', async () => {
    const w = await newWorker();
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const added = await call(
      t.app,
      'timeclock/correct',
      { idempotencyKey: `add-${w.id}`, accountId: w.id, kind: 'in', at, reason: 'Badge at home' },
      tcadmin,
    );
    expect(added.status).toBe(200);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id)).toBe(true);
    const voided = await call(
      t.app,
      'timeclock/correct',
      { idempotencyKey: `void-${w.id}`, replacesId: added.body.punch!.id, kind: 'void', at, reason: 'Entered by mistake' },
      tcadmin,
    );
    expect(voided.status).toBe(200);
    expect(await isClockedIn(t.db, DEMO.orgId, w.id)).toBe(false);
    expect(
      (
        await call(
          t.app,
          'timeclock/correct',
          {
            idempotencyKey: `fut-${w.id}`,
            accountId: w.id,
            kind: 'in',
            at: new Date(Date.now() + 3_600_000).toISOString(),
            reason: 'Future',
          },
          tcadmin,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          t.app,
          'timeclock/correct',
          { idempotencyKey: `v2-${w.id}`, accountId: w.id, kind: 'void', at, reason: 'Nothing' },
          tcadmin,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          t.app,
          'timeclock/correct',
          { idempotencyKey: `clerk-${w.id}`, accountId: w.id, kind: 'in', at, reason: 'Me myself' },
          clerk,
        )
      ).status,
    ).toBe(403);
    expect(
      (await call(t.app, 'timeclock/correct', { idempotencyKey: `short-${w.id}`, accountId: w.id, kind: 'in', at, reason: ' x ' }, tcadmin))
        .status,
    ).toBe(400);
  });

  it('the CSV export flags edited punches and says which count', async () => {
    const w = await newWorker();
    const p = (await punch({ badge: w.badge })).body.punch!;
    await call(
      t.app,
      'timeclock/correct',
      { idempotencyKey: `csv-${p.id}`, replacesId: p.id, kind: 'in', at: p.at, reason: 'Checked' },
      tcadmin,
    );
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await call(t.app, 'timeclock/punches/export', { from, to }, tcadmin);
    expect(res.status).toBe(200);
    const lines = res.body.csv!.trim().split('\r\n');
    expect(lines[0]).toContain('edited');
    const mine = lines.filter((l) => l.includes(p.id));
    expect(mine).toHaveLength(2);
    const original = mine.find((l) => l.startsWith(`"${p.id}"`))!;
    expect(original).toContain('"true","false"'); // edited, does not count
    expect((await call(t.app, 'timeclock/punches/export', { from, to }, clerk)).status).toBe(403);
    expect((await call(t.app, 'timeclock/punches/export', { from: to, to: from }, tcadmin)).status).toBe(400);
  });
});

describe('organisations', () => {
  it('another organisation sees none of these punches and cannot correct them', async () => {
    const w = await newWorker();
    const p = (await punch({ badge: w.badge })).body.punch!;
    const acme = await acmeAdminToken(t.app);
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const list = await call(t.app, 'timeclock/punches/list', { ...ACME_BASE, from, to }, acme);
    expect(list.status).toBe(200);
    expect(list.body.punches).toEqual([]);
    expect(
      (
        await call(
          t.app,
          'timeclock/correct',
          { ...ACME_BASE, idempotencyKey: `acme-${p.id}`, replacesId: p.id, kind: 'void', at: p.at, reason: 'Not ours' },
          acme,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await call(
          t.app,
          'timeclock/correct',
          { ...ACME_BASE, idempotencyKey: `acme2-${p.id}`, accountId: w.id, kind: 'in', at: p.at, reason: 'Not ours' },
          acme,
        )
      ).status,
    ).toBe(404);
    // The body cannot name the demo organisation with an acme token.
    expect((await call(t.app, 'timeclock/punches/list', { from, to }, acme)).status).toBe(403);
    const [acct] = await t.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.orgId, 'acme'), eq(accounts.userName, 'admin')));
    expect(acct).toBeDefined();
  });
});

describe('bad input', () => {
  const weird = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      '',
      'x'.repeat(300),
      '\u0000',
      'a\ud800',
      "'; drop table punches; --",
      '__proto__',
      1e308,
      -0,
      '2026-13-45T25:61:00Z',
      'B-CLERK',
    ),
  );
  const errShape = { err: { code: expect.any(String), message: expect.any(String) } };
  const cases: Array<[string, () => string, Record<string, unknown>]> = [
    ['timeclock/punch', () => clock, { badge: 'B-NOBODY' }],
    ['timeclock/setPin', () => tcadmin, { accountId: 'nobody', pin: '1234' }],
    ['timeclock/punches/list', () => tcadmin, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }],
    [
      'timeclock/correct',
      () => tcadmin,
      { idempotencyKey: 'fuzz-key-1', accountId: 'nobody', kind: 'in', at: '2026-01-01T00:00:00Z', reason: 'fuzz' },
    ],
    ['timeclock/punches/export', () => tcadmin, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }],
  ];
  it.each(cases)('%s never answers 500 to arbitrary input', async (path, token, valid) => {
    const fields = [
      ...Object.keys(valid),
      'entry',
      'pin',
      'clientTime',
      'photoMediaId',
      'missedOutAt',
      'leavingNow',
      'offline',
      'replacesId',
      'pendingOnly',
      'extra',
    ];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 2 }), async (overrides) => {
        const body = { ...valid, ...overrides, idempotencyKey: `fuzz-${Math.random().toString(36).slice(2)}` };
        const res = await call(t.app, path, path === 'timeclock/correct' ? body : { ...valid, ...overrides }, token(), { ip: uniqueIp() });
        expect(res.status, JSON.stringify({ body, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject(errShape);
      }),
      { numRuns: 40 },
    );
  });
});
