// The round trips of a pick confirm (docs/orders.md, "Pick confirm"): every statement a confirm sends
// to PostgreSQL, counted on the driver (node-postgres' Client.query: pooled queries and those of a
// transaction alike, BEGIN and COMMIT included). PostgreSQL only: PGlite has no round trips.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Order } from '@floorhand/contract/orders';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { demoLogin } from '../../test/logins.ts';
import { ledgerMismatches } from '../stock/ledger-check.ts';

let t: TestApp;
let ada: string;
let PART = '';
const onPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  t = await createTestApp();
  ada = (await demoLogin(t.app, 'admin')).token;
  const found = (await t.db.execute(
    sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT 1`,
  )) as unknown as { rows: Array<{ part_number: string }> };
  PART = found.rows[0]!.part_number;
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

let places = 0;
async function freshPlace(): Promise<string> {
  places += 1;
  const code = `U-${String(places).padStart(2, '0')}-1`;
  const res = await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code, type: 'shelf' } }, ada);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return code;
}
async function receive(location: string, quantity: number): Promise<string> {
  const res = await call(t.app, 'stock/receive', { idempotencyKey: randomUUID(), record: { partNumber: PART, warehouse: 'MAIN', location, quantity } }, ada);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!.stockId;
}
let n = 0;
async function newOrder(qty: number): Promise<Order> {
  n += 1;
  const res = await call(t.app, 'order/save', { order: { type: 'sos', number: `CP-${Date.now()}-${n}`, warehouse: 'MAIN', lines: [{ lineNo: 1, partNumber: PART, qty }] } }, ada);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.order!;
}

/** The statements sent while `run` runs. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    sent.push(typeof first === 'string' ? first : first.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

describe.runIf(onPostgres)('pick/confirm round trips', () => {
  it('a whole-record pick and a partial pick', async () => {
    await call(t.app, 'pick/list', {}, ada); // the login's feature access is read once, not in the count
    const place = await freshPlace();
    const stockId = await receive(place, 10);
    const o = await newOrder(8);
    const partial = await statementsOf(async () => {
      const res = await call(t.app, 'pick/confirm', { idempotencyKey: randomUUID(), lineId: o.lines[0]!._id, location: place, scan: stockId, qty: 2 }, ada);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    const place2 = await freshPlace();
    const whole = await receive(place2, 6);
    const wholeSent = await statementsOf(async () => {
      const res = await call(t.app, 'pick/confirm', { idempotencyKey: randomUUID(), lineId: o.lines[0]!._id, location: place2, scan: whole, qty: 6 }, ada);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    if (process.env.SHOW_STATEMENTS) {
      console.log(`PARTIAL ${partial.length}\n${partial.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`);
      console.log(`WHOLE ${wholeSent.length}\n${wholeSent.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`);
    }
  });
});
