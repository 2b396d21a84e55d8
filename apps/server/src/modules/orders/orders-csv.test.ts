import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { parseCsv } from '@floorhand/contract/csv';
import { ERR } from '@floorhand/contract/errors';
import { importReportOf } from '@floorhand/contract/csv-transfer';
import { featureAccess } from '../../db/schema.ts';
import { APP_ID } from '@floorhand/contract/constants';
import { EVERYONE as EVERYONE_ROLE } from '@floorhand/contract/roles';
import { ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, uniqueIp, plainParts, type TestApp } from '../../test/harness.ts';
import { query } from '../../db/sql.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

// CSV import (and export) of orders through import/csv: one row per order line, all or nothing.

let t: TestApp;
let admin: string;
let kiosk: string;
let acme: string;
let PART = '';
let PART2 = '';

const rows = <T>(q: ReturnType<typeof sql>) => query<T>(t.db, q);
const orderCount = async () => (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders`))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  kiosk = await tokenFor(t.app, 'kiosk');
  acme = await acmeAdminToken(t.app);
  [PART = '', PART2 = ''] = await plainParts(t.db, 2);
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

let n = 0;
const number = (prefix = 'CSV') => `${prefix}-${Date.now()}-${(n += 1)}`;
const importOrders = (csv: string, token = admin, extra: Record<string, unknown> = {}) =>
  call(t.app, 'import/csv', { entity: 'orders', csv, ...extra }, token, { ip: uniqueIp() });
const getOrder = (num: string, type = 'sos') => call(t.app, 'order/get', { number: num, type }, admin);
const HEADER = 'orderType,orderNumber,warehouse,customer,dueDate,priority,notes,partNumber,qty';

describe('import/csv of orders', () => {
  it('makes one order of the rows of one type and number, numbering lines in file order', async () => {
    const a = number();
    const b = number();
    const csv = [
      HEADER,
      `sos,${a},MAIN,"Acme, Trading",2026-12-01,5,Ring at the back door,${PART},3`,
      `sos,${a},,,,,,${PART2},2`,
      `sms,${b},MAIN,Bay 4,,,,${PART},1`,
    ].join('\r\n');
    const res = await importOrders(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.report).toMatchObject({ entity: 'orders', rows: 3, imported: 2, inserted: 2, updated: 0, rejectedCount: 0 });
    const first = (await getOrder(a)).body.order!;
    expect(first).toMatchObject({
      type: 'sos',
      status: 'open',
      warehouse: 'MAIN',
      customer: 'Acme, Trading',
      dueDate: '2026-12-01',
      priority: 5,
      notes: 'Ring at the back door',
    });
    expect(first.lines.map((l) => [l.lineNo, l.partNumber, l.qty])).toEqual([
      [1, PART, 3],
      [2, PART2, 2],
    ]);
    expect((await getOrder(b, 'sms')).body.order).toMatchObject({ customer: 'Bay 4', lines: [{ lineNo: 1, qty: 1 }] });
  });

  it('re-importing the same order updates it and never duplicates it; empty header cells keep the stored values', async () => {
    const a = number();
    const csv = `orderType,orderNumber,warehouse,customer,priority,lineNo,partNumber,qty\nsos,${a},MAIN,First customer,3,10,${PART},4\nsos,${a},,,,20,${PART2},1\n`;
    expect((await importOrders(csv)).status).toBe(200);
    const id = (await getOrder(a)).body.order!._id;
    const again = await importOrders(
      `orderType,orderNumber,customer,lineNo,partNumber,qty\nsos,${a},,10,${PART},6\nsos,${a},,30,${PART2},2\n`,
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.report).toMatchObject({ inserted: 0, updated: 1 });
    const order = (await getOrder(a)).body.order!;
    expect(order._id).toBe(id);
    expect(order).toMatchObject({ customer: 'First customer', priority: 3, warehouse: 'MAIN' });
    // The file's lines are the order's: 10 changed, 20 removed, 30 added.
    expect(order.lines.map((l) => [l.lineNo, l.qty])).toEqual([
      [10, 6],
      [30, 2],
    ]);
    expect((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders WHERE number = ${a}`))[0]!.n).toBe(1);
    // The same file twice: still one order, updated.
    expect(
      (await importOrders(`orderType,orderNumber,lineNo,partNumber,qty\nsos,${a},10,${PART},6\nsos,${a},30,${PART2},2\n`)).body.report,
    ).toMatchObject({ updated: 1, inserted: 0 });
  });

  it('keeps the ship-to address the API gave when the order is imported again (the CSV has no ship-to column)', async () => {
    const a = number();
    const saved = await call(
      t.app,
      'order/save',
      {
        order: {
          type: 'sos',
          number: a,
          warehouse: 'MAIN',
          customer: 'Harbour Ltd',
          shipTo: 'Harbour Ltd\nQuay 3\nPortsmouth',
          lines: [{ lineNo: 1, partNumber: PART, qty: 1 }],
        },
      },
      admin,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.order!.shipTo).toBe('Harbour Ltd\nQuay 3\nPortsmouth');
    expect(
      (await importOrders(`orderType,orderNumber,customer,lineNo,partNumber,qty\nsos,${a},Harbour Ltd,1,${PART},2\n`)).body.report,
    ).toMatchObject({ updated: 1 });
    expect((await getOrder(a)).body.order).toMatchObject({
      shipTo: 'Harbour Ltd\nQuay 3\nPortsmouth',
      lines: [expect.objectContaining({ qty: 2 })],
    });
  });

  it('reports every bad row at once and writes nothing', async () => {
    const before = await orderCount();
    const a = number();
    const b = number();
    const c = number();
    const d = number();
    const csv = [
      'orderType,orderNumber,warehouse,dueDate,priority,lineNo,partNumber,qty',
      `sos,${a},MAIN,,,1,${PART},2`, // row 2: fine
      `xyz,${b},MAIN,,,1,${PART},1`, // row 3: unknown type
      `sos,${c},NOWH,,,1,${PART},1`, // row 4: unknown warehouse
      `sos,${d},MAIN,,,1,NO-SUCH-PART,1`, // row 5: unknown part
      `sos,${d},MAIN,,,1,${PART},1`, // row 6: line 1 again
      `sos,${d},MAIN,,,2,${PART},0`, // row 7: zero
      `sos,${d},MAIN,,,3,${PART},0.5`, // row 8: half an each
      `sos,${d},WEST,,,4,${PART},1`, // row 9: another warehouse for the same order
      `sos,${a},MAIN,2026-02-30,,2,${PART},1`, // row 10: no such date
      `sos,${a},MAIN,,-1,3,${PART},1`, // row 11: negative priority
      `wos,${number()},,,,1,${PART},1`, // row 12: a new order without warehouse
      `sos,${number()},MAIN,,,1,${PART},lots`, // row 13: not a number
    ].join('\n');
    const res = await importOrders(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain('nothing was imported');
    const report = importReportOf(res.body.err)!;
    expect(report.rows).toBe(12);
    const byRow = new Map<number, string[]>();
    for (const p of report.rejected) byRow.set(p.row, [...(byRow.get(p.row) ?? []), `${p.field}: ${p.message}`]);
    expect([...byRow.keys()].sort((x, y) => x - y)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(byRow.get(3)!.join()).toContain('orderType');
    expect(byRow.get(4)!.join()).toContain("No warehouse 'NOWH' exists");
    expect(byRow.get(5)!.join()).toContain("no item with part number 'NO-SUCH-PART' exists");
    expect(byRow.get(6)!.join()).toContain('Line 1 is given twice');
    expect(byRow.get(7)!.join()).toContain('must be greater than 0');
    expect(byRow.get(8)!.join()).toContain('whole');
    expect(byRow.get(9)!.join()).toContain("has warehouse 'MAIN' in row 5");
    expect(byRow.get(10)!.join()).toContain('dueDate');
    expect(byRow.get(11)!.join()).toContain('priority');
    expect(byRow.get(12)!.join()).toContain('needs its warehouse');
    expect(byRow.get(13)!.join()).toContain('qty');
    expect(await orderCount()).toBe(before);
  });

  it('refuses to change what picks forbid: a picked line below its picked quantity, a cancelled order', async () => {
    const a = number();
    expect((await importOrders(`orderType,orderNumber,warehouse,partNumber,qty\nsos,${a},MAIN,${PART},5\n`)).status).toBe(200);
    const line = (await getOrder(a)).body.order!.lines[0]!;
    await t.db.execute(sql`UPDATE order_lines SET qty_picked = 3 WHERE id = ${line._id}`);
    const lower = await importOrders(`orderType,orderNumber,partNumber,qty\nsos,${a},${PART},2\n`);
    expect(lower.status).toBe(400);
    expect(importReportOf(lower.body.err)!.rejected).toEqual([
      { row: 2, field: 'qty', message: 'line 1 has 3 picked or closed: its quantity cannot go below that' },
    ]);
    await t.db.execute(sql`UPDATE order_lines SET qty_picked = 0 WHERE id = ${line._id}`);
    const id = (await getOrder(a)).body.order!._id;
    expect((await call(t.app, 'order/cancel', { idempotencyKey: randomUUID(), orderId: id }, admin)).status).toBe(200);
    const cancelled = await importOrders(`orderType,orderNumber,partNumber,qty\nsos,${a},${PART},9\n`);
    expect(cancelled.status).toBe(400);
    expect(importReportOf(cancelled.body.err)!.rejected[0]!.message).toContain('is cancelled and cannot be changed');
  });

  it('takes hostile names as plain text: __proto__ and constructor as order numbers, customers and columns', async () => {
    const csv = `${HEADER}\nsos,__proto__,MAIN,constructor,,,__proto__,${PART},1\nsms,constructor,MAIN,__proto__,,,toString,${PART},2\n`;
    const res = await importOrders(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await getOrder('__proto__')).body.order).toMatchObject({ number: '__proto__', customer: 'constructor', notes: '__proto__' });
    expect((await getOrder('constructor', 'sms')).body.order).toMatchObject({ number: 'constructor', customer: '__proto__' });
    // Again: updated, not duplicated.
    expect((await importOrders(csv)).body.report).toMatchObject({ inserted: 0, updated: 2 });
    const unknownParts = await importOrders(`orderType,orderNumber,warehouse,partNumber,qty\nsos,${number()},__proto__,constructor,1\n`);
    expect(importReportOf(unknownParts.body.err)!.rejected.map((p) => p.message)).toEqual([
      "No warehouse '__proto__' exists",
      "line 1: no item with part number 'constructor' exists",
    ]);
    const columns = await importOrders(`orderType,orderNumber,__proto__,constructor,partNumber,qty\nsos,${number()},x,y,${PART},1\n`);
    expect(columns.status).toBe(400);
    const header = importReportOf(columns.body.err)!.rejected.filter((p) => p.row === 1);
    expect(header.map((p) => [p.field, p.message.split(';')[0]])).toEqual([
      ['__proto__', "Unknown column '__proto__'"],
      ['constructor', "Unknown column 'constructor'"],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('needs stockPick.orders, never answers for a shared device, and keeps organisations apart', async () => {
    const csv = `orderType,orderNumber,warehouse,partNumber,qty\nsos,${number()},MAIN,${PART},1\n`;
    expect((await importOrders(csv, kiosk)).status).toBe(403);
    const setLevel = (level: 0 | null) =>
      t.db
        .insert(featureAccess)
        .values({ siteId: 'demo-main', appId: APP_ID, role: EVERYONE_ROLE, feature: 'stockPick.orders', level })
        .onConflictDoUpdate({
          target: [featureAccess.siteId, featureAccess.appId, featureAccess.role, featureAccess.feature],
          set: { level },
        });
    await setLevel(0);
    try {
      const refused = await importOrders(csv, await tokenFor(t.app, 'clerk'));
      expect(refused.status).toBe(403);
    } finally {
      await setLevel(null);
    }
    // Acme cannot import into demo's warehouse, nor update demo's order of the same number.
    const theirs = await call(t.app, 'import/csv', { ...ACME_BASE, entity: 'orders', csv }, acme);
    expect(theirs.status).toBe(400);
    expect(importReportOf(theirs.body.err)!.rejected[0]!.message).toContain("No warehouse 'MAIN' exists");
  });

  it('applies a retried import once (same idempotency key)', async () => {
    const a = number();
    const key = randomUUID();
    const csv = `orderType,orderNumber,warehouse,partNumber,qty\nsos,${a},MAIN,${PART},1\n`;
    const [x, y] = [await importOrders(csv, admin, { idempotencyKey: key }), await importOrders(csv, admin, { idempotencyKey: key })];
    expect(x.body).toEqual(y.body);
    expect(x.body.report).toMatchObject({ inserted: 1 });
  });

  it('exports one row per line that imports back unchanged', async () => {
    const a = number('EXP');
    expect(
      (await importOrders(`${HEADER}\nsos,${a},MAIN,"Quote ""here""",2026-11-02,7,"two\nlines",${PART},2.0\nsos,${a},,,,,,${PART2},1\n`))
        .status,
    ).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/export/csv',
      headers: { authorization: `Bearer ${admin}` },
      payload: { ...DEMO_BASE, entity: 'orders', warehouse: 'MAIN' },
    });
    expect(res.statusCode).toBe(200);
    const records = [...parseCsv(res.body)];
    expect(records[0]).toEqual([
      'orderType',
      'orderNumber',
      'status',
      'warehouse',
      'customer',
      'dueDate',
      'priority',
      'notes',
      'stagingLocation',
      'department',
      'lineNo',
      'partNumber',
      'qty',
    ]);
    const mine = records.filter((r) => r[1] === a);
    expect(mine).toEqual([
      ['sos', a, 'open', 'MAIN', 'Quote "here"', '2026-11-02', '7', 'two\nlines', '', '', '1', PART, '2'],
      ['sos', a, 'open', 'MAIN', 'Quote "here"', '2026-11-02', '7', 'two\nlines', '', '', '2', PART2, '1'],
    ]);
    const back = await importOrders([records[0]!, ...mine].map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\n'));
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.report).toMatchObject({ inserted: 0, updated: 1 });
  });

  it('never answers 500 to odd files', async () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('__proto__', 'constructor', 'sos', 'MAIN', PART, '1', '-1', '1e400', '=1+1', '"'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 4 }), async (lines) => {
        const csv = [HEADER, ...lines.map((l) => l.map((c) => `"${c.replaceAll('"', '""')}"`).join(','))].join('\n');
        const res = await importOrders(csv);
        expect(res.status, JSON.stringify({ csv, reply: res.body })).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});
