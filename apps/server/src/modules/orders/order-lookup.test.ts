import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@floorhand/contract/orders';
import { ACME_BASE, call, createAcme, createTestApp, plainParts, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

// Stock Lookup by order number and with the order-type filter (issue 12: left out of the inventory
// issue for want of orders).

let t: TestApp;
let admin: string;
let clerk: string;
let acme: string;
let PART = '';

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  acme = await acmeAdminToken(t.app);
  [PART = ''] = await plainParts(t.db, 1);
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

let n = 0;
async function pickedOrder(type: 'sos' | 'wos', qty: number): Promise<{ order: Order; stockId: string; place: string }> {
  n += 1;
  const place = `LK-${String(n).padStart(2, '0')}-1`;
  expect((await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code: place, type: 'shelf' } }, admin)).status).toBe(200);
  const received = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: randomUUID(), record: { partNumber: PART, warehouse: 'MAIN', location: place, quantity: 10 } },
    admin,
  );
  const stockId = received.body.stock!.stockId;
  const saved = await call(
    t.app,
    'order/save',
    { order: { type, number: `LK-${Date.now()}-${n}`, warehouse: 'MAIN', lines: [{ lineNo: 1, partNumber: PART, qty }] } },
    admin,
  );
  const order = saved.body.order!;
  const pick = await call(
    t.app,
    'pick/confirm',
    { idempotencyKey: randomUUID(), lineId: order.lines[0]!._id, location: place, scan: stockId, qty },
    admin,
  );
  expect(pick.status, JSON.stringify(pick.body)).toBe(200);
  return { order, stockId: pick.body.pick!.stockId, place };
}

const lookup = (value: string, extra: Record<string, unknown> = {}, token = clerk) =>
  call(t.app, 'stock/lookup', { value, ...extra }, token);
const stockIdsOf = (body: { groups?: Array<{ records: Array<{ stockId: string }> }> }) =>
  (body.groups ?? []).flatMap((g) => g.records.map((r) => r.stockId)).sort();

describe('stock/lookup by order number', () => {
  it('shows the stock picked for the order, at its staging place, matched as an order', async () => {
    const { order, stockId } = await pickedOrder('sos', 4);
    const res = await lookup(order.number);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.matchedAs).toEqual(['order']);
    expect(stockIdsOf(res.body)).toEqual([stockId]);
    expect(res.body.groups![0]).toMatchObject({ location: 'STAGE-1', quantity: 4, partNumber: PART });
  });

  it("a pick put back is no longer the order's stock", async () => {
    const { order, place } = await pickedOrder('sos', 10);
    const pick = (await call(t.app, 'pick/order', { orderId: order._id }, admin)).body.lines![0]!.picks[0]!;
    const back = await call(t.app, 'pick/unpick', { idempotencyKey: randomUUID(), pickId: pick._id, toLocation: place }, admin);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const res = await lookup(order.number);
    expect(res.body.matchedAs).toEqual(['order']);
    expect(res.body.groups).toEqual([]);
  });

  it('the order-type filter keeps stock held for orders of that type', async () => {
    const sales = await pickedOrder('sos', 2);
    const work = await pickedOrder('wos', 3);
    // Both picks lie in STAGE-1 with the part's other stock; the filter keeps each order's own.
    const bySos = await lookup('STAGE-1', { orderType: 'sos' });
    expect(bySos.status, JSON.stringify(bySos.body)).toBe(200);
    const sosIds = stockIdsOf(bySos.body);
    expect(sosIds).toContain(sales.stockId);
    expect(sosIds).not.toContain(work.stockId);
    const byWos = stockIdsOf((await lookup(PART, { orderType: 'wos' })).body);
    expect(byWos).toContain(work.stockId);
    expect(byWos).not.toContain(sales.stockId);
    // Without the filter both show, and stock never picked too.
    const all = stockIdsOf((await lookup(PART)).body);
    expect(all).toEqual(expect.arrayContaining([sales.stockId, work.stockId]));
    expect(all.length).toBeGreaterThan(2);
    // An order number with another type's filter finds nothing of it.
    expect((await lookup(work.order.number, { orderType: 'sos' })).body.groups).toEqual([]);
    expect(stockIdsOf((await lookup(work.order.number, { orderType: 'wos' })).body)).toEqual([work.stockId]);
  });

  it("refuses an unknown order type and never shows another organisation's order", async () => {
    const bad = await lookup('X', { orderType: 'xyz' });
    expect(bad.status).toBe(400);
    const { order } = await pickedOrder('sos', 1);
    const theirs = await call(t.app, 'stock/lookup', { ...ACME_BASE, value: order.number }, acme);
    expect(theirs.status).toBe(200);
    expect(theirs.body.matchedAs).toEqual([]);
    expect(theirs.body.groups).toEqual([]);
  });
});
