import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ERR } from '@floorhand/contract/errors';
import { APP_ID } from '@floorhand/contract/constants';
import { EVERYONE as EVERYONE_ROLE } from '@floorhand/contract/roles';
import { featureAccess } from '../../db/schema.ts';
import type { CallPath } from '@floorhand/contract/api';
import { ACME_BASE, call, createAcme, createTestApp, uniqueIp, plainParts, type TestApp } from '../../test/harness.ts';
import { query } from '../../db/sql.ts';
import { acmeAdminToken, serviceApiKey, tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let kiosk: string;
let acme: string;
let PART = '';
let PART2 = '';

const rows = <T>(q: ReturnType<typeof sql>) => query<T>(t.db, q);

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  kiosk = await tokenFor(t.app, 'kiosk');
  acme = await acmeAdminToken(t.app);
  [PART = '', PART2 = ''] = await plainParts(t.db, 2);
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

let n = 0;
const number = () => `SO-${Date.now()}-${(n += 1)}`;
const order = (extra: Record<string, unknown> = {}) => ({
  type: 'sos',
  number: number(),
  warehouse: 'MAIN',
  customer: 'Acme Trading',
  dueDate: '2026-12-01',
  priority: 5,
  lines: [
    { lineNo: 1, partNumber: PART, qty: 3 },
    { lineNo: 2, partNumber: PART2, qty: 2 },
  ],
  ...extra,
});
const save = (o: Record<string, unknown>, token = admin) => call(t.app, 'order/save', { order: o }, token);

describe('order/save', () => {
  it('creates an order with its lines, open, in the warehouse given', async () => {
    const o = order();
    const res = await save(o);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(true);
    expect(res.body.order).toMatchObject({
      type: 'sos',
      number: o.number,
      status: 'open',
      warehouse: 'MAIN',
      customer: 'Acme Trading',
      dueDate: '2026-12-01',
      priority: 5,
      lineCount: 2,
      doneLineCount: 0,
      claimedBy: null,
    });
    expect(res.body.order!.lines.map((l) => [l.lineNo, l.partNumber, l.qty, l.picked, l.status])).toEqual([
      [1, PART, 3, 0, 'open'],
      [2, PART2, 2, 0, 'open'],
    ]);
  });

  it('re-sending the same order updates it and never duplicates it', async () => {
    const o = order();
    const first = await save(o);
    const again = await save({ ...o, customer: 'Changed', lines: [{ lineNo: 1, partNumber: PART, qty: 7 }] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.order!._id).toBe(first.body.order!._id);
    expect(again.body.order!.customer).toBe('Changed');
    expect(again.body.order!.lines.map((l) => [l.lineNo, l.qty])).toEqual([[1, 7]]);
    const count = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE number = ${o.number}`);
    expect(count[0]!.n).toBe(1);
  });

  it('sent twice at once, makes one order', async () => {
    const o = order();
    const [a, b] = await Promise.all([save(o), save(o)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.order!._id).toBe(b.body.order!._id);
    expect([a.body.created, b.body.created].sort()).toEqual([false, true]);
  });

  it('keeps numbers unique per type: the same number may be a sales and a work order', async () => {
    const num = number();
    expect((await save(order({ number: num }))).status).toBe(200);
    expect((await save(order({ number: num, type: 'wos' }))).status).toBe(200);
    const get = await call(t.app, 'order/get', { number: num }, admin);
    expect(get.status).toBe(400);
    expect(get.body.err?.message).toContain('say which type');
    const wos = await call(t.app, 'order/get', { number: num, type: 'wos' }, admin);
    expect(wos.body.order?.type).toBe('wos');
  });

  it.each([
    ['an unknown warehouse', { warehouse: 'NOWH' }, "No warehouse 'NOWH' exists"],
    ['an unknown part', { lines: [{ lineNo: 1, partNumber: 'NOPE-1', qty: 1 }] }, "no item with part number 'NOPE-1' exists"],
    [
      'a line given twice',
      {
        lines: [
          { lineNo: 1, partNumber: 'X', qty: 1 },
          { lineNo: 1, partNumber: 'X', qty: 1 },
        ],
      },
      'Line 1 is given twice',
    ],
    ['a zero quantity', { lines: [{ lineNo: 1, partNumber: 'X', qty: 0 }] }, 'must be greater than 0'],
    ['half an each', { lines: [{ lineNo: 1, partNumber: '$PART', qty: '0.5' }] }, 'whole'],
    ['an unknown staging location', { stagingLocation: 'NOWHERE' }, "No location 'NOWHERE' exists in warehouse 'MAIN'"],
    ['an unknown type', { type: 'xyz' }, 'type'],
    ['no lines', { lines: [] }, 'lines'],
    ['a bad due date', { dueDate: '2026-02-30' }, 'dueDate'],
  ])('refuses %s with 400 and saves nothing', async (_name, change, message) => {
    const lines = (change as { lines?: Array<Record<string, unknown>> }).lines?.map((l) => ({
      ...l,
      partNumber: l.partNumber === '$PART' ? PART : l.partNumber,
    }));
    const o = order(lines ? { ...change, lines } : change);
    const res = await save(o);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.err).toMatchObject({ code: ERR.badInput });
    expect(res.body.err!.message).toContain(message);
    expect((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE number = ${o.number as string}`))[0]!.n).toBe(0);
  });

  it('is an admin’s job by default: refused to shared devices and to a clerk, given by a role set to Full', async () => {
    expect((await save(order(), kiosk)).status).toBe(403);
    const clerk = await tokenFor(t.app, 'clerk');
    const setLevel = (level: 0 | 1 | null) =>
      t.db
        .insert(featureAccess)
        .values({ siteId: 'demo-main', appId: APP_ID, role: EVERYONE_ROLE, feature: 'stockPick.orders', level })
        .onConflictDoUpdate({
          target: [featureAccess.siteId, featureAccess.appId, featureAccess.role, featureAccess.feature],
          set: { level },
        });
    const o = order();
    const refused = await save(o, clerk);
    expect(refused.status).toBe(403);
    expect(refused.body.err?.message).toContain('stockPick.orders');
    const saved = await save(o);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const cancel = await call(t.app, 'order/cancel', { orderId: saved.body.order!._id, idempotencyKey: randomUUID() }, clerk);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(403);
    // The demo's ERP service account has it through its role (erp, Full).
    const svc = await serviceApiKey(t, admin);
    expect((await call(t.app, 'order/save', { order: order() }, svc.key)).status).toBe(200);
    // Given to everyone, then taken away again.
    await setLevel(1);
    try {
      expect((await save(order(), await tokenFor(t.app, 'clerk'))).status).toBe(200);
    } finally {
      await setLevel(null);
    }
    expect((await save(order(), await tokenFor(t.app, 'clerk'))).status).toBe(403);
  });
});

describe('order/list and order/get', () => {
  it("lists the organisation's orders with filters and pages", async () => {
    const o = order({ type: 'mos' });
    await save(o);
    const res = await call(t.app, 'order/list', { type: 'mos', number: o.number, limit: 5 }, clerk);
    expect(res.status).toBe(200);
    expect(res.body.orders!.map((x) => x.number)).toEqual([o.number]);
    expect(res.body.more).toBe(false);
  });

  it("never shows or takes another organisation's orders", async () => {
    const o = order();
    const mine = (await save(o)).body.order!;
    const list = await call(t.app, 'order/list', { ...ACME_BASE }, acme);
    expect(list.status).toBe(200);
    expect(list.body.orders).toEqual([]);
    expect((await call(t.app, 'order/get', { ...ACME_BASE, orderId: mine._id }, acme)).status).toBe(404);
    expect((await call(t.app, 'order/get', { ...ACME_BASE, number: o.number }, acme)).status).toBe(404);
    const cancel = await call(t.app, 'order/cancel', { ...ACME_BASE, idempotencyKey: randomUUID(), orderId: mine._id }, acme);
    expect(cancel.status).toBe(404);
    // Acme's own order of the same number is its own: MAIN is not Acme's warehouse.
    const theirs = await call(t.app, 'order/save', { ...ACME_BASE, order: o }, acme);
    expect(theirs.status).toBe(400);
    expect(theirs.body.err?.message).toContain("No warehouse 'MAIN' exists");
  });
});

describe('order/cancel', () => {
  it('cancels an order and refuses to change it afterwards', async () => {
    const o = order();
    const saved = (await save(o)).body.order!;
    const res = await call(t.app, 'order/cancel', { idempotencyKey: randomUUID(), orderId: saved._id }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.order!.status).toBe('cancelled');
    expect(res.body.order!.lines.every((l) => l.status === 'cancelled')).toBe(true);
    const again = await save(o);
    expect(again.status).toBe(409);
  });
});

describe('order calls never answer 500', () => {
  const weird = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  );
  const paths: CallPath[] = [
    'order/save',
    'order/get',
    'order/list',
    'order/cancel',
    'pick/list',
    'pick/order',
    'pick/claim',
    'pick/release',
    'pick/confirm',
    'pick/short',
    'pick/skip',
    'pick/unpick',
    'ship/board',
    'ship/order',
    'package/save',
    'package/pack',
    'package/unpack',
    'ship/confirm',
    'order/issue',
  ];
  it.each(paths)('%s', async (path) => {
    const valid: Record<string, unknown> = {
      'order/save': { order: order() },
      'order/get': { number: 'X' },
      'order/cancel': { idempotencyKey: randomUUID(), orderId: 'x' },
      'pick/claim': { orderId: 'x' },
      'pick/confirm': { idempotencyKey: randomUUID(), lineId: 'x', location: 'A-01-1', scan: 'S1', qty: 1 },
      'pick/short': { idempotencyKey: randomUUID(), lineId: 'x', reason: 'gone' },
      'pick/skip': { idempotencyKey: randomUUID(), lineId: 'x' },
      'pick/unpick': { idempotencyKey: randomUUID(), pickId: 'x', toLocation: 'A-01-1' },
      'ship/order': { number: 'SO-1001' },
      'package/save': { orderId: 'x', weight: 1 },
      'package/pack': { idempotencyKey: randomUUID(), packageId: 'x', stockId: 'S000000001' },
      'package/unpack': { idempotencyKey: randomUUID(), packageId: 'x', stockId: 'S000000001' },
      'ship/confirm': { idempotencyKey: randomUUID(), orderId: 'x' },
      'order/issue': { idempotencyKey: randomUUID(), orderId: 'x' },
    };
    const base = (valid[path] as Record<string, unknown> | undefined) ?? {};
    const fields = [
      ...Object.keys(base),
      'orderId',
      'lineId',
      'lineIds',
      'qty',
      'type',
      'number',
      'order',
      'packageId',
      'weight',
      'stockId',
      'extra',
    ];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 2 }), async (overrides) => {
        const body = { ...base, ...overrides };
        const res = await call(t.app, path, body, admin, { ip: uniqueIp() });
        expect(res.status, JSON.stringify({ body, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.err).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: 30 },
    );
  });
});
