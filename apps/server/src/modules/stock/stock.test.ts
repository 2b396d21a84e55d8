import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { validationDetailSchema, type CallResponse } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { groupRecords, type StockRecord } from '@floorhand/contract/stock';
import type { ClientToServerEvents, EventEnvelope, ServerToClientEvents } from '@floorhand/contract/realtime';
import { ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin, tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';
import { purgeExpired } from '../housekeeping/service.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let clerkId: string;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  const c = await demoLogin(t.app, 'clerk');
  clerk = c.token;
  clerkId = c.login.user?.id ?? '';
  acme = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());
// The ledger invariant holds after every test, whatever the test did or was refused.
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

const key = () => randomUUID();
type Body = Record<string, unknown>;
const receive = (record: Body, token = clerk, extra: Body = {}) =>
  call(t.app, 'stock/receive', { idempotencyKey: key(), record, ...extra }, token);
const adjust = (body: Body, token = clerk) =>
  call(t.app, 'stock/adjust', { idempotencyKey: key(), deltaType: 'delta', reason: 'Found', ...body }, token);
const move = (body: Body, token = clerk) => call(t.app, 'stock/move', { idempotencyKey: key(), ...body }, token);
const split = (body: Body, token = clerk) => call(t.app, 'stock/split', { idempotencyKey: key(), ...body }, token);
const get = (stockId: string, token = clerk) => call(t.app, 'stock/get', { stockId }, token);
const lookup = (value: string, extra: Body = {}, token = clerk) => call(t.app, 'stock/lookup', { value, ...extra }, token);

let serial = 0;
/** A fresh record of a plain part in MAIN A-01-2 (or as given); answers the stored record. */
async function fresh(record: Body = {}): Promise<StockRecord> {
  const res = await receive({ partNumber: PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 10, ...record });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!;
}
const dbRows = async (q: SQL) => ((await t.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
const qtyOf = async (stockId: string) => (await get(stockId)).body.stock?.quantity;
const movementCount = async () => Number((await dbRows(sql`SELECT count(*)::int AS n FROM movements`))[0]!.n);

let PART = '';
let LOT_PART = '';
let SERIAL_PART = '';
beforeAll(async () => {
  // Parts of the demo data by tracking: the first of each kind, measured in KG or M where one is (fractions allowed).
  const rows = (await dbRows(
    sql`SELECT DISTINCT ON (tracking) tracking, part_number FROM items WHERE org_id = 'demo' AND active ORDER BY tracking, uom IN ('KG', 'M') DESC, part_number`,
  )) as Array<{
    tracking: string;
    part_number: string;
  }>;
  PART = rows.find((r) => r.tracking === 'none')!.part_number;
  LOT_PART = rows.find((r) => r.tracking === 'lot')!.part_number;
  SERIAL_PART = rows.find((r) => r.tracking === 'serial')!.part_number;
});

const detailOf = (err: ServerErr | undefined) => validationDetailSchema.parse(JSON.parse(err?.detail ?? 'null'));

describe('stock/receive', () => {
  it('creates a stock record with a server-made stock id and its first movement', async () => {
    const res = await receive({
      partNumber: PART,
      warehouse: 'MAIN',
      location: 'A-01-2',
      quantity: '12.5',
      conditionCode: 'NE',
      certSource: 'CoC',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stock = res.body.stock!;
    expect(stock).toMatchObject({
      partNumber: PART,
      warehouse: 'MAIN',
      location: 'A-01-2',
      quantity: 12.5,
      conditionCode: 'NE',
      certSource: 'CoC',
      _rev: 1,
    });
    expect(stock.stockId).toMatch(/^S\d{9}$/);
    expect(stock.receivedDate).toBe(new Date().toISOString().slice(0, 10));
    expect(stock.x$audit.create.user).toBe(clerkId);
    expect(res.body.movements).toEqual([
      expect.objectContaining({
        type: 'receive',
        stockId: stock.stockId,
        qtyDelta: 12.5,
        qtyAfter: 12.5,
        toWarehouse: 'MAIN',
        toLocation: 'A-01-2',
        user: clerkId,
        userName: 'clerk',
      }),
    ]);
  });

  it('keeps a given stock id and refuses it again with 409 DUP', async () => {
    const stockId = `LBL-${serial++}-${Date.now()}`;
    expect((await receive({ stockId, partNumber: PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 1 })).status).toBe(200);
    const again = await receive({ stockId, partNumber: PART, warehouse: 'MAIN', location: 'A-01-3', quantity: 1 });
    expect(again.status).toBe(409);
    expect(again.body.err).toMatchObject({ code: ERR.dup, message: `A Stock Record with id '${stockId}' already exists.` });
  });

  it('takes lots and serials as the item tracking asks', async () => {
    expect((await receive({ partNumber: LOT_PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 3, lot: 'L-77' })).status).toBe(200);
    const sn = `SN-T-${Date.now()}`;
    const first = await receive({ partNumber: SERIAL_PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 1, serial: sn });
    expect(first.status).toBe(200);
    const twin = await receive({ partNumber: SERIAL_PART, warehouse: 'EAST', location: 'A-01-2', quantity: 1, serial: sn });
    expect(twin.status).toBe(409);
    expect(twin.body.err?.code).toBe(ERR.dup);
  });

  const base = () => ({ partNumber: PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 1 });
  it.each([
    ['a negative quantity', { quantity: -1 }, 'quantity', "'Quantity' must be at least 0"],
    ['a zero quantity', { quantity: 0 }, 'quantity', "'Quantity' must be greater than 0"],
    ['a non-numeric quantity', { quantity: 'lots' }, 'quantity', "'Quantity' must be a number"],
    ['NaN as text', { quantity: 'NaN' }, 'quantity', "'Quantity' must be a number"],
    ['five decimals', { quantity: '1.00001' }, 'quantity', "'Quantity' must have at most 4 decimal places"],
    ['a huge quantity', { quantity: 1e12 }, 'quantity', "'Quantity' exceeds max value of 99999999999.9999"],
    ['an unknown part', { partNumber: 'NOPE-1' }, 'partNumber', "No item with part number 'NOPE-1' exists"],
    ['an unknown location', { location: 'Z-99' }, 'location', "No location 'Z-99' exists in warehouse 'MAIN'"],
    ['an unknown warehouse', { warehouse: 'NOWH' }, 'location', "No location 'A-01-2' exists in warehouse 'NOWH'"],
    ['an unknown condition code', { conditionCode: 'ZZ' }, 'conditionCode', "No active condition code 'ZZ' exists"],
    ['a bad received date', { receivedDate: '2024-02-30' }, 'receivedDate', "'Received Date' must match pattern 'YYYY-MM-DD'"],
    ['a missing part number', { partNumber: undefined }, 'partNumber', "'Part Number' must be provided"],
    ['an unknown field', { colour: 'red' }, '_record', "Record contains unexpected data (name = 'colour')"],
    ['a serial on a plain part', { serial: 'X1' }, 'serial', 'is only for serial-tracked parts'],
  ])('refuses %s with 400 and changes nothing', async (_name, change, field, message) => {
    const before = await movementCount();
    const res = await receive({ ...base(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(detailOf(res.body.err).errors[field]?.join(' ')).toContain(message);
    expect(await movementCount()).toBe(before);
  });

  it('refuses a serial-tracked receipt without a serial or of more than one unit', async () => {
    const res = await receive({ partNumber: SERIAL_PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 2 });
    expect(res.status).toBe(400);
    expect(Object.keys(detailOf(res.body.err).errors).sort()).toEqual(['quantity', 'serial']);
    const lot = await receive({ partNumber: LOT_PART, warehouse: 'MAIN', location: 'A-01-2', quantity: 2 });
    expect(detailOf(lot.body.err).errors.lot?.[0]).toContain("'Lot' must be provided");
  });

  it('needs an idempotency key and a login', async () => {
    expect((await call(t.app, 'stock/receive', { record: base() }, clerk)).status).toBe(400);
    expect((await receive(base(), '')).status).toBe(401);
  });
});

describe('stock/adjust', () => {
  it('adds a delta or sets an absolute quantity, with a movement each', async () => {
    const s = await fresh();
    const plus = await adjust({ stockId: s.stockId, qty: 2.5 });
    expect(plus.status, JSON.stringify(plus.body)).toBe(200);
    expect(plus.body.stock).toMatchObject({ quantity: 12.5, _rev: 2 });
    expect(plus.body.movements).toEqual([
      expect.objectContaining({ type: 'adjust', qtyDelta: 2.5, qtyAfter: 12.5, reason: 'Found', fromLocation: 'A-01-2' }),
    ]);
    const minus = await adjust({ stockId: s.stockId, qty: '-0.5', reason: 'Damaged' });
    expect(minus.body.stock?.quantity).toBe(12);
    const abs = await adjust({ stockId: s.stockId, deltaType: 'absolute', qty: 0, reason: 'Lost' });
    expect(abs.body.stock?.quantity).toBe(0);
    expect(abs.body.movements?.[0]).toMatchObject({ qtyDelta: -12, qtyAfter: 0 });
    const history = await get(s.stockId);
    expect(history.body.movements?.map((m) => m.type)).toEqual(['adjust', 'adjust', 'adjust', 'receive']);
  });

  it.each([
    ['a delta below zero on hand', { qty: -11 }, 400, 'would leave'],
    ['a negative absolute quantity', { deltaType: 'absolute', qty: -1 }, 400, 'must not be negative'],
    ['a change of nothing', { qty: 0 }, 400, 'leaves the quantity unchanged'],
    ['text that is not a number', { qty: 'ten' }, 400, 'must be a number'],
    ['NaN', { qty: 'NaN' }, 400, 'must be a number'],
    ['too many decimals', { qty: 0.00001 }, 400, 'decimal places'],
    ['an unknown reason', { reason: 'Stolen by aliens' }, 400, 'is not one of the adjustment reasons'],
    ['a stale revision', { _rev: 7 }, 409, 'changed by someone else'],
    ['a missing idempotency key', { idempotencyKey: undefined }, 400, 'idempotencyKey'],
    ['an unknown delta type', { deltaType: 'relative' }, 400, 'deltaType'],
  ])('refuses %s and changes nothing', async (_name, change, status, message) => {
    const s = await fresh();
    const res = await adjust({ stockId: s.stockId, qty: 1, ...change });
    expect(res.status).toBe(status);
    expect(res.body.err?.message).toContain(message);
    expect(await qtyOf(s.stockId)).toBe(10);
    expect((await get(s.stockId)).body.movements).toHaveLength(1);
  });

  it('refuses 1e309 (Infinity once parsed) with 400', async () => {
    const s = await fresh();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stock/adjust',
      headers: { authorization: `Bearer ${clerk}`, 'content-type': 'application/json' },
      payload: `{"locId":"t","siteId":"demo-main","appId":"floorhand","orgId":"demo","idempotencyKey":"${key()}","stockId":"${s.stockId}","deltaType":"delta","qty":1e309,"reason":"Found"}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().err.code).toBe(ERR.badInput);
    expect(await qtyOf(s.stockId)).toBe(10);
  });

  it("answers 404 for another organisation's stock id, as for one that does not exist", async () => {
    const s = await fresh();
    const theirs = await call(
      t.app,
      'stock/adjust',
      { ...ACME_BASE, idempotencyKey: key(), stockId: s.stockId, deltaType: 'delta', qty: 1, reason: 'Found' },
      acme,
    );
    const none = await call(
      t.app,
      'stock/adjust',
      { ...ACME_BASE, idempotencyKey: key(), stockId: 'S-NOT-THERE', deltaType: 'delta', qty: 1, reason: 'Found' },
      acme,
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body.err?.message).toBe(`No stock record '${s.stockId}' exists`);
    expect(none.status).toBe(404);
    expect((await call(t.app, 'stock/get', { ...ACME_BASE, stockId: s.stockId }, acme)).status).toBe(404);
    expect((await call(t.app, 'stock/lookup', { ...ACME_BASE, value: s.stockId }, acme)).body.matchedAs).toEqual([]);
    expect(await qtyOf(s.stockId)).toBe(10);
  });

  it('refuses a body naming another organisation with 403', async () => {
    const s = await fresh();
    const res = await call(
      t.app,
      'stock/adjust',
      { ...ACME_BASE, idempotencyKey: key(), stockId: s.stockId, deltaType: 'delta', qty: 1, reason: 'Found' },
      clerk,
    );
    expect(res.status).toBe(403);
  });

  it('keeps a serial-tracked unit at 0 or 1', async () => {
    const s = await fresh({ partNumber: SERIAL_PART, quantity: 1, serial: `SN-A-${Date.now()}` });
    expect((await adjust({ stockId: s.stockId, qty: 1 })).status).toBe(400);
    expect((await adjust({ stockId: s.stockId, qty: -1, reason: 'Lost' })).body.stock?.quantity).toBe(0);
    expect((await adjust({ stockId: s.stockId, qty: 1 })).body.stock?.quantity).toBe(1);
  });

  it('takes its reasons from the app settings of the site', async () => {
    const current = await call(t.app, 'site/getData', { section: 'conf', dataId: 'app_settings' }, admin);
    const data = structuredClone(current.body.siteData!.data) as { stockAdjust: { reasons: string[] } };
    data.stockAdjust.reasons = ['Cycle count'];
    const put = await call(t.app, 'site/putData', { section: 'conf', siteData: { dataId: 'app_settings', data } }, admin);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      const s = await fresh();
      expect((await adjust({ stockId: s.stockId, qty: 1, reason: 'Found' })).status).toBe(400);
      expect((await adjust({ stockId: s.stockId, qty: 1, reason: 'Cycle count' })).status).toBe(200);
    } finally {
      const back = await call(t.app, 'site/getData', { section: 'conf', dataId: 'app_settings' }, admin);
      const restored = { ...back.body.siteData!.data, stockAdjust: current.body.siteData!.data.stockAdjust };
      await call(
        t.app,
        'site/putData',
        { section: 'conf', siteData: { dataId: 'app_settings', _rev: back.body.siteData!._rev, data: restored } },
        admin,
      );
    }
  });
});

describe('stock/move and stock/split', () => {
  it('moves a whole record: same record, new place, a movement of delta 0', async () => {
    const s = await fresh();
    const res = await move({ stockId: s.stockId, toWarehouse: 'EAST', toLocation: 'B-02-3' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.stock).toMatchObject({ stockId: s.stockId, warehouse: 'EAST', location: 'B-02-3', quantity: 10, _rev: 2 });
    expect(res.body.newStock).toBeUndefined();
    expect(res.body.movements).toEqual([
      expect.objectContaining({
        type: 'move',
        qtyDelta: 0,
        qtyAfter: 10,
        fromWarehouse: 'MAIN',
        fromLocation: 'A-01-2',
        toWarehouse: 'EAST',
        toLocation: 'B-02-3',
      }),
    ]);
  });

  it('moves part of a record by splitting a new record off at the destination', async () => {
    const s = await fresh({ lot: undefined, conditionCode: 'OH', certSource: 'CoC' });
    const res = await move({ stockId: s.stockId, qty: 4, toLocation: 'A-01-3' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.stock).toMatchObject({ stockId: s.stockId, location: 'A-01-2', quantity: 6 });
    expect(res.body.newStock).toMatchObject({
      location: 'A-01-3',
      warehouse: 'MAIN',
      quantity: 4,
      conditionCode: 'OH',
      certSource: 'CoC',
      receivedDate: s.receivedDate,
    });
    expect(res.body.movements?.map((m) => [m.stockId, m.qtyDelta, m.relatedStockId])).toEqual([
      [s.stockId, -4, res.body.newStock!.stockId],
      [res.body.newStock!.stockId, 4, s.stockId],
    ]);
  });

  it.each([
    ['an unknown location', { toLocation: 'NOWHERE' }, 400, "No location 'NOWHERE' exists in warehouse 'MAIN'"],
    ['the same location', { toLocation: 'A-01-2' }, 400, 'already'],
    ['more than on hand', { qty: 11, toLocation: 'A-01-3' }, 400, 'is more than the 10 on hand'],
    ['a zero quantity', { qty: 0, toLocation: 'A-01-3' }, 400, 'greater than 0'],
    ['a negative quantity', { qty: -2, toLocation: 'A-01-3' }, 400, 'greater than 0'],
    ['an unknown warehouse', { toWarehouse: 'NOWH', toLocation: 'A-01-3' }, 400, "No location 'A-01-3' exists in warehouse 'NOWH'"],
    ['an unknown stock id', { stockId: 'NO-SUCH', toLocation: 'A-01-3' }, 404, "No stock record 'NO-SUCH' exists"],
  ])('refuses a move to %s and changes nothing', async (_name, change, status, message) => {
    const s = await fresh();
    const res = await move({ stockId: s.stockId, ...change });
    expect(res.status).toBe(status);
    expect(res.body.err?.message).toContain(message);
    expect((await get(s.stockId)).body.stock).toMatchObject({ location: 'A-01-2', quantity: 10, _rev: 1 });
  });

  it('refuses a move to an inactive location', async () => {
    const loc = await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code: `OFF-${Date.now()}`, active: false } }, clerk);
    expect(loc.status, JSON.stringify(loc.body)).toBe(200);
    const s = await fresh();
    const res = await move({ stockId: s.stockId, toLocation: loc.body.location!.code });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain('inactive');
  });

  it('splits a record into a new one in the same place', async () => {
    const s = await fresh({ partNumber: LOT_PART, lot: 'L-SPLIT' });
    const res = await split({ stockId: s.stockId, qty: '2.25' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.stock?.quantity).toBe(7.75);
    expect(res.body.newStock).toMatchObject({ quantity: 2.25, lot: 'L-SPLIT', location: 'A-01-2', partNumber: LOT_PART });
    expect(res.body.movements?.every((m) => m.type === 'split')).toBe(true);
    expect((await split({ stockId: s.stockId, qty: 7.75 })).status).toBe(400);
    expect((await split({ stockId: s.stockId, qty: 8 })).status).toBe(400);
  });

  it('refuses a fraction of an item counted in whole units (EA) on receive, adjust, move and split', async () => {
    const [each] = (await dbRows(
      sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT 1`,
    )) as Array<{
      part_number: string;
    }>;
    const whole = 'must be a whole number: EA is counted in whole units';
    const refused = await receive({ partNumber: each!.part_number, warehouse: 'MAIN', location: 'A-01-2', quantity: '1.5' });
    expect(refused.status).toBe(400);
    expect(detailOf(refused.body.err).errors.quantity).toEqual([`'Quantity' ${whole}`]);
    const s = await fresh({ partNumber: each!.part_number, quantity: 4 });
    const before = await movementCount();
    for (const [res, what] of [
      [await adjust({ stockId: s.stockId, qty: 0.5 }), 'adjust by'],
      [await adjust({ stockId: s.stockId, qty: '2.5', deltaType: 'absolute' }), 'set'],
      [await move({ stockId: s.stockId, qty: 1.5, toLocation: 'A-01-3' }), 'move'],
      [await split({ stockId: s.stockId, qty: 0.25 }), 'split'],
    ] as const) {
      expect(res.status).toBe(400);
      expect(res.body.err?.message).toBe(`The quantity to ${what} ${whole}`);
    }
    expect(await movementCount()).toBe(before);
    expect((await split({ stockId: s.stockId, qty: 1 })).status).toBe(200);
    expect(await qtyOf(s.stockId)).toBe(3);
  });

  it('never divides a serial-tracked unit', async () => {
    const s = await fresh({ partNumber: SERIAL_PART, quantity: 1, serial: `SN-B-${Date.now()}` });
    expect((await split({ stockId: s.stockId, qty: 0.5 })).status).toBe(400);
    expect((await move({ stockId: s.stockId, qty: 0.5, toLocation: 'A-01-3' })).status).toBe(400);
    expect((await move({ stockId: s.stockId, toLocation: 'A-01-3' })).body.stock?.location).toBe('A-01-3');
  });
});

describe('idempotency', () => {
  it('applies a retried adjust once and answers the first answer', async () => {
    const s = await fresh();
    const body = { idempotencyKey: key(), stockId: s.stockId, deltaType: 'delta', qty: 1, reason: 'Found' };
    const first = await call(t.app, 'stock/adjust', body, clerk);
    const again = await call(t.app, 'stock/adjust', { ...body, locId: 'retry' }, clerk);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await qtyOf(s.stockId)).toBe(11);
    expect((await get(s.stockId)).body.movements).toHaveLength(2);
  });

  it('applies concurrent requests with one key once', async () => {
    const s = await fresh();
    const body = { idempotencyKey: key(), stockId: s.stockId, qty: 3, toLocation: 'A-01-4' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(t.app, 'stock/move', body, clerk)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(await qtyOf(s.stockId)).toBe(7);
  });

  it('refuses the same key with another request with 409', async () => {
    const s = await fresh();
    const idempotencyKey = key();
    expect((await adjust({ idempotencyKey, stockId: s.stockId, qty: 1 })).status).toBe(200);
    const other = await adjust({ idempotencyKey, stockId: s.stockId, qty: 2 });
    expect(other.status).toBe(409);
    expect(other.body.err?.code).toBe(ERR.conflict);
    expect(await qtyOf(s.stockId)).toBe(11);
  });

  it('keys are per organisation', async () => {
    const s = await fresh();
    const idempotencyKey = key();
    expect((await adjust({ idempotencyKey, stockId: s.stockId, qty: 1 })).status).toBe(200);
    const theirs = await call(
      t.app,
      'stock/adjust',
      { ...ACME_BASE, idempotencyKey, stockId: s.stockId, deltaType: 'delta', qty: 1, reason: 'Found' },
      acme,
    );
    expect(theirs.status).toBe(404);
  });

  it('stores nothing for a refused request, so its retry runs again', async () => {
    const s = await fresh();
    const idempotencyKey = key();
    expect((await adjust({ idempotencyKey, stockId: s.stockId, qty: -20 })).status).toBe(400);
    await adjust({ stockId: s.stockId, qty: 15 });
    expect((await adjust({ idempotencyKey, stockId: s.stockId, qty: -20 })).status).toBe(200);
    expect(await qtyOf(s.stockId)).toBe(5);
  });

  it('forgets keys older than IDEMPOTENCY_KEEP_HOURS and revocations of expired tokens', async () => {
    const s = await fresh();
    const old = key();
    const recent = key();
    expect((await adjust({ idempotencyKey: old, stockId: s.stockId, qty: 1 })).status).toBe(200);
    expect((await adjust({ idempotencyKey: recent, stockId: s.stockId, qty: 1 })).status).toBe(200);
    await t.db.execute(sql`UPDATE idempotency_keys SET created_at = now() - interval '169 hours' WHERE key = ${old}`);
    const jti = old.slice(0, 30);
    await t.db.execute(
      sql`INSERT INTO revoked_tokens (jti, expires_at) VALUES ('gone-' || ${jti}, now() - interval '1 second'), ('kept-' || ${jti}, now() + interval '1 hour')`,
    );
    const purged = await purgeExpired(t.db, t.config.IDEMPOTENCY_KEEP_HOURS);
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(purged.revokedTokens).toBeGreaterThanOrEqual(1);
    const keys = (await dbRows(sql`SELECT key FROM idempotency_keys WHERE key IN (${old}, ${recent})`)).map((r) => r.key);
    expect(keys).toEqual([recent]);
    const jtis = (await dbRows(sql`SELECT jti FROM revoked_tokens WHERE jti LIKE ${`%${jti}`}`)).map((r) => r.jti);
    expect(jtis).toEqual([`kept-${jti}`]);
    // The recent key still answers its retry; the forgotten one is a new request again.
    expect((await adjust({ idempotencyKey: recent, stockId: s.stockId, qty: 1 })).status).toBe(200);
    expect(await qtyOf(s.stockId)).toBe(12);
    expect((await adjust({ idempotencyKey: old, stockId: s.stockId, qty: 1 })).status).toBe(200);
    expect(await qtyOf(s.stockId)).toBe(13);
  });
});

describe('concurrent changes of one record', () => {
  it('lose no update: 50 adjusts and part moves end with the record and the ledger agreeing', async () => {
    const s = await fresh({ quantity: 100 });
    const ops = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? adjust({ stockId: s.stockId, qty: 1 })
        : move({ stockId: s.stockId, qty: 1, toLocation: i % 4 === 1 ? 'A-01-3' : 'A-01-4' }),
    );
    const answers = await Promise.all(ops);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    // 25 adjusts of +1 and 25 moves of 1 out: the record is back at 100, with 25 new records of 1.
    const after = await get(s.stockId);
    expect(after.body.stock?.quantity).toBe(100);
    expect(after.body.stock?._rev).toBe(51);
    expect(after.body.movements).toHaveLength(51);
    const split = (
      await dbRows(
        sql`SELECT count(*)::int AS n FROM movements m JOIN stock_records r ON r.id = m.related_stock_record_id WHERE r.stock_id = ${s.stockId}`,
      )
    )[0];
    expect(split).toEqual({ n: 25 });
  });
});

describe('stock/lookup', () => {
  it('finds stock by stock id, part number, barcode and location code', async () => {
    const s = await fresh({ quantity: 5 });
    const byId = await lookup(s.stockId);
    expect(byId.body).toMatchObject({ matchedAs: ['stockId'], rowCount: 1, more: false });
    expect(byId.body.groups?.[0]).toMatchObject({
      partNumber: PART,
      location: 'A-01-2',
      quantity: 5,
      records: [expect.objectContaining({ stockId: s.stockId })],
    });

    const item = (await call(t.app, 'item/get', { partNumber: PART }, clerk)).body.item!;
    const byPart = await lookup(PART);
    const byBarcode = await lookup(item.barcodes[0]!);
    expect(byPart.body.matchedAs).toEqual(['partNumber']);
    expect(byBarcode.body.matchedAs).toEqual(['barcode']);
    expect(byBarcode.body.groups).toEqual(byPart.body.groups);
    expect(byPart.body.groups?.flatMap(groupRecords).every((r) => r.partNumber === PART && r.quantity > 0)).toBe(true);

    const byLocation = await lookup('A-01-2', { warehouse: 'MAIN' });
    expect(byLocation.body.matchedAs).toEqual(['location']);
    expect(byLocation.body.groups?.every((g) => g.location === 'A-01-2' && g.warehouse === 'MAIN')).toBe(true);
    // Every warehouse's A-01-2 without the filter.
    const everywhere = await lookup('A-01-2');
    expect(new Set(everywhere.body.groups?.map((g) => g.warehouse))).toEqual(new Set(['MAIN', 'EAST']));
  });

  it('groups records by item and location and sums them', async () => {
    const a = await fresh({ quantity: 1.5, location: 'C-05-2' });
    await fresh({ quantity: 2, location: 'C-05-2' });
    const res = await lookup(a.stockId.length ? 'C-05-2' : '', { warehouse: 'MAIN' });
    const group = res.body.groups?.find((g) => g.partNumber === PART);
    expect(group?.records.length).toBeGreaterThanOrEqual(2);
    expect(group?.quantity).toBe(group?.records.reduce((n, r) => n + r.quantity, 0));
  });

  it('answers nothing for a value that names nothing', async () => {
    expect((await lookup('NOTHING-AT-ALL')).body).toEqual({ matchedAs: [], groups: [], rowCount: 0, more: false });
  });

  it('filters by warehouse, condition code and department', async () => {
    const all = (await lookup('A-01-2')).body.groups!.flatMap(groupRecords);
    const ne = (await lookup('A-01-2', { conditionCode: 'NE' })).body.groups!.flatMap((g) => g.records);
    expect(ne.length).toBeLessThan(all.length);
    expect(ne.every((r) => r.conditionCode === 'NE')).toBe(true);
    const dept = all[0]!.department!;
    const inDept = (await lookup('A-01-2', { department: dept })).body.groups!.flatMap(groupRecords);
    expect(inDept.length).toBeGreaterThan(0);
    expect(inDept.every((r) => r.department === dept)).toBe(true);
    expect((await lookup('A-01-2', { warehouse: 'EAST' })).body.groups!.every((g) => g.warehouse === 'EAST')).toBe(true);
  });

  it('shows zero-quantity records only on request, and only those changed within zeroQtyMonths', async () => {
    const s = await fresh({ location: 'D-07-2' });
    await adjust({ stockId: s.stockId, deltaType: 'absolute', qty: 0, reason: 'Lost' });
    const ids = async (extra: Body) => (await lookup(s.stockId, extra)).body.groups!.flatMap((g) => g.records.map((r) => r.stockId));
    expect(await ids({})).toEqual([]);
    expect(await ids({ showZeroQty: true })).toEqual([s.stockId]);
    await t.db.execute(sql`UPDATE stock_records SET changed_at = now() - interval '3 months' WHERE stock_id = ${s.stockId}`);
    expect(await ids({ showZeroQty: true })).toEqual([]);
    expect(await ids({ showZeroQty: true, zeroQtyMonths: 6 })).toEqual([s.stockId]);
  });

  it('sorts, caps at maxRows and says there are more', async () => {
    const res = await lookup('A-01-2', { maxRows: 3, sort: 'quantity', desc: true });
    expect(res.body.rowCount).toBe(3);
    expect(res.body.more).toBe(true);
    const qty = res.body.groups!.flatMap((g) => g.records.map((r) => r.quantity));
    expect(qty).toEqual([...qty].sort((a, b) => b - a));
    expect((await lookup('A-01-2', { maxRows: 500 })).status).toBe(400);
    expect((await lookup('')).status).toBe(400);
    expect((await lookup('A-01-2', { sort: 'colour' })).status).toBe(400);
  });

  it('needs a login', async () => {
    expect((await call(t.app, 'stock/lookup', { value: 'A-01-2' })).status).toBe(401);
    expect((await call(t.app, 'stock/get', { stockId: 'S000000001' })).status).toBe(401);
  });
});

describe('limits and the database', () => {
  it('refuses a 10 MB body with 413 and changes nothing', async () => {
    const s = await fresh();
    const res = await adjust({ stockId: s.stockId, qty: 1, reason: 'x'.repeat(10 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await qtyOf(s.stockId)).toBe(10);
  });

  it('keeps the ledger append-only and quantities non-negative in the database itself', async () => {
    const s = await fresh();
    await expect(t.db.execute(sql`UPDATE movements SET qty_delta = 0 WHERE stock_record_id = ${s._id}`)).rejects.toThrow();
    await expect(t.db.execute(sql`DELETE FROM movements WHERE stock_record_id = ${s._id}`)).rejects.toThrow();
    await expect(t.db.execute(sql`UPDATE stock_records SET quantity = -1 WHERE id = ${s._id}`)).rejects.toThrow();
    await expect(
      t.db.execute(sql`UPDATE stock_records SET quantity = 2 WHERE serial IS NOT NULL AND quantity = 1 AND org_id = 'demo'`),
    ).rejects.toThrow();
    await expect(
      t.db.execute(
        sql`INSERT INTO movements (org_id, stock_record_id, type, qty_delta, qty_after, account_id) VALUES ('demo', ${s._id}, 'teleport', 0, 10, 'x')`,
      ),
    ).rejects.toThrow();
  });
});

describe('realtime', () => {
  let socket: Socket<ServerToClientEvents, ClientToServerEvents> | undefined;
  afterAll(() => socket?.disconnect());

  it('tells the site which stock and locations a movement changed, after commit', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    socket = io(`${base}/${DEMO_BASE.siteId}`, {
      transports: ['websocket'],
      auth: { token: clerk },
      query: { client: 'test' },
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    const s = await fresh();
    // The receipt's own event may still be on its way: wait for the one that names the move's records.
    const event = new Promise<EventEnvelope<{ stockIds: string[]; locationIds: string[] }>>((resolve) =>
      socket!.on('stockChanged', (e) => {
        if (e.data.stockIds.length === 2) resolve(e);
      }),
    );
    const res: { body: Partial<CallResponse<'stock/move'>> } = await move({ stockId: s.stockId, qty: 1, toLocation: 'A-01-3' });
    const { data } = await event;
    expect(data.stockIds).toEqual([s.stockId, res.body.newStock!.stockId]);
    expect(data.locationIds).toEqual([s.locationId, res.body.newStock!.locationId]);
  });
});
