import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validationDetailSchema, type CallPath } from '@floorhand/contract/api';
import { APP_ID, HEADERS } from '@floorhand/contract/constants';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { coveredSeconds, LABOR_CSV_COLUMNS, TASK_RULE_MESSAGES } from '@floorhand/contract/labor';
import { EVERYONE as EVERYONE_ROLE } from '@floorhand/contract/roles';
import { accounts, featureAccess, laborEntries, punches, siteData } from '../../db/schema.ts';
import { auditStamp } from '../../lib/audit.ts';
import { APP_SETTINGS_DEFAULTS } from '@floorhand/contract/site-admin';
import { DEMO } from '../../seed/demo.ts';
import { ACME_BASE, call, createAcme, createTestApp, uniqueIp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { NOT_CLOCKED_IN, setClockedInCheck, setLaborClock } from './service.ts';

let t: TestApp;
let clerk: string;
let admin: string;
let tcadmin: string;
let acme: string;
/** The labor clock of the server, in ms; tests move it forward. */
let now = Date.parse('2026-03-02T08:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  clerk = await tokenFor(t.app, 'clerk');
  admin = await tokenFor(t.app, 'admin');
  tcadmin = await tokenFor(t.app, 'tcadmin');
  acme = await acmeAdminToken(t.app);
  setLaborClock(() => now);
  setClockedInCheck(ALWAYS_IN);
});
afterAll(async () => {
  setLaborClock();
  setClockedInCheck();
  await t?.close();
});
// The split, rounding and rights are tested with every worker clocked in; the rule itself below.
const ALWAYS_IN = async () => true;
afterEach(() => setClockedInCheck(ALWAYS_IN));

const detailOf = (err: ServerErr | undefined) => validationDetailSchema.parse(JSON.parse(err?.detail ?? 'null'));
let n = 0;
const unique = (prefix: string) => `${prefix}${++n}${Date.now() % 100000}`;
const upsert = (record: Record<string, unknown>, token = clerk) => call(t.app, 'task/upsert', { record }, token);
const start = (taskCode: string, mode: 'single' | 'batch', token = clerk, idempotencyKey = randomUUID()) =>
  call(t.app, 'labor/start', { idempotencyKey, taskCode, mode }, token);
const stop = (entryId: string, extra: Record<string, unknown> = {}, token = clerk) =>
  call(t.app, 'labor/stop', { idempotencyKey: randomUUID(), entryId, ...extra }, token);
const tick = (secs: number) => {
  now += secs * 1000;
};
async function accountId(userName: string): Promise<string> {
  const [row] = await t.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.orgId, DEMO.orgId), eq(accounts.userName, userName)));
  return row!.id;
}
/** Saves app settings with this labor section. */
async function putLabor(labor: Record<string, unknown>) {
  const [row] = await t.db
    .select()
    .from(siteData)
    .where(and(eq(siteData.siteId, DEMO.siteId), eq(siteData.dataId, 'app_settings')));
  const data = { ...APP_SETTINGS_DEFAULTS, ...(row?.data ?? {}), labor };
  return call(t.app, 'admin/appSettings/put', { siteData: { ...(row ? { _rev: row.rev } : {}), data } }, admin);
}
async function task(kind = 'wos') {
  const code = unique('TK-');
  const record =
    kind === 'wos'
      ? { taskCode: code, kind, orderNumber: 'WO9', operationNumber: String(n * 10), description: `Op ${code}`, plannedMinutes: 30 }
      : { taskCode: code, kind, description: 'Indirect' };
  const res = await upsert(record);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return code;
}
/** Stops whatever the token's worker runs, so each test starts clean. */
async function stopAll(token = clerk) {
  const cur = await call(t.app, 'labor/current', {}, token);
  for (const e of cur.body.running ?? []) await stop(e.id, {}, token);
}

describe('tasks', () => {
  it('creates a task by API and updates it when re-sent (fields left out keep their value)', async () => {
    const code = unique('T-');
    const created = await upsert({
      taskCode: code,
      kind: 'wos',
      orderNumber: 'WO77',
      operationNumber: '10',
      description: 'Drill',
      workCentre: 'DRILL',
      plannedMinutes: 12.5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      created: true,
      task: {
        taskCode: code,
        kind: 'wos',
        orderNumber: 'WO77',
        operationNumber: '10',
        workCentre: 'DRILL',
        plannedMinutes: 12.5,
        active: true,
        _rev: 1,
      },
    });
    const again = await upsert({ taskCode: code, kind: 'wos', description: 'Drill and tap' });
    expect(again.body).toMatchObject({
      created: false,
      task: { description: 'Drill and tap', orderNumber: 'WO77', workCentre: 'DRILL', plannedMinutes: 12.5, _rev: 2 },
    });
    const stale = await upsert({ taskCode: code, kind: 'wos', description: 'Late', _rev: 1 });
    expect(stale.status).toBe(409);
    expect((await call(t.app, 'task/get', { taskCode: code }, clerk)).body.task?.description).toBe('Drill and tap');
    const listed = await call(t.app, 'task/list', { search: 'WO77' }, clerk);
    expect(listed.body.tasks?.map((x) => x.taskCode)).toEqual([code]);
  });

  it('lists the operations of one order by its exact number (the traveller labels), of no other order', async () => {
    const order = unique('WO-T');
    const codes = [unique('T-'), unique('T-')];
    expect((await upsert({ taskCode: codes[0], kind: 'wos', orderNumber: order, operationNumber: '20', description: 'Weld' })).status).toBe(
      200,
    );
    expect((await upsert({ taskCode: codes[1], kind: 'wos', orderNumber: order, operationNumber: '10', description: 'Cut' })).status).toBe(
      200,
    );
    expect(
      (
        await upsert({
          taskCode: unique('T-'),
          kind: 'wos',
          orderNumber: `${order}9`,
          operationNumber: '10',
          description: 'Other order, same prefix',
        })
      ).status,
    ).toBe(200);
    const listed = await call(t.app, 'task/list', { orderNumber: order }, clerk);
    expect(listed.status).toBe(200);
    expect(listed.body.tasks?.map((x) => x.taskCode).sort()).toEqual([...codes].sort());
    expect((await call(t.app, 'task/list', { orderNumber: 'NO-SUCH-ORDER' }, clerk)).body.tasks).toEqual([]);
    expect((await call(t.app, 'task/list', { orderNumber: 'has space' }, clerk)).status).toBe(400);
  });

  it('refuses an operation without its order or number, an indirect task with one, and bad fields, with the record messages', async () => {
    const noOrder = await upsert({ taskCode: unique('T-'), kind: 'mos', description: 'x' });
    expect(noOrder.status).toBe(400);
    expect(detailOf(noOrder.body.err).errors).toEqual({
      orderNumber: [TASK_RULE_MESSAGES.orderNeeded],
      operationNumber: [TASK_RULE_MESSAGES.operationNeeded],
    });
    const indirect = await upsert({ taskCode: unique('T-'), kind: 'meeting', description: 'x', orderNumber: 'WO1' });
    expect(detailOf(indirect.body.err).errors.orderNumber).toEqual([TASK_RULE_MESSAGES.indirectHasOrder]);
    const bad = await upsert({ taskCode: 'has space', kind: 'lunch', description: '', plannedMinutes: -1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(detailOf(bad.body.err).errors).sort()).toEqual(['description', 'kind', 'plannedMinutes', 'taskCode']);
    expect((await call(t.app, 'task/get', { taskCode: 'NOPE-1' }, clerk)).status).toBe(404);
  });

  it('imports tasks from CSV all or nothing, upserting by code', async () => {
    const a = unique('C-');
    const b = unique('C-');
    const csv = `taskCode,kind,orderNumber,operationNumber,description,workCentre,plannedMinutes\n${a},rst,RS1,10,Route one,BENCH,5\n${b},training,,,Forklift training,,\n`;
    const ok = await call(t.app, 'task/import', { csv }, clerk);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.report).toMatchObject({ rows: 2, imported: 2, inserted: 2, updated: 0, rejectedCount: 0 });
    const again = await call(t.app, 'task/import', { csv: `taskCode,kind,description\n${a},rst,Route one renamed\n` }, clerk);
    expect(again.body.report).toMatchObject({ inserted: 0, updated: 1 });
    expect((await call(t.app, 'task/get', { taskCode: a }, clerk)).body.task).toMatchObject({
      description: 'Route one renamed',
      orderNumber: 'RS1',
      plannedMinutes: 5,
      _rev: 2,
    });
    const c = unique('C-');
    const refused = await call(t.app, 'task/import', { csv: `taskCode,kind,description\n${c},wos,No order\n${c},cleaning,Twice\n` }, clerk);
    expect(refused.status).toBe(400);
    const report = JSON.parse(refused.body.err!.detail!) as { rejected: Array<{ row: number; field: string }> };
    expect(report.rejected.map((p) => `${p.row}:${p.field}`)).toEqual(['2:orderNumber', '2:operationNumber', '3:taskCode']);
    const unknown = await call(t.app, 'task/import', { csv: `taskCode,kind,description,colour\n${c},cleaning,x,red\n` }, clerk);
    expect(JSON.parse(unknown.body.err!.detail!).rejected[0]).toMatchObject({ row: 1, field: 'colour' });
    expect((await call(t.app, 'task/get', { taskCode: c }, clerk)).status).toBe(404);
  });

  it('refuses task writes to roles without singleTask.tasks and to shared devices', async () => {
    await t.db
      .insert(featureAccess)
      .values({ siteId: DEMO.siteId, appId: APP_ID, role: EVERYONE_ROLE, feature: 'singleTask.tasks', level: 0 });
    try {
      const hidden = await tokenFor(t.app, 'clerk');
      const res = await upsert({ taskCode: unique('T-'), kind: 'cleaning', description: 'x' }, hidden);
      expect(res.status).toBe(403);
      expect(res.body.err?.message).toBe("Your roles do not give access to 'singleTask.tasks'");
      expect((await call(t.app, 'task/import', { csv: 'taskCode,kind,description\nX1,cleaning,x\n' }, hidden)).status).toBe(403);
    } finally {
      await t.db.delete(featureAccess).where(and(eq(featureAccess.role, EVERYONE_ROLE), eq(featureAccess.feature, 'singleTask.tasks')));
    }
    for (const device of ['kiosk', 'clock']) {
      const token = await tokenFor(t.app, device);
      expect((await upsert({ taskCode: unique('T-'), kind: 'cleaning', description: 'x' }, token)).status).toBe(403);
      expect((await start('IND-CLEANING', 'single', token)).status).toBe(403);
    }
  });

  it("never shows or changes another organisation's tasks", async () => {
    const code = await task();
    expect((await call(t.app, 'task/get', { ...ACME_BASE, taskCode: code }, acme)).status).toBe(404);
    expect((await call(t.app, 'task/list', { ...ACME_BASE }, acme)).body.tasks).toEqual([]);
    // The same code is another task in acme; demo's stays as it was.
    const mine = await call(
      t.app,
      'task/upsert',
      { ...ACME_BASE, record: { taskCode: code, kind: 'cleaning', description: 'Acme' } },
      acme,
    );
    expect(mine.body.created).toBe(true);
    expect((await call(t.app, 'task/get', { taskCode: code }, clerk)).body.task?.kind).toBe('wos');
    // Naming the demo organisation with an acme token is refused.
    expect((await call(t.app, 'task/get', { taskCode: code }, acme)).status).toBe(403);
  });
});

describe('single task labor', () => {
  it('starts, stops with quantity and complete flag; starting another stops the running one', async () => {
    await stopAll();
    const a = await task();
    const b = await task('cleaning');
    const first = await start(a, 'single');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.running).toHaveLength(1);
    const entryA = first.body.running![0]!;
    expect(entryA).toMatchObject({ taskCode: a, mode: 'single', stoppedAt: null, worker: 'Cleo Clerk' });
    tick(1000);
    const second = await start(b, 'single');
    expect(second.body.stopped?.map((e) => e.id)).toEqual([entryA.id]);
    expect(second.body.stopped![0]).toMatchObject({ seconds: 1000, roundedSeconds: 1080 });
    expect(second.body.running?.map((e) => e.taskCode)).toEqual([b]);
    tick(125);
    const done = await stop(second.body.running![0]!.id, { qtyDone: 3, complete: true });
    expect(done.body.stopped![0]).toMatchObject({ seconds: 125, roundedSeconds: 0, qtyDone: 3, complete: true });
    expect(done.body.running).toEqual([]);
    // Stopped is stopped.
    expect((await stop(entryA.id)).status).toBe(409);
  });

  it('answers a retried start once (idempotency key), and refuses an unknown or inactive task', async () => {
    await stopAll();
    const a = await task();
    const key = randomUUID();
    const one = await start(a, 'single', clerk, key);
    const two = await start(a, 'single', clerk, key);
    expect(two.body).toEqual(one.body);
    expect((await call(t.app, 'labor/current', {}, clerk)).body.running).toHaveLength(1);
    expect((await start('NOPE-TASK', 'single')).status).toBe(404);
    await upsert({ taskCode: a, kind: 'wos', description: 'Off', active: false });
    expect((await start(a, 'single')).status).toBe(409);
    await stopAll();
  });

  it("cannot stop another worker's entry, nor another organisation's", async () => {
    await stopAll();
    const a = await task();
    const started = await start(a, 'single');
    const id = started.body.running![0]!.id;
    expect((await stop(id, {}, admin)).status).toBe(404);
    expect((await call(t.app, 'labor/stop', { ...ACME_BASE, idempotencyKey: randomUUID(), entryId: id }, acme)).status).toBe(404);
    expect((await call(t.app, 'labor/current', {}, clerk)).body.running?.[0]?.id).toBe(id);
    await stopAll();
  });
});

describe('batch task labor', () => {
  it('splits the elapsed seconds exactly by largest remainder; a task within grace counts from the batch start', async () => {
    await stopAll();
    const [a, b, c, d] = [await task(), await task(), await task(), await task()];
    const s1 = await start(a, 'batch');
    const batchId = s1.body.running![0]!.batchId;
    tick(60);
    // Within the 180 s grace: counts from the batch start.
    const s2 = await start(b, 'batch');
    expect(s2.body.running?.map((e) => e.batchId)).toEqual([batchId, batchId]);
    expect(s2.body.running![1]!.countedFrom).toBe(s2.body.running![0]!.countedFrom);
    tick(240);
    // Past grace: counts from when it was added.
    const s3 = await start(c, 'batch');
    const entryC = s3.body.running![2]!;
    expect(entryC.countedFrom).toBe(entryC.startedAt);
    tick(7);
    const ids = s3.body.running!.map((e) => e.id);
    await stop(ids[0]!, { qtyDone: 1 });
    await stop(ids[1]!, { qtyDone: 2, complete: true });
    tick(100);
    const last = await stop(ids[2]!);
    expect(last.body.running).toEqual([]);
    const rows = await t.db.select().from(laborEntries).where(eq(laborEntries.batchId, batchId));
    const sum = rows.reduce((acc, r) => acc + r.seconds, 0);
    // 300 s for a and b together, then 7 s for three tasks, then 100 s for c alone.
    expect(sum).toBe(300 + 7 + 100);
    const byId = new Map(rows.map((r) => [r.id, r.seconds]));
    // a and b: 150 + 7/3 each, c: 7/3 + 100; the remainder second goes to a or b (equal remainders, the tie by id).
    expect([byId.get(ids[0]!), byId.get(ids[1]!)].sort()).toEqual([152, 153]);
    expect(byId.get(ids[2]!)).toBe(102);
    // Rounding once per entry to 6 minutes: 153 s -> 0, 102 s -> 0.
    expect(rows.every((r) => r.roundedSeconds % 360 === 0)).toBe(true);
    // A new batch after the last stop; d joins nothing.
    const fresh = await start(d, 'batch');
    expect(fresh.body.running![0]!.batchId).not.toBe(batchId);
    await stopAll();
  });

  it('never books a second twice for one worker when single and batch starts interleave', async () => {
    await stopAll();
    const codes = [await task(), await task(), await task()];
    const startAt = now;
    const actions = [
      () => start(codes[0]!, 'batch'),
      () => start(codes[1]!, 'batch'),
      () => start(codes[2]!, 'single'),
      () => start(codes[0]!, 'batch'),
      () => start(codes[1]!, 'batch'),
    ];
    for (const act of actions) {
      expect((await act()).status).toBe(200);
      tick(97);
    }
    await stopAll();
    const clerkId = await accountId('clerk');
    const mine = (await t.db.select().from(laborEntries)).filter(
      (r) => r.accountId === clerkId && Date.parse(r.startedAt) >= startAt && Date.parse(r.startedAt) <= now,
    );
    const spans = mine.map((r) => ({ id: r.id, from: Date.parse(r.countedFrom) / 1000, to: Date.parse(r.stoppedAt!) / 1000 }));
    expect(mine.reduce((a, r) => a + r.seconds, 0)).toBe(coveredSeconds(spans));
    expect(coveredSeconds(spans)).toBe(Math.round((now - startAt) / 1000));
  });

  it('refuses a task twice in one batch, and batch labor to roles without batchTask', async () => {
    await stopAll();
    const a = await task();
    await start(a, 'batch');
    expect((await start(a, 'batch')).status).toBe(409);
    await stopAll();
    await t.db.insert(featureAccess).values({ siteId: DEMO.siteId, appId: APP_ID, role: EVERYONE_ROLE, feature: 'batchTask', level: 0 });
    try {
      const hidden = await tokenFor(t.app, 'clerk');
      expect((await start(a, 'batch', hidden)).status).toBe(403);
    } finally {
      await t.db.delete(featureAccess).where(and(eq(featureAccess.role, EVERYONE_ROLE), eq(featureAccess.feature, 'batchTask')));
    }
  });
});

describe('clocked-in rule', () => {
  it('asks the time clock: a worker who never punched in is refused', async () => {
    await stopAll();
    const a = await task();
    setClockedInCheck();
    const res = await start(a, 'single');
    expect(res.status).toBe(409);
    expect(res.body.err).toMatchObject({ code: ERR.conflict, message: NOT_CLOCKED_IN });
  });

  it('refuses labor while not clocked in unless app settings allow it', async () => {
    await stopAll();
    const a = await task();
    const asked: string[] = [];
    setClockedInCheck(async (_db, orgId, accountId) => {
      asked.push(`${orgId}/${accountId}`);
      return false;
    });
    const res = await start(a, 'single');
    expect(res.status).toBe(409);
    expect(res.body.err).toMatchObject({ code: ERR.conflict, message: NOT_CLOCKED_IN });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.startsWith(`${DEMO.orgId}/`)).toBe(true);
    const put = await putLabor({ displayScale: 1, roundToMinutes: 6, batchGraceTimeSecs: 180, allowWithoutClockIn: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      expect((await start(a, 'single')).status).toBe(200);
    } finally {
      await putLabor({ displayScale: 1, roundToMinutes: 6, batchGraceTimeSecs: 180 });
      await stopAll();
    }
  });
});

describe('reports', () => {
  const period = { from: '2026-03-01', to: '2026-03-31' };
  it('totals labor per worker, task, order and day, planned versus actual per operation (admins and timeclockAdmin only)', async () => {
    expect((await call(t.app, 'labor/report', { ...period, groupBy: 'worker' }, clerk)).status).toBe(403);
    const workers = await call(t.app, 'labor/report', { ...period, groupBy: 'worker' }, tcadmin);
    expect(workers.status, JSON.stringify(workers.body)).toBe(200);
    const cleo = workers.body.rows!.find((r) => r.key === 'clerk')!;
    const clerkId = await accountId('clerk');
    const rows = (await t.db.select().from(laborEntries)).filter((r) => r.accountId === clerkId && r.startedAt.startsWith('2026-03'));
    expect(cleo.seconds).toBe(rows.reduce((a, r) => a + r.seconds, 0));
    expect(cleo.roundedSeconds).toBe(rows.reduce((a, r) => a + r.roundedSeconds, 0));
    const all = workers.body.rows!.reduce((a, r) => a + r.seconds, 0);
    for (const groupBy of ['task', 'order', 'day'] as const) {
      const res = await call(t.app, 'labor/report', { ...period, groupBy }, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.rows!.reduce((a, r) => a + r.seconds, 0)).toBe(all);
    }
    expect((await call(t.app, 'labor/report', { ...period, groupBy: 'day' }, admin)).body.rows?.map((r) => r.key)).toEqual(['2026-03-02']);
    const ops = await call(t.app, 'labor/report', { ...period, groupBy: 'operation' }, admin);
    expect(ops.body.rows!.every((r) => r.plannedMinutes === 30 || r.plannedMinutes === null)).toBe(true);
    expect((await call(t.app, 'labor/report', { from: '2026-12-31', to: '2026-01-01', groupBy: 'day' }, admin)).status).toBe(400);
    expect((await call(t.app, 'labor/report', { ...ACME_BASE, ...period, groupBy: 'worker' }, acme)).body.rows).toEqual([]);
  });

  it('shows attendance from the punches that count and unallocated time = attendance − labor, per worker and day', async () => {
    const clerkId = await accountId('clerk');
    const punch = (id: string, kind: 'in' | 'out', at: string, extra: Record<string, unknown> = {}) =>
      t.db.insert(punches).values({
        id,
        orgId: DEMO.orgId,
        siteId: DEMO.siteId,
        accountId: clerkId,
        kind,
        at,
        source: 'clock',
        status: 'valid',
        audit: auditStamp(clerkId),
        ...extra,
      });
    // In at 06:00, corrected to 07:00 (the original no longer counts); out at 18:00: 11 h.
    await punch('att-in-1', 'in', '2026-03-02T06:00:00Z');
    await punch('att-in-2', 'in', '2026-03-02T07:00:00Z', {
      source: 'correction',
      replacesId: 'att-in-1',
      reason: 'late badge',
      approvedBy: clerkId,
    });
    await punch('att-out-1', 'out', '2026-03-02T18:00:00Z');
    // A pending missed out does not count.
    await punch('att-out-pending', 'out', '2026-03-02T20:00:00Z', { source: 'missed', status: 'pending' });
    const clerkRows = (await t.db.select().from(laborEntries)).filter(
      (r) => r.accountId === clerkId && r.startedAt.startsWith('2026-03-02'),
    );
    const labor = clerkRows.reduce((a, r) => a + r.seconds, 0);
    expect(labor).toBeGreaterThan(0);
    const res = await call(t.app, 'labor/report', { ...period, groupBy: 'attendance' }, tcadmin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = res.body.rows!.find((r) => r.worker === 'clerk' && r.day === '2026-03-02')!;
    expect(row).toMatchObject({ attendanceSeconds: 11 * 3600, seconds: labor, unallocatedSeconds: 11 * 3600 - labor });
    const byWorker = (await call(t.app, 'labor/report', { ...period, groupBy: 'worker' }, admin)).body.rows!.find(
      (r) => r.key === 'clerk',
    )!;
    expect(byWorker).toMatchObject({ attendanceSeconds: 11 * 3600, unallocatedSeconds: 11 * 3600 - labor });
    const byDay = (await call(t.app, 'labor/report', { ...period, groupBy: 'day' }, admin)).body.rows!.find((r) => r.key === '2026-03-02')!;
    expect(byDay.attendanceSeconds).toBe(11 * 3600);
    // The caller's days: 5 h east of UTC, 18:00 UTC is 23:00 the same day; 10 h west, 07:00 UTC is the day before.
    const west = await call(t.app, 'labor/report', { ...period, tzOffsetMinutes: -600, groupBy: 'attendance' }, admin);
    expect(west.body.rows!.filter((r) => r.worker === 'clerk').map((r) => [r.day, r.attendanceSeconds])).toContainEqual([
      '2026-03-01',
      3 * 3600,
    ]);
    expect((await call(t.app, 'labor/report', { ...period, groupBy: 'attendance' }, clerk)).status).toBe(403);
    expect((await call(t.app, 'labor/report', { ...ACME_BASE, ...period, groupBy: 'attendance' }, acme)).body.rows).toEqual([]);
  });

  it('exports labor entries as CSV', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/labor/export',
      headers: { authorization: `Bearer ${admin}` },
      payload: { locId: 'x', siteId: DEMO.siteId, appId: APP_ID, orgId: DEMO.orgId, ...period },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(LABOR_CSV_COLUMNS.join(','));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1).every((l) => l.includes(',2026-03-'))).toBe(true);
    expect((await call(t.app, 'labor/export', period, clerk)).status).toBe(403);
  });
});

// After the reports: its punches and clock ticks would change their attendance.
describe('labor bounded by attendance', () => {
  /** A punch of the clerk's at the labor clock's time now (the time clock's own row, as a scan writes it). */
  async function punchNow(kind: 'in' | 'out') {
    await t.db.insert(punches).values({
      id: randomUUID(),
      orgId: DEMO.orgId,
      siteId: DEMO.siteId,
      accountId: await accountId('clerk'),
      kind,
      at: new Date(now).toISOString(),
      source: 'clock',
      audit: auditStamp('test'),
    });
  }
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000Z');

  it('ends a task stopped after the punch-out at the out, flagged, with its quantity; the batch with it', async () => {
    await stopAll();
    const [a, b] = [await task(), await task()];
    const started = (await start(a, 'batch')).body.running![0]!;
    await start(b, 'batch');
    tick(1800);
    const out = now;
    await punchNow('out');
    tick(3600);
    const res = await stop(started.id, { qtyDone: 5, complete: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.running).toEqual([]);
    expect(res.body.stopped).toHaveLength(2);
    for (const e of res.body.stopped!) expect(e).toMatchObject({ stoppedAt: iso(out), endedAtPunchOut: true });
    expect(res.body.stopped!.find((e) => e.id === started.id)).toMatchObject({ qtyDone: 5, complete: true });
    // The batch's 30 minutes, split between its two tasks; not the hour after the out.
    expect(res.body.stopped!.reduce((sum, e) => sum + e.seconds, 0)).toBe(1800);
  });

  it('ends what still runs from before a punch-out at the out when the worker starts again after punching in', async () => {
    await stopAll();
    const [a, b] = [await task(), await task()];
    await start(a, 'single');
    tick(600);
    const out = now;
    await punchNow('out');
    tick(600);
    await punchNow('in');
    tick(60);
    const res = await start(b, 'single');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.stopped).toEqual([expect.objectContaining({ taskCode: a, stoppedAt: iso(out), endedAtPunchOut: true, seconds: 600 })]);
    expect(res.body.running).toEqual([expect.objectContaining({ taskCode: b, endedAtPunchOut: false })]);
    // Without a punch-out in between, a stop is now, unflagged.
    tick(120);
    const stopped = await stop(res.body.running![0]!.id);
    expect(stopped.body.stopped).toEqual([expect.objectContaining({ taskCode: b, endedAtPunchOut: false, seconds: 120 })]);
  });
});

describe('offline device time (issue 27)', () => {
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000Z');
  const at = (ms: number) => new Date(ms).toISOString();
  // After every demo entry (they are of the real days): a device time is never booked before the worker's last stop.
  beforeAll(() => {
    now = Math.max(now, Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000);
  });

  it('books a start and a stop replayed later at their device times: started 10:00, replayed at 10:20, starts at 10:00', async () => {
    await stopAll();
    const code = await task();
    const startedOnDevice = now;
    tick(600);
    const stoppedOnDevice = now;
    tick(600);
    const key = randomUUID();
    const res = await call(
      t.app,
      'labor/start',
      { idempotencyKey: key, taskCode: code, mode: 'single', deviceTime: at(startedOnDevice) },
      clerk,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.running).toEqual([
      expect.objectContaining({ taskCode: code, startedAt: iso(startedOnDevice), countedFrom: iso(startedOnDevice) }),
    ]);
    // The server time of the answer is the server's; the replay of the same key answers the same.
    expect(res.body.serverTime).toBe(iso(now));
    const again = await call(
      t.app,
      'labor/start',
      { idempotencyKey: key, taskCode: code, mode: 'single', deviceTime: at(startedOnDevice) },
      clerk,
    );
    expect(again.body.running?.[0]?.id).toBe(res.body.running![0]!.id);
    // Stopped by task code (the device never learnt the entry's id), at its device time.
    const stopped = await call(
      t.app,
      'labor/stop',
      { idempotencyKey: randomUUID(), taskCode: code, qtyDone: 3, deviceTime: at(stoppedOnDevice) },
      clerk,
    );
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.stopped).toEqual([
      expect.objectContaining({ taskCode: code, stoppedAt: iso(stoppedOnDevice), seconds: 600, qtyDone: 3 }),
    ]);
    expect(stopped.body.running).toEqual([]);
    // Its task is no longer running: a second stop by code is a conflict, not a 500.
    const twice = await call(t.app, 'labor/stop', { idempotencyKey: randomUUID(), taskCode: code }, clerk);
    expect(twice.status).toBe(409);
  });

  it('bounds the device time: the future is now, never before running or stopped labor, not older than 72 h', async () => {
    await stopAll();
    const [a, b, c] = [await task(), await task(), await task()];
    const future = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: a, mode: 'single', deviceTime: at(now + 3_600_000) },
      clerk,
    );
    expect(future.status).toBe(200);
    expect(future.body.running?.[0]?.startedAt).toBe(iso(now));
    const aStart = now;
    tick(300);
    // Before a's start: b starts (and a stops) at a's start, not earlier; no second booked twice.
    const before = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: b, mode: 'single', deviceTime: at(aStart - 600_000) },
      clerk,
    );
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.running?.[0]?.startedAt).toBe(iso(aStart));
    expect(before.body.stopped?.[0]).toMatchObject({ taskCode: a, stoppedAt: iso(aStart), seconds: 0 });
    const bId = before.body.running![0]!.id;
    tick(60);
    const stopB = await call(
      t.app,
      'labor/stop',
      { idempotencyKey: randomUUID(), entryId: bId, deviceTime: at(aStart - 3_600_000) },
      clerk,
    );
    expect(stopB.body.stopped?.[0]).toMatchObject({ stoppedAt: iso(aStart), seconds: 0 });
    const stoppedAt = now;
    tick(60);
    // After the last stop (now - 60 s), a start with an earlier device time starts at that stop.
    const afterStop = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: c, mode: 'batch', deviceTime: at(aStart - 60_000) },
      clerk,
    );
    expect(afterStop.body.running?.[0]?.startedAt).toBe(iso(aStart));
    expect(stoppedAt).toBeGreaterThan(aStart);
    await stopAll();
    const old = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: a, mode: 'single', deviceTime: at(now - 73 * 3_600_000) },
      clerk,
    );
    expect(old.status).toBe(400);
    expect(old.body.err?.message).toMatch(/72 hours/);
    const bad = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: a, mode: 'single', deviceTime: '2026-02-30T10:00:00Z' },
      clerk,
    );
    expect(bad.status).toBe(400);
    const neither = await call(t.app, 'labor/stop', { idempotencyKey: randomUUID() }, clerk);
    expect(neither.status).toBe(400);
    const both = await call(t.app, 'labor/stop', { idempotencyKey: randomUUID(), entryId: 'x', taskCode: a }, clerk);
    expect(both.status).toBe(400);
  });

  it("asks the clock-in rule at the device time, and stops by task code only the caller's own entry", async () => {
    await stopAll();
    const code = await task();
    const startedOnDevice = now;
    tick(120);
    // Clocked in only before the device time + 60 s: the start taken then is accepted.
    setClockedInCheck(async (_db, _org, _acc, when) => when.getTime() <= startedOnDevice + 60_000);
    const ok = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: code, mode: 'batch', deviceTime: at(startedOnDevice) },
      clerk,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const late = await call(t.app, 'labor/start', { idempotencyKey: randomUUID(), taskCode: await task(), mode: 'batch' }, clerk);
    expect(late.status).toBe(409);
    setClockedInCheck(ALWAYS_IN);
    // Another worker cannot stop the clerk's task by its code: it is not running for them.
    const other = await call(t.app, 'labor/stop', { idempotencyKey: randomUUID(), taskCode: code }, admin);
    expect(other.status).toBe(409);
    expect((await call(t.app, 'labor/current', {}, clerk)).body.running?.map((e) => e.taskCode)).toEqual([code]);
    await stopAll();
  });
});

describe('a kiosk worker offline (issue 27)', () => {
  const human = (token: string) => ({ headers: { [HEADERS.humanToken]: token } });
  it("a queued labor action replayed after the worker's kiosk session ended is refused for sign-in, never booked for another person, and goes through once they badge in again", async () => {
    const kiosk = await tokenFor(t.app, 'kiosk');
    const badgeIn = async (badge: string) => (await call(t.app, 'kiosk/start', { badge }, kiosk)).headers[HEADERS.humanToken] as string;
    await stopAll();
    const code = await task();
    const clerkToken = await badgeIn('B-CLERK');
    const started = await call(
      t.app,
      'labor/start',
      { idempotencyKey: randomUUID(), taskCode: code, mode: 'single', deviceTime: new Date(now).toISOString() },
      kiosk,
      human(clerkToken),
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.running?.[0]).toMatchObject({ taskCode: code, accountId: await accountId('clerk') });
    tick(300);
    // The stop was queued on the kiosk; the clerk's session ends (another badge) before it is replayed.
    const adminToken = await badgeIn('B-ADMIN');
    const stopBody = { idempotencyKey: randomUUID(), taskCode: code, qtyDone: 2, deviceTime: new Date(now - 120_000).toISOString() };
    const replay = await call(t.app, 'labor/stop', stopBody, kiosk, human(clerkToken));
    expect(replay.status).toBe(401);
    expect(replay.body.err?.code).toBe(ERR.kioskSessionEnded);
    // Nothing was booked, neither for the clerk nor for the admin on the kiosk now.
    expect((await call(t.app, 'labor/current', {}, clerk)).body.running?.map((e) => e.taskCode)).toEqual([code]);
    expect((await call(t.app, 'labor/current', {}, kiosk, human(adminToken))).body.running?.some((e) => e.taskCode === code)).toBe(false);
    // The clerk badges in again: the same stop (same key) is theirs, booked at its device time.
    const again = await badgeIn('B-CLERK');
    const done = await call(t.app, 'labor/stop', stopBody, kiosk, human(again));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.stopped?.[0]).toMatchObject({ taskCode: code, qtyDone: 2, seconds: 180 });
  });
});

describe('fuzz', () => {
  const weird = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constantFrom('', 'x'.repeat(300), '__proto__', "'; drop table tasks; --", 1e308, -1, '2026-02-30'),
  );
  const valid: Record<string, Record<string, unknown>> = {
    'task/list': { search: 'T' },
    'task/get': { taskCode: 'IND-CLEANING' },
    'task/upsert': { record: { taskCode: 'FZ-1', kind: 'cleaning', description: 'x' } },
    'task/import': { csv: 'taskCode,kind,description\nFZ-2,meeting,x\n' },
    'labor/current': {},
    'labor/start': { idempotencyKey: 'fuzz-key-0001', taskCode: 'IND-CLEANING', mode: 'batch' },
    'labor/stop': { idempotencyKey: 'fuzz-key-0002', entryId: 'x' },
    'labor/report': { from: '2026-01-01', to: '2026-01-31', groupBy: 'day' },
    'labor/export': { from: '2026-01-01', to: '2026-01-31' },
  };
  it.each(Object.keys(valid) as CallPath[])('%s never answers 500 to arbitrary input', async (path) => {
    const fields = [...Object.keys(valid[path]!), 'record', 'extra', 'deviceTime', 'taskCode'];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 2 }), async (overrides) => {
        const body = { ...valid[path], ...overrides };
        if (typeof body.idempotencyKey === 'string') body.idempotencyKey = `${body.idempotencyKey}-${randomUUID()}`;
        const res = await call(t.app, path, body, admin, { ip: uniqueIp() });
        expect(res.status, JSON.stringify({ body, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject({ err: { code: expect.any(String), message: expect.any(String) } });
      }),
      { numRuns: 30 },
    );
    await stopAll(admin);
  });
});
