import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ERR } from '@floorhand/contract/errors';
import type { Order } from '@floorhand/contract/orders';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let ada: string;
let acme: string;
let kiosk: string;
let PART = '';

const rows = async <T>(q: ReturnType<typeof sql>) => ((await t.db.execute(q)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  ada = (await demoLogin(t.app, 'admin')).token;
  kiosk = (await demoLogin(t.app, 'kiosk')).token;
  acme = await acmeAdminToken(t.app);
  PART = (
    await rows<{ part_number: string }>(
      sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT 1`,
    )
  )[0]!.part_number;
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

const key = () => randomUUID();
let n = 0;

async function freshPlace(): Promise<string> {
  n += 1;
  const code = `SH-${String(n).padStart(3, '0')}-1`;
  expect((await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code, type: 'shelf' } }, ada)).status).toBe(200);
  return code;
}

/** An order of `lines` units of one item, each picked as a record of its own at the staging place: answers the order and the picked stock ids. */
async function pickedOrder(lines: number, type = 'sos'): Promise<{ order: Order; picked: string[] }> {
  const place = await freshPlace();
  const rec = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: key(), record: { partNumber: PART, warehouse: 'MAIN', location: place, quantity: lines * 2 } },
    ada,
  );
  const source = rec.body.stock!.stockId;
  const saved = await call(
    t.app,
    'order/save',
    {
      order: {
        type,
        number: `SH-${Date.now()}-${n}`,
        warehouse: 'MAIN',
        lines: Array.from({ length: lines }, (_, i) => ({ lineNo: i + 1, partNumber: PART, qty: 1 })),
      },
    },
    ada,
  );
  const order = saved.body.order!;
  const picked: string[] = [];
  for (const line of order.lines) {
    const res = await call(t.app, 'pick/confirm', { idempotencyKey: key(), lineId: line._id, location: place, scan: source, qty: 1 }, ada);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    picked.push(res.body.pick!.stockId);
  }
  return { order, picked };
}

const newPackage = async (orderId: string, extra: Record<string, unknown> = {}) => {
  const res = await call(t.app, 'package/save', { orderId, type: 'box', ...extra }, ada);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.package!;
};
const pack = (packageId: string, stockId: string, token = ada) =>
  call(t.app, 'package/pack', { idempotencyKey: key(), packageId, stockId }, token);

describe('packages', () => {
  it('packs by scan into two packages, ships one then the other; the order is partly shipped, then shipped', async () => {
    const { order, picked } = await pickedOrder(3);
    const one = await newPackage(order._id, {
      weight: '2.5',
      length: 30,
      width: 20,
      height: 10,
      carrier: 'DHL',
      service: 'Express',
      tracking: 'TRK-1',
    });
    const two = await newPackage(order._id, { carrier: 'UPS' });
    expect([one.packageNo, two.packageNo]).toEqual([`${order.number}-1`, `${order.number}-2`]);
    expect((await pack(one._id, picked[0]!)).body.package!.stockIds).toEqual([picked[0]]);
    expect((await pack(one._id, picked[1]!)).status).toBe(200);
    expect((await pack(two._id, picked[2]!)).status).toBe(200);
    // Already packed, and unpack before shipping.
    const again = await pack(two._id, picked[0]!);
    expect(again.status).toBe(400);
    expect(again.body.err?.message).toContain(`packed already, in '${one.packageNo}'`);
    const unpacked = await call(t.app, 'package/unpack', { idempotencyKey: key(), packageId: one._id, stockId: picked[1] }, ada);
    expect(unpacked.body.package!.stockIds).toEqual([picked[0]]);
    expect((await pack(one._id, picked[1]!)).status).toBe(200);

    const first = await call(t.app, 'ship/confirm', { idempotencyKey: key(), orderId: order._id, packageId: one._id }, ada);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.orderStatus).toBe('partly shipped');
    expect(first.body.packages![0]).toMatchObject({ status: 'shipped', tracking: 'TRK-1', weight: 2.5 });
    const shipped = await call(t.app, 'stock/get', { stockId: picked[0] }, ada);
    expect(shipped.body.stock!.quantity).toBe(0);
    expect(shipped.body.movements![0]).toMatchObject({ type: 'ship', qtyDelta: -1, qtyAfter: 0 });

    // UPS needs the weight before the second ships.
    const noWeight = await call(t.app, 'ship/confirm', { idempotencyKey: key(), orderId: order._id, packageId: two._id }, ada);
    expect(noWeight.status).toBe(400);
    expect(noWeight.body.err?.message).toContain('needs its weight');
    await call(t.app, 'package/save', { orderId: order._id, packageId: two._id, weight: 1 }, ada);
    const second = await call(t.app, 'ship/confirm', { idempotencyKey: key(), orderId: order._id }, ada);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.orderStatus).toBe('shipped');
    const got = (await call(t.app, 'order/get', { orderId: order._id }, ada)).body.order!;
    expect(got.lines.every((l) => l.shipped === 1)).toBe(true);
    // A shipped package is closed.
    expect((await pack(one._id, picked[2]!)).status).toBe(400);
  });

  it('refuses stock of another order, stock not picked, and unknown stock, changing nothing', async () => {
    const a = await pickedOrder(1);
    const b = await pickedOrder(1);
    const pkg = await newPackage(a.order._id);
    const wrong = await pack(pkg._id, b.picked[0]!);
    expect(wrong.status).toBe(400);
    expect(wrong.body.err?.message).toContain(`Wrong order: the stock '${b.picked[0]}' is picked for the order '${b.order.number}'`);
    const notPicked = await pack(pkg._id, 'S000000001');
    expect(notPicked.status).toBe(400);
    expect(notPicked.body.err?.message).toContain('is not picked');
    expect((await call(t.app, 'ship/order', { orderId: a.order._id }, ada)).body.packages![0]!.stockIds).toEqual([]);
  });

  it('ships a large order in one go, every record leaving in the ledger', async () => {
    const { order, picked } = await pickedOrder(40);
    const pkg = await newPackage(order._id);
    for (const s of picked) expect((await pack(pkg._id, s)).status).toBe(200);
    const res = await call(t.app, 'ship/confirm', { idempotencyKey: key(), orderId: order._id }, ada);
    expect(res.status).toBe(200);
    expect(res.body.movementCount).toBe(40);
    const left = await rows<{ total: string }>(
      sql`SELECT sum(sr.quantity)::text AS total FROM stock_records sr WHERE sr.stock_id = ANY(${sql.param(picked)})`,
    );
    expect(Number(left[0]!.total)).toBe(0);
  });

  it("never shows or changes another organisation's packages and orders; shared devices cannot pack", async () => {
    const { order, picked } = await pickedOrder(1);
    const pkg = await newPackage(order._id);
    expect((await call(t.app, 'ship/order', { ...ACME_BASE, orderId: order._id }, acme)).status).toBe(404);
    expect(
      (await call(t.app, 'package/pack', { ...ACME_BASE, idempotencyKey: key(), packageId: pkg._id, stockId: picked[0] }, acme)).status,
    ).toBe(404);
    expect((await call(t.app, 'ship/confirm', { ...ACME_BASE, idempotencyKey: key(), orderId: order._id }, acme)).status).toBe(404);
    expect((await call(t.app, 'ship/board', { ...ACME_BASE }, acme)).body.orders).toEqual([]);
    expect((await pack(pkg._id, picked[0]!, kiosk)).status).toBe(403);
  });

  it('lists the pack board coloured by how much is picked', async () => {
    const { order } = await pickedOrder(1);
    const board = await call(t.app, 'ship/board', {}, ada);
    expect(board.status).toBe(200);
    expect(board.body.orders!.find((o) => o._id === order._id)).toMatchObject({ picked: 'all', status: 'picked' });
    expect(board.body.orders!.find((o) => o.number === 'SO-1001')).toMatchObject({ picked: 'none' });
  });
});

describe('ship/board filters (the stockPack preferences, applied in SQL)', () => {
  const dept = `PB${Date.now() % 100000}`;
  const made = new Map<string, Order>();
  /** An order of the test's department with `lines` lines of one unit, `picks` of them picked. */
  async function boardOrder(
    name: string,
    type: 'sos' | 'sms',
    lines: number,
    picks: number,
    dueDate: string,
    priority: number,
  ): Promise<Order> {
    const place = await freshPlace();
    const source = (
      await call(
        t.app,
        'stock/receive',
        { idempotencyKey: key(), record: { partNumber: PART, warehouse: 'MAIN', location: place, quantity: lines } },
        ada,
      )
    ).body.stock!.stockId;
    const saved = await call(
      t.app,
      'order/save',
      {
        order: {
          type,
          number: `${dept}-${name}`,
          warehouse: 'MAIN',
          department: dept,
          dueDate,
          priority,
          lines: Array.from({ length: lines }, (_, i) => ({ lineNo: i + 1, partNumber: PART, qty: 1 })),
        },
      },
      ada,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const order = saved.body.order!;
    for (const line of order.lines.slice(0, picks)) {
      expect(
        (await call(t.app, 'pick/confirm', { idempotencyKey: key(), lineId: line._id, location: place, scan: source, qty: 1 }, ada)).status,
      ).toBe(200);
    }
    made.set(name, order);
    return order;
  }
  const board = async (body: Record<string, unknown>, token = ada) => {
    const res = await call(t.app, 'ship/board', { department: dept, ...body }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const names = (orders: Array<{ number: string }> | undefined) => (orders ?? []).map((o) => o.number.slice(dept.length + 1));

  beforeAll(async () => {
    await boardOrder('A', 'sos', 2, 0, '2030-01-03', 5);
    await boardOrder('B', 'sos', 3, 1, '2030-01-01', 1);
    await boardOrder('C', 'sos', 1, 1, '2030-01-02', 9);
    await boardOrder('D', 'sms', 2, 0, '2030-01-04', 3);
    await boardOrder('E', 'sms', 4, 3, '2030-01-05', 0);
  });

  it('filters by department, order type and how much is picked', async () => {
    expect(names((await board({})).orders)).toEqual(['B', 'C', 'A', 'D', 'E']);
    expect(names((await board({ type: 'sms' })).orders)).toEqual(['D', 'E']);
    expect(names((await board({ type: 'sos' })).orders)).toEqual(['B', 'C', 'A']);
    expect(names((await board({ picked: 'none' })).orders)).toEqual(['A', 'D']);
    expect(names((await board({ picked: 'part' })).orders)).toEqual(['B', 'E']);
    expect(names((await board({ picked: 'all' })).orders)).toEqual(['C']);
    expect(names((await board({ picked: 'part', type: 'sms' })).orders)).toEqual(['E']);
    expect((await board({ picked: 'all' })).orders![0]).toMatchObject({ picked: 'all', department: dept });
    expect((await board({ department: 'NO-SUCH-DEPT' })).orders).toEqual([]);
  });

  it('sorts by due date, priority, number and picked share, either way', async () => {
    expect(names((await board({ sort: 'dueDate', desc: true })).orders)).toEqual(['E', 'D', 'A', 'C', 'B']);
    expect(names((await board({ sort: 'priority' })).orders)).toEqual(['E', 'B', 'D', 'A', 'C']);
    expect(names((await board({ sort: 'priority', desc: true })).orders)).toEqual(['C', 'A', 'D', 'B', 'E']);
    expect(names((await board({ sort: 'number', desc: true })).orders)).toEqual(['E', 'D', 'C', 'B', 'A']);
    // None picked first (by priority), then part (B 1 of 3 before E 3 of 4), then all.
    expect(names((await board({ sort: 'picked' })).orders)).toEqual(['A', 'D', 'B', 'E', 'C']);
    expect(names((await board({ sort: 'picked', desc: true })).orders)).toEqual(['C', 'E', 'B', 'A', 'D']);
  });

  it('answers at most maxRows, after the filter, with a "more" flag', async () => {
    const two = await board({ maxRows: 2, sort: 'number' });
    expect(names(two.orders)).toEqual(['A', 'B']);
    expect(two.more).toBe(true);
    const all = await board({ maxRows: 5 });
    expect(all.orders).toHaveLength(5);
    expect(all.more).toBe(false);
    // The filter holds before the limit: the two none-picked orders, no "more".
    const none = await board({ maxRows: 2, picked: 'none' });
    expect(names(none.orders)).toEqual(['A', 'D']);
    expect(none.more).toBe(false);
  });

  it("refuses bad filters with the spec's error, never a 500", async () => {
    for (const bad of [
      { type: 'wos' },
      { type: 'xyz' },
      { picked: 'most' },
      { sort: 'weight' },
      { desc: 'yes' },
      { maxRows: 500 },
      { maxRows: 0 },
      { department: 42 },
    ]) {
      const res = await call(t.app, 'ship/board', bad as never, ada);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.err, JSON.stringify(bad)).toMatchObject({ code: ERR.badInput });
      expect(typeof res.body.err!.message).toBe('string');
    }
  });

  it("never shows another organisation's orders, whatever the filters", async () => {
    for (const body of [{ department: dept }, { type: 'sos' }, { picked: 'all' }, { picked: 'none', sort: 'picked', desc: true }]) {
      const res = await call(t.app, 'ship/board', { ...ACME_BASE, ...body } as never, acme);
      expect(res.status).toBe(200);
      const ids = new Set(res.body.orders!.map((o) => o._id));
      for (const o of made.values()) expect(ids.has(o._id)).toBe(false);
    }
    expect((await call(t.app, 'ship/board', { ...ACME_BASE, department: dept }, acme)).body.orders).toEqual([]);
  });
});

describe('order/issue', () => {
  it("issues a work order's picked stock to production; a sales order is shipped, not issued", async () => {
    const { order, picked } = await pickedOrder(2, 'wos');
    expect((await call(t.app, 'package/save', { orderId: order._id }, ada)).status).toBe(400);
    const res = await call(t.app, 'order/issue', { idempotencyKey: key(), orderId: order._id }, ada);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ orderStatus: 'issued', movementCount: 2 });
    const stock = await call(t.app, 'stock/get', { stockId: picked[0] }, ada);
    expect(stock.body.movements![0]).toMatchObject({ type: 'issue', qtyAfter: 0 });
    const sales = await pickedOrder(1);
    const refused = await call(t.app, 'order/issue', { idempotencyKey: key(), orderId: sales.order._id }, ada);
    expect(refused.status).toBe(400);
    expect(refused.body.err).toMatchObject({ code: ERR.badInput });
  });
});
