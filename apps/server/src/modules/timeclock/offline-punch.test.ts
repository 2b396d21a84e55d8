import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { ERR } from '@floorhand/contract/errors';
import { OFFLINE_PUNCH_MAX_AGE_HOURS, signOfflinePunch } from '@floorhand/contract/offline-punch';
import { media, punches } from '../../db/schema.ts';
import { query } from '../../db/sql.ts';
import { DEMO, createAccount } from '../../seed/demo.ts';
import { call, createTestApp, uniqueIp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';

// Offline punches (docs/timeclock.md) on both databases (DATABASE_URL set: PostgreSQL; otherwise
// PGlite): a time clock that could not reach the server replays punches signed with its workstation
// secret; the server records them at the device's time, once, in their place in the worker's day.

let t: TestApp;
let clock: string;
let workerNo = 0;

beforeAll(async () => {
  t = await createTestApp();
  clock = await tokenFor(t.app, 'clock');
});
afterAll(() => t?.close());

async function newWorker(): Promise<{ id: string; badge: string }> {
  workerNo += 1;
  const userName = `offline${workerNo}`;
  const id = await createAccount(
    t.db,
    DEMO.orgId,
    DEMO.siteId,
    { userName, firstName: `Otto${workerNo}`, surnames: 'Offline' },
    DEMO.password,
  );
  return { id, badge: `B-${userName.toUpperCase()}` };
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const MIN = 60_000;
const HOUR = 3_600_000;

/** A punch as the clock's outbox replays it: signed by WS0001 (the clock token's workstation) unless told otherwise. */
async function offlineBody(
  badge: string,
  deviceTime: string,
  o: { key?: string; secret?: string; workstationId?: string; photoSha256?: string; photoMediaId?: string } = {},
) {
  const idempotencyKey = o.key ?? `offline-${randomUUID()}`;
  const signature = await signOfflinePunch(o.secret ?? DEMO.workstationSecret, {
    workstationId: o.workstationId ?? 'WS0001',
    badge,
    deviceTime,
    idempotencyKey,
    photoSha256: o.photoSha256,
  });
  return {
    badge,
    idempotencyKey,
    clientTime: deviceTime,
    ...(o.photoMediaId ? { photoMediaId: o.photoMediaId } : {}),
    offline: { deviceTime, signature },
  };
}
const punch = (body: Record<string, unknown>, token = clock) => call(t.app, 'timeclock/punch', body, token);
const rowsOf = async (accountId: string) =>
  (await t.db.select().from(punches).where(eq(punches.accountId, accountId))).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
/** A punch recorded earlier by another clock (online), straight into the table. */
async function recorded(accountId: string, kind: 'in' | 'out', at: string) {
  await t.db.insert(punches).values({
    id: `rec-${randomUUID()}`,
    orgId: DEMO.orgId,
    siteId: DEMO.siteId,
    accountId,
    kind,
    at,
    source: 'clock',
    status: 'valid',
    deviceId: 'WS0002',
    audit: { create: { user: 'x', ts: at }, modify: { user: 'x', ts: at } },
  });
}
const badInputShape = { err: { code: ERR.badInput, message: expect.any(String) } };

describe('offline punches', () => {
  it('a signed offline punch lands at the device time, marked offline, with the server time kept', async () => {
    const w = await newWorker();
    const deviceTime = ago(40 * MIN);
    const res = await punch(await offlineBody(w.badge, deviceTime));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      result: 'punched',
      punch: { kind: 'in', source: 'offline', status: 'valid', deviceId: 'WS0001' },
      status: { in: true },
    });
    expect(Date.parse(res.body.punch!.at)).toBe(Date.parse(deviceTime));
    expect(Date.parse(res.body.punch!.clientTs!)).toBe(Date.parse(deviceTime));
    expect(Math.abs(Date.parse(res.body.punch!.serverTs) - Date.now())).toBeLessThan(MIN);
    const [row] = await rowsOf(w.id);
    expect(row).toMatchObject({ source: 'offline', kind: 'in' });
    expect(Date.parse(row!.at)).toBe(Date.parse(deviceTime));
  });

  it('two punches queued a minute apart are two punches (in, out); two queued 2 s apart are one', async () => {
    const w = await newWorker();
    const t0 = Date.now() - 30 * MIN;
    const first = await punch(await offlineBody(w.badge, new Date(t0).toISOString()));
    const second = await punch(await offlineBody(w.badge, new Date(t0 + MIN).toISOString()));
    expect(first.body.result).toBe('punched');
    expect(second.body).toMatchObject({ result: 'punched', punch: { kind: 'out' }, status: { in: false } });
    const double = await punch(await offlineBody(w.badge, new Date(t0 + MIN + 2000).toISOString()));
    expect(double.body.result).toBe('duplicate');
    expect((await rowsOf(w.id)).map((r) => r.kind)).toEqual(['in', 'out']);
    // A scan online now is not held back by punches replayed a moment ago with older device times.
    const online = await punch({ badge: w.badge });
    expect(online.body).toMatchObject({ result: 'punched', punch: { kind: 'in', source: 'clock' } });
  });

  it('a replay with the same idempotency key records once and answers the stored result', async () => {
    const w = await newWorker();
    const body = await offlineBody(w.badge, ago(5 * MIN));
    const first = await punch(body);
    const again = await punch(body);
    const [a, b] = await Promise.all([punch(body), punch(body)]);
    expect(first.status).toBe(200);
    for (const r of [again, a, b]) expect(r.body).toEqual(first.body);
    expect(await rowsOf(w.id)).toHaveLength(1);
    // An online punch with a key replays the same way.
    const w2 = await newWorker();
    const online = { badge: w2.badge, idempotencyKey: `online-${randomUUID()}` };
    expect((await punch(online)).body.result).toBe('punched');
    expect((await punch(online)).body.result).toBe('punched');
    expect(await rowsOf(w2.id)).toHaveLength(1);
  });

  it('a bad or missing signature, or no idempotency key, is refused with a 400 and records nothing', async () => {
    const w = await newWorker();
    const good = await offlineBody(w.badge, ago(10 * MIN));
    const tampered = [
      { ...good, offline: { ...good.offline, signature: 'A'.repeat(43) } },
      { ...good, badge: 'B-OFFLINE-OTHER' },
      { ...good, idempotencyKey: `${good.idempotencyKey}x` },
      { ...good, offline: { ...good.offline, deviceTime: ago(11 * MIN) } },
    ];
    for (const body of tampered) {
      const res = await punch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject(badInputShape);
    }
    const { idempotencyKey: _k, ...noKey } = good;
    expect((await punch(noKey)).status).toBe(400);
    expect((await punch({ ...good, offline: { deviceTime: good.offline.deviceTime } })).status).toBe(400);
    expect(await rowsOf(w.id)).toHaveLength(0);
  });

  it("signed with another device's secret, or for another workstation, is refused", async () => {
    const w = await newWorker();
    const deviceTime = ago(10 * MIN);
    const other = await punch(await offlineBody(w.badge, deviceTime, { secret: 'another-device-secret-0123456789' }));
    expect(other.status).toBe(400);
    expect(other.body.err?.message).toMatch(/not signed by this time clock/);
    // WS0002 holds the same demo secret, but the clock calling is WS0001: the signature names WS0002.
    expect((await punch(await offlineBody(w.badge, deviceTime, { workstationId: 'WS0002' }))).status).toBe(400);
    expect(await rowsOf(w.id)).toHaveLength(0);
  });

  it(`older than ${OFFLINE_PUNCH_MAX_AGE_HOURS} h or in the future is refused; a device a little ahead counts at the server's time`, async () => {
    const w = await newWorker();
    const old = await punch(await offlineBody(w.badge, ago((OFFLINE_PUNCH_MAX_AGE_HOURS + 1) * HOUR)));
    expect(old.status).toBe(400);
    expect(old.body.err?.message).toMatch(/older than/);
    const future = await punch(await offlineBody(w.badge, ago(-10 * MIN)));
    expect(future.status).toBe(400);
    expect(future.body.err?.message).toMatch(/future/);
    expect(await rowsOf(w.id)).toHaveLength(0);
    const ahead = await punch(await offlineBody(w.badge, ago(-30_000)));
    expect(ahead.status, JSON.stringify(ahead.body)).toBe(200);
    expect(Date.parse(ahead.body.punch!.at)).toBeLessThanOrEqual(Date.now());
    // Within the limit, a day and a half back, is fine.
    const w2 = await newWorker();
    expect((await punch(await offlineBody(w2.badge, ago(36 * HOUR)))).body.result).toBe('punched');
  });

  it('the photo is bound by its digest: the signed photo is kept, another photo is refused and deleted; a re-upload on replay is the same punch', async () => {
    const png = (w: number) => PNG.sync.write(new PNG({ width: w, height: 3 }));
    const upload = async (bytes: Buffer) => {
      const up = await call(
        t.app,
        'media/upload',
        { dataUrl: `data:image/png;base64,${bytes.toString('base64')}`, purpose: 'clockPhoto' },
        clock,
      );
      expect(up.status).toBe(200);
      return up.body.mediaId!;
    };
    const exists = async (id: string) => (await t.db.select({ id: media.id }).from(media).where(eq(media.id, id))).length === 1;
    const bytes = png(4);
    const photoSha256 = createHash('sha256').update(bytes).digest('hex');
    const w = await newWorker();
    const deviceTime = ago(20 * MIN);
    const key = `offline-photo-${randomUUID()}`;
    const wrongPhoto = await upload(png(5));
    const refused = await punch(await offlineBody(w.badge, deviceTime, { key, photoSha256, photoMediaId: wrongPhoto }));
    expect(refused.status).toBe(400);
    expect(await exists(wrongPhoto)).toBe(false);
    const firstCopy = await upload(bytes);
    const ok = await punch(await offlineBody(w.badge, deviceTime, { key, photoSha256, photoMediaId: firstCopy }));
    expect(ok.body).toMatchObject({ result: 'punched', punch: { photoMediaId: firstCopy } });
    // The answer was lost; the outbox uploads the photo again and replays with the same key.
    const secondCopy = await upload(bytes);
    const replay = await punch(await offlineBody(w.badge, deviceTime, { key, photoSha256, photoMediaId: secondCopy }));
    expect(replay.body).toEqual(ok.body);
    expect(await exists(firstCopy)).toBe(true);
    expect(await exists(secondCopy)).toBe(false);
    expect(await rowsOf(w.id)).toHaveLength(1);
  });
});

describe('an offline punch in its place in the day', () => {
  it('the kind follows the punch that counts before its device time, not the last one recorded', async () => {
    const w = await newWorker();
    await recorded(w.id, 'in', ago(3 * HOUR));
    // The clock was offline from 2 h to 1 h ago: out for lunch and back in, replayed now in order.
    const out = await punch(await offlineBody(w.badge, ago(2 * HOUR)));
    const back = await punch(await offlineBody(w.badge, ago(1 * HOUR)));
    expect(out.body).toMatchObject({ result: 'punched', punch: { kind: 'out', status: 'valid' } });
    expect(back.body).toMatchObject({ result: 'punched', punch: { kind: 'in', status: 'valid' }, status: { in: true } });
    // Online again: the next scan punches out.
    expect((await punch({ badge: w.badge })).body).toMatchObject({ result: 'punched', punch: { kind: 'out' } });
    expect((await rowsOf(w.id)).map((r) => `${r.kind}:${r.source}`)).toEqual(['in:clock', 'out:offline', 'in:offline', 'out:clock']);
  });

  it('a replay landing before later punches it would contradict goes to the timekeeper as pending; the later ones stay', async () => {
    const w = await newWorker();
    await recorded(w.id, 'in', ago(3 * HOUR));
    await recorded(w.id, 'out', ago(10 * MIN));
    // An offline scan 2 h ago would be an "out" right before the recorded "out": two outs in a row.
    const res = await punch(await offlineBody(w.badge, ago(2 * HOUR)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      result: 'forTimekeeper',
      punch: { kind: 'out', source: 'offline', status: 'pending', reason: expect.stringMatching(/timekeeper/) },
      status: { in: false },
    });
    expect(res.body.maxShiftHours).toBeUndefined();
    // Before the first punch: an "in" before a recorded "in".
    const early = await punch(await offlineBody(w.badge, ago(4 * HOUR)));
    expect(early.body).toMatchObject({ result: 'forTimekeeper', punch: { kind: 'in', status: 'pending' } });
    const counted = (await rowsOf(w.id)).filter((r) => r.status === 'valid').map((r) => r.kind);
    expect(counted).toEqual(['in', 'out']);
  });

  it('after an in from an earlier shift it cannot ask when they left: a pending in for the timekeeper', async () => {
    const w = await newWorker();
    await recorded(w.id, 'in', ago(14 * HOUR));
    const res = await punch(await offlineBody(w.badge, ago(5 * MIN)));
    expect(res.body).toMatchObject({
      result: 'forTimekeeper',
      punch: { kind: 'in', status: 'pending', reason: expect.stringMatching(/earlier shift/) },
      status: { in: true },
    });
  });
});

describe('bad input in the offline field', () => {
  it('random junk never answers 500 and never records a punch', async () => {
    const w = await newWorker();
    const good = await offlineBody(w.badge, ago(MIN));
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom(
        '',
        'A'.repeat(43),
        '_'.repeat(43),
        'x'.repeat(300),
        '\u0000',
        '2026-13-45T25:61:00Z',
        '1970-01-01T00:00:00Z',
        '9999-12-31T23:59:59Z',
        '__proto__',
        1e308,
      ),
    );
    const offlineJunk = fc.oneof(
      fc.dictionary(fc.constantFrom('deviceTime', 'signature', 'extra', '__proto__'), weird, { maxKeys: 3 }),
      weird,
    );
    await fc.assert(
      fc.asyncProperty(offlineJunk, fc.option(weird), async (offline, key) => {
        const body = {
          ...good,
          offline: typeof offline === 'object' && offline !== null && !Array.isArray(offline) ? { ...good.offline, ...offline } : offline,
          ...(key === null ? {} : { idempotencyKey: key }),
        };
        const res = await call(t.app, 'timeclock/punch', body, clock, { ip: uniqueIp() });
        expect(res.status, JSON.stringify({ body, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject({ err: { code: expect.any(String), message: expect.any(String) } });
      }),
      { numRuns: 60 },
    );
    // Only the unchanged body (junk that happened to keep the good offline field and key) may have punched.
    const n = (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM punches WHERE account_id = ${w.id}`))[0]!.n;
    expect(n).toBeLessThanOrEqual(1);
  });
});
