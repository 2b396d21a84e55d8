import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR } from '@floorhand/contract/errors';
import { auditLog, workstations } from '../../db/schema.ts';
import { auditStamp } from '../../lib/audit.ts';
import { hashDeviceSecret } from '../../lib/device-secret.ts';
import { DEMO, createAccount } from '../../seed/demo.ts';
import { call, createSecondNode, createTestApp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';

// Guessing badges at shared devices (badge-limiter.ts), through the API at timeclock/punch and
// kiosk/start: per device, per organisation, typed PINs per device, the audit entry, and with
// REDIS_URL the counts shared by two nodes. Each app here has small limits of its own.

let workerNo = 0;
let deviceNo = 0;

/** A fresh worker of the demo site with a badge of its own (and a PIN when given). */
async function newWorker(t: TestApp, pin?: string): Promise<{ id: string; badge: string }> {
  workerNo += 1;
  const userName = `bl-worker${workerNo}`;
  const id = await createAccount(
    t.db,
    DEMO.orgId,
    DEMO.siteId,
    { userName, firstName: `Bea${workerNo}`, surnames: 'Limit' },
    DEMO.password,
  );
  if (pin) {
    const admin = await tokenFor(t.app, 'admin');
    expect((await call(t.app, 'timeclock/setPin', { accountId: id, pin }, admin)).status).toBe(200);
  }
  return { id, badge: `B-${userName.toUpperCase()}` };
}

/** A new workstation of the demo site authorised as time clock and kiosk; its id. */
async function newDevice(t: TestApp): Promise<string> {
  deviceNo += 1;
  const id = `WSL${String(deviceNo).padStart(3, '0')}`;
  await t.db.insert(workstations).values({
    siteId: DEMO.siteId,
    id,
    kiosk: true,
    timeclock: true,
    secretHash: hashDeviceSecret(DEMO.workstationSecret),
    audit: auditStamp('system'),
  });
  return id;
}

const clockOn = (t: TestApp, workstationId: string) => tokenFor(t.app, 'clock', { workstationId });
const kioskOn = (t: TestApp, workstationId: string) => tokenFor(t.app, 'kiosk', { workstationId });
const punch = (app: TestApp['app'], token: string, body: Record<string, unknown>) => call(app, 'timeclock/punch', body, token);
const unknownBadge = () => `B-MADE-UP-${Math.random().toString(36).slice(2, 10).toUpperCase()}`;

const limitAudits = (t: TestApp, action: string, entityId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, DEMO.orgId), eq(auditLog.action, action), eq(auditLog.entityId, entityId)));

describe('badge limits per device', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BADGE_MAX_UNKNOWN_PER_DEVICE: '5', BADGE_MAX_WRONG_PINS_PER_DEVICE: '4', BADGE_MAX_UNKNOWN_PER_ORG: '1000' });
  });
  afterAll(() => t?.close());

  it('at the time clock: unknown badges beyond the limit answer 429 with the wait, even for a known badge; another device still punches', async () => {
    const [a, b] = [await newDevice(t), await newDevice(t)];
    const clockA = await clockOn(t, a);
    for (let i = 0; i < 5; i++) {
      const res = await punch(t.app, clockA, { badge: unknownBadge() });
      expect(res.status).toBe(404);
      expect(res.body.err?.message).toMatch(/not recognised/);
    }
    const limited = await punch(t.app, clockA, { badge: unknownBadge() });
    expect(limited.status).toBe(429);
    expect(limited.body.err).toMatchObject({
      code: ERR.rateLimited,
      message: expect.stringMatching(/Too many unknown badges on this device.*supervisor.*1[45] minutes/),
    });
    const w = await newWorker(t);
    expect((await punch(t.app, clockA, { badge: w.badge })).status).toBe(429);
    // Another device of the organisation is below every limit: the same badge punches there.
    expect((await punch(t.app, await clockOn(t, b), { badge: w.badge })).body.result).toBe('punched');
    // A new login on the limited device does not start it afresh.
    expect((await punch(t.app, await clockOn(t, a), { badge: w.badge })).status).toBe(429);
  });

  it('at the kiosk: unknown badges beyond the limit answer 429; a known badge starts a session on another device', async () => {
    const [a, b] = [await newDevice(t), await newDevice(t)];
    const kioskA = await kioskOn(t, a);
    for (let i = 0; i < 5; i++) expect((await call(t.app, 'kiosk/start', { badge: unknownBadge() }, kioskA)).status).toBe(404);
    const w = await newWorker(t);
    const limited = await call(t.app, 'kiosk/start', { badge: w.badge }, kioskA);
    expect(limited.status).toBe(429);
    expect(limited.body.err).toMatchObject({ code: ERR.rateLimited, message: expect.stringMatching(/unknown badges on this device/) });
    expect(limited.headers['x-human-token']).toBeUndefined();
    const other = await call(t.app, 'kiosk/start', { badge: w.badge }, await kioskOn(t, b));
    expect(other.status).toBe(200);
    expect(other.headers['x-human-token']).toBeTruthy();
  });

  it('writes one audit entry when a device trips its limit, however many tries follow', async () => {
    const a = await newDevice(t);
    const clockA = await clockOn(t, a);
    for (let i = 0; i < 4; i++) await punch(t.app, clockA, { badge: unknownBadge() });
    expect(await limitAudits(t, 'badge/limit/device', a)).toHaveLength(0);
    await punch(t.app, clockA, { badge: unknownBadge() });
    for (let i = 0; i < 5; i++) expect((await punch(t.app, clockA, { badge: unknownBadge() })).status).toBe(429);
    const entries = await limitAudits(t, 'badge/limit/device', a);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ siteId: DEMO.siteId, entity: 'workstation', after: { limit: 5, windowMinutes: 15, device: a } });
  });

  it('counts typed badges with wrong PINs per device, across badges: then typing is refused there, scanning and other devices are not', async () => {
    const [a, b] = [await newDevice(t), await newDevice(t)];
    const clockA = await clockOn(t, a);
    const workers = [await newWorker(t, '4711'), await newWorker(t, '4711'), await newWorker(t, '4711')];
    // 4 failures on 3 badges (each below its own lock of 5): a wrong PIN, and an unknown typed badge.
    for (const w of workers) expect((await punch(t.app, clockA, { badge: w.badge, entry: 'typed', pin: '0000' })).status).toBe(404);
    expect((await punch(t.app, clockA, { badge: unknownBadge(), entry: 'typed', pin: '4711' })).status).toBe(404);
    const limited = await punch(t.app, clockA, { badge: workers[0]!.badge, entry: 'typed', pin: '4711' });
    expect(limited.status).toBe(429);
    expect(limited.body.err).toMatchObject({ code: ERR.rateLimited, message: expect.stringMatching(/wrong badges or PINs.*this device/) });
    // The same at the kiosk of that device.
    expect((await call(t.app, 'kiosk/start', { badge: workers[0]!.badge, entry: 'typed', pin: '4711' }, await kioskOn(t, a))).status).toBe(
      429,
    );
    expect(await limitAudits(t, 'badge/limit/devicePins', a)).toHaveLength(1);
    // Scanning the badge still works on this device, and typing on another.
    expect((await punch(t.app, clockA, { badge: workers[1]!.badge })).body.result).toBe('punched');
    expect((await punch(t.app, await clockOn(t, b), { badge: workers[2]!.badge, entry: 'typed', pin: '4711' })).body.result).toBe(
      'punched',
    );
  });
});

describe('badge limits per organisation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BADGE_MAX_UNKNOWN_PER_DEVICE: '4', BADGE_MAX_WRONG_PINS_PER_DEVICE: '4', BADGE_MAX_UNKNOWN_PER_ORG: '6' });
  });
  afterAll(() => t?.close());

  it('past the organisation limit, devices with failures of their own are refused every badge; a device without keeps working until its first', async () => {
    const [a, b, c] = [await newDevice(t), await newDevice(t), await newDevice(t)];
    const [clockA, clockB, clockC] = [await clockOn(t, a), await clockOn(t, b), await clockOn(t, c)];
    // 3 + 3 guesses on two devices, each below its own limit of 4: the organisation's 6 are used.
    for (let i = 0; i < 3; i++) expect((await punch(t.app, clockA, { badge: unknownBadge() })).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await punch(t.app, clockB, { badge: unknownBadge() })).status).toBe(404);
    const w = await newWorker(t);
    const limited = await punch(t.app, clockA, { badge: w.badge });
    expect(limited.status).toBe(429);
    expect(limited.body.err).toMatchObject({
      code: ERR.rateLimited,
      message: expect.stringMatching(/Too many unknown badges in this organisation.*supervisor.*minutes/),
    });
    expect((await call(t.app, 'kiosk/start', { badge: w.badge }, await kioskOn(t, b))).status).toBe(429);
    // The wall clock nobody guessed at still punches.
    expect((await punch(t.app, clockC, { badge: w.badge })).body.result).toBe('punched');
    expect(await limitAudits(t, 'badge/limit/organisation', DEMO.orgId)).toHaveLength(1);
    // Its first unknown badge pauses it too.
    expect((await punch(t.app, clockC, { badge: unknownBadge() })).status).toBe(404);
    expect((await punch(t.app, clockC, { badge: w.badge })).status).toBe(429);
    expect(await limitAudits(t, 'badge/limit/organisation', DEMO.orgId)).toHaveLength(1);
  });
});

// The memory store is one node's: only Redis shares counts between nodes (lib/limit-store.ts).
describe.runIf(process.env.REDIS_URL)('badge limits on several nodes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BADGE_MAX_UNKNOWN_PER_DEVICE: '5', BADGE_MAX_WRONG_PINS_PER_DEVICE: '5', BADGE_MAX_UNKNOWN_PER_ORG: '1000' });
  });
  afterAll(() => t?.close());

  it("counts a device's unknown badges on every node: a limit reached across two nodes holds on both", async () => {
    const second = await createSecondNode(t);
    try {
      const a = await newDevice(t);
      const clockA = await clockOn(t, a);
      for (let i = 0; i < 3; i++) expect((await punch(t.app, clockA, { badge: unknownBadge() })).status).toBe(404);
      for (let i = 0; i < 2; i++) expect((await punch(second.app, clockA, { badge: unknownBadge() })).status).toBe(404);
      const w = await newWorker(t);
      expect((await punch(second.app, clockA, { badge: w.badge })).status).toBe(429);
      expect((await punch(t.app, clockA, { badge: w.badge })).status).toBe(429);
      expect(await limitAudits(t, 'badge/limit/device', a)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
