// The stock write path after its round trips were cut (docs/inventory.md, Benchmark): the record's
// change and its movements are one statement (changeStock), the answer is one read
// (stockAndMovementsByIds), and feature access is remembered with the authentication.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { StockRecord } from '@floorhand/contract/stock';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let PART = '';
let SERIAL_PART = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  const rows = (await t.db.execute(
    sql`SELECT DISTINCT ON (tracking) tracking, part_number FROM items WHERE org_id = 'demo' AND active ORDER BY tracking, uom IN ('KG', 'M') DESC, part_number`,
  )) as unknown as {
    rows: Array<{ tracking: string; part_number: string }>;
  };
  PART = rows.rows.find((r) => r.tracking === 'none')!.part_number;
  SERIAL_PART = rows.rows.find((r) => r.tracking === 'serial')!.part_number;
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

const write = (path: 'stock/receive' | 'stock/adjust' | 'stock/move' | 'stock/split', body: Record<string, unknown>, token = clerk) =>
  call(t.app, path, { idempotencyKey: randomUUID(), ...body }, token);
const get = (stockId: string) => call(t.app, 'stock/get', { stockId }, clerk);

async function fresh(record: Record<string, unknown> = {}): Promise<StockRecord> {
  const res = await write('stock/receive', {
    record: { partNumber: PART, warehouse: 'MAIN', location: 'A-02-1', quantity: 10, ...record },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!;
}

/** The answer of a change says exactly what stock/get says afterwards: the records and their newest movements. */
async function expectAnswerAsStored(body: {
  stock?: StockRecord;
  newStock?: StockRecord;
  movements?: Array<{ id: string; stockId: string }>;
}) {
  for (const record of [body.stock, body.newStock].filter((r): r is StockRecord => r !== undefined)) {
    const stored = (await get(record.stockId)).body;
    expect(record).toEqual(stored.stock);
    for (const m of body.movements!.filter((mv) => mv.stockId === record.stockId)) expect(stored.movements).toContainEqual(m);
  }
}

describe('the answer of every change, read in one statement', () => {
  it('adjust, whole move, part move and split answer what stock/get then reads', async () => {
    const s = await fresh();
    const adjusted = await write('stock/adjust', { stockId: s.stockId, deltaType: 'delta', qty: 2.5, reason: 'Found' });
    expect(adjusted.status).toBe(200);
    expect(adjusted.body.stock).toMatchObject({ quantity: 12.5, _rev: 2 });
    expect(adjusted.body.movements).toMatchObject([
      { type: 'adjust', qtyDelta: 2.5, qtyAfter: 12.5, reason: 'Found', fromLocation: 'A-02-1', toLocation: 'A-02-1', userName: 'clerk' },
    ]);
    await expectAnswerAsStored(adjusted.body);

    const part = await write('stock/move', { stockId: s.stockId, qty: 2.5, toLocation: 'A-02-2' });
    expect(part.status).toBe(200);
    expect(part.body.stock).toMatchObject({ quantity: 10, location: 'A-02-1', _rev: 3 });
    expect(part.body.newStock).toMatchObject({ quantity: 2.5, location: 'A-02-2', _rev: 1 });
    expect(part.body.movements!.map((m) => [m.stockId, m.qtyDelta, m.relatedStockId])).toEqual([
      [s.stockId, -2.5, part.body.newStock!.stockId],
      [part.body.newStock!.stockId, 2.5, s.stockId],
    ]);
    await expectAnswerAsStored(part.body);

    const whole = await write('stock/move', { stockId: s.stockId, toWarehouse: 'MAIN', toLocation: 'A-03-1' });
    expect(whole.status).toBe(200);
    expect(whole.body.stock).toMatchObject({ quantity: 10, location: 'A-03-1', _rev: 4 });
    expect(whole.body.movements).toMatchObject([{ type: 'move', qtyDelta: 0, qtyAfter: 10, fromLocation: 'A-02-1', toLocation: 'A-03-1' }]);
    await expectAnswerAsStored(whole.body);

    const split = await write('stock/split', { stockId: s.stockId, qty: 4 });
    expect(split.status).toBe(200);
    expect(split.body.stock).toMatchObject({ quantity: 6, _rev: 5 });
    expect(split.body.newStock).toMatchObject({ quantity: 4, location: 'A-03-1' });
    await expectAnswerAsStored(split.body);
  });

  it('a change refused by the database leaves neither the record nor a movement behind', async () => {
    // Two units with one serial: the second may be adjusted to 0, but not back to 1 while the first is on hand.
    const serial = `SN-W-${randomUUID().slice(0, 8)}`;
    const first = await fresh({ partNumber: SERIAL_PART, quantity: 1, serial });
    expect((await write('stock/adjust', { stockId: first.stockId, deltaType: 'absolute', qty: 0, reason: 'Lost' })).status).toBe(200);
    const second = await fresh({ partNumber: SERIAL_PART, quantity: 1, serial });
    const movements = (await get(first.stockId)).body.movements!.length;
    const refused = await write('stock/adjust', { stockId: first.stockId, deltaType: 'absolute', qty: 1, reason: 'Found' });
    expect(refused.status).toBe(409);
    expect(refused.body.err?.code).toBe('DUP');
    const after = (await get(first.stockId)).body;
    expect(after.stock).toMatchObject({ quantity: 0, _rev: 2 });
    expect(after.movements).toHaveLength(movements);
    expect((await get(second.stockId)).body.stock?.quantity).toBe(1);
  });
});

describe('feature access remembered with the authentication', () => {
  it('a change of feature access applies to the very next write, on the same token', async () => {
    const s = await fresh();
    const adjust = () => write('stock/adjust', { stockId: s.stockId, deltaType: 'delta', qty: 1, reason: 'Found' });
    expect((await adjust()).status).toBe(200);
    const levels = (await call(t.app, 'admin/featureAccess/get', {}, admin)).body.grid!.levels;
    expect(
      (await call(t.app, 'admin/featureAccess/put', { levels: { ...levels, '*': { ...levels['*'], stockAdjust: 0 } } }, admin)).status,
    ).toBe(200);
    const refused = await adjust();
    expect(refused.status).toBe(403);
    expect(refused.body.err?.code).toBe('ERR_FORBIDDEN');
    expect((await call(t.app, 'admin/featureAccess/put', { levels }, admin)).status).toBe(200);
    expect((await adjust()).status).toBe(200);
  });
});
