import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { parseCsv, toCsv } from '@floorhand/contract/csv';
import { ERR } from '@floorhand/contract/errors';
import { IMPORT_MAX_BYTES, importReportOf } from '@floorhand/contract/csv-transfer';
import { wholeUnitsOnly } from '@floorhand/contract/quantity';
import { call, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let clerk: string;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await tokenFor(t.app, 'clerk');
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

type Entity = 'warehouses' | 'locations' | 'items' | 'stock';
const importCsv = (entity: Entity, csv: string, extra: Record<string, unknown> = {}) =>
  call(t.app, 'import/csv', { entity, csv, ...extra }, clerk);
const dbRows = async (q: SQL) => ((await t.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
const count = async (table: string) => Number((await dbRows(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n);
async function exportCsv(entity: Entity, warehouse?: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/export/csv',
    headers: { authorization: `Bearer ${clerk}` },
    payload: { ...DEMO_BASE, entity, ...(warehouse ? { warehouse } : {}) },
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  return res.body;
}

describe('import/csv of warehouses, locations and items', () => {
  it('inserts new codes and updates known ones, keeping what a row leaves out', async () => {
    const wh = await importCsv('warehouses', 'code,name\r\nWEST,West store\r\nMAIN,Main warehouse (renamed)\r\n');
    expect(wh.status, JSON.stringify(wh.body)).toBe(200);
    expect(wh.body.report).toMatchObject({
      entity: 'warehouses',
      rows: 2,
      imported: 2,
      inserted: 1,
      updated: 1,
      rejectedCount: 0,
      rejected: [],
    });

    const locs = await importCsv(
      'locations',
      'Warehouse,Code,Description,Type\nWEST,W-1,"First bay, by the door",floor\nWEST,W-2,,\nMAIN,A-01-1,,\n',
    );
    expect(locs.body.report).toMatchObject({ inserted: 2, updated: 1 });
    const w1 = await call(t.app, 'location/get', { warehouse: 'WEST', code: 'W-1' }, clerk);
    expect(w1.body.location).toMatchObject({ description: 'First bay, by the door', type: 'floor', active: true });
    const a011 = await call(t.app, 'location/get', { warehouse: 'MAIN', code: 'A-01-1' }, clerk);
    expect(a011.body.location).toMatchObject({ description: 'Aisle A, bay 1, level 1', type: 'floor', _rev: 2 });

    const items = await importCsv(
      'items',
      'partNumber,description,uom,department,tracking,barcodes,active\nNEW-1,New part,KG,ELEC,lot,NEW-1-A|NEW-1-B,true\nNEW-2,"Second ""quoted"" part",,,,,\n',
    );
    expect(items.body.report, JSON.stringify(items.body)).toMatchObject({ inserted: 2, updated: 0 });
    const item = (await call(t.app, 'item/get', { partNumber: 'NEW-1' }, clerk)).body.item;
    expect(item).toMatchObject({ uom: 'KG', department: 'ELEC', tracking: 'lot', barcodes: ['NEW-1-A', 'NEW-1-B'] });
    expect((await call(t.app, 'item/get', { partNumber: 'NEW-2' }, clerk)).body.item).toMatchObject({
      description: 'Second "quoted" part',
      uom: 'EA',
      tracking: 'none',
    });
  });

  it('round-trips an export: the same file imports as updates only', async () => {
    const csv = await exportCsv('items');
    const rows = [...parseCsv(csv)];
    expect(rows[0]).toEqual(['partNumber', 'description', 'uom', 'department', 'tracking', 'barcodes', 'active']);
    const res = await importCsv('items', csv);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.report).toMatchObject({ rows: rows.length - 1, inserted: 0, updated: rows.length - 1 });
    expect(await exportCsv('items')).toBe(csv);
  });

  it('moves a barcode between items of one file', async () => {
    const res = await importCsv('items', 'partNumber,description,barcodes\nNEW-1,New part,NEW-1-A\nNEW-2,Second part,NEW-1-B\n');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await call(t.app, 'item/get', { partNumber: 'NEW-2' }, clerk)).body.item?.barcodes).toEqual(['NEW-1-B']);
  });
});

describe('a file with bad rows', () => {
  it('is refused whole, with a report of every row, field and reason', async () => {
    const before = await count('stock_records');
    const csv = toCsv([
      ['partNumber', 'warehouse', 'location', 'quantity', 'lot', 'stockId'],
      ['NEW-2', 'MAIN', 'A-01-2', '5', '', 'OK-1'],
      ['NEW-2', 'MAIN', 'A-01-2', '-1', '', ''],
      ['NOPE', 'MAIN', 'A-01-2', '1', '', ''],
      ['NEW-2', 'MAIN', 'Z-99', 'abc', '', ''],
      ['NEW-1', 'MAIN', 'A-01-2', '2', '', 'OK-1'],
      ['NEW-2', 'MAIN', 'A-01-2', '1'],
    ]);
    const res = await importCsv('stock', csv);
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toBe('The file was refused: rows with problems 5, problems 6; nothing was imported');
    const report = importReportOf(res.body.err);
    expect(report).toMatchObject({ entity: 'stock', rows: 6, imported: 0, rejectedCount: 6 });
    expect(report?.rejected.map((p) => [p.row, p.field])).toEqual([
      [3, 'quantity'],
      [4, 'partNumber'],
      [5, 'quantity'],
      [6, 'stockId'],
      [6, 'lot'],
      [7, '_record'],
    ]);
    expect(report?.rejected.find((p) => p.row === 6 && p.field === 'stockId')?.message).toBe('This stock id is in row 2 already');
    expect(await count('stock_records')).toBe(before);
  });

  it.each([
    ['an unknown column', 'code,name,colour\nX1,x,red\n', 'colour', "Unknown column 'colour'"],
    ['a missing required column', 'code\nX1\n', 'name', "The required column 'name' is missing"],
    ['a column twice', 'code,name,code\nX1,x,X1\n', 'code', 'appears twice'],
    ['an unclosed quote', 'code,name\nX1,"open\n', '_record', 'a quoted field is not closed'],
    ['an empty file', ' ', '_record', 'The file has no header row'],
  ])('refuses %s', async (_name, csv, field, message) => {
    const before = await count('warehouses');
    const res = await importCsv('warehouses', csv);
    expect(res.status).toBe(400);
    const problem = importReportOf(res.body.err)?.rejected.find((p) => p.field === field);
    expect(problem?.message).toContain(message);
    expect(await count('warehouses')).toBe(before);
  });

  it('refuses a stock id or a serial already on hand', async () => {
    const [taken] = (await dbRows(
      sql`SELECT stock_id, (SELECT part_number FROM items WHERE id = item_id) AS part, serial FROM stock_records WHERE serial IS NOT NULL AND quantity > 0 LIMIT 1`,
    )) as Array<{
      stock_id: string;
      part: string;
      serial: string;
    }>;
    const res = await importCsv(
      'stock',
      `stockId,partNumber,warehouse,location,quantity,serial\n${taken!.stock_id},${taken!.part},MAIN,A-01-2,1,${taken!.serial}\n`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(
      importReportOf(res.body.err)
        ?.rejected.map((p) => p.field)
        .sort(),
    ).toEqual(['serial', 'stockId']);
  });

  it('refuses a body over the import limit with 413', async () => {
    const res = await importCsv('warehouses', `code,name\n${'x'.repeat(IMPORT_MAX_BYTES + 100 * 1024)}`);
    expect(res.status).toBe(413);
  });
});

describe('import/csv of stock', () => {
  it('receives 100,000 rows in one go: every record with its first movement', { timeout: 180_000 }, async () => {
    const parts = (await dbRows(
      sql`SELECT part_number, tracking, uom FROM items WHERE org_id = 'demo' AND tracking <> 'serial' AND active ORDER BY part_number LIMIT 500`,
    )) as Array<{
      part_number: string;
      tracking: string;
      uom: string;
    }>;
    // A quarter of a unit where the unit allows it (KG, M); whole units of an each or a box.
    const quantityOf = (i: number) => `${(i % 50) + 1}${wholeUnitsOnly(parts[i % parts.length]!.uom) ? '' : '.25'}`;
    const places = (await dbRows(
      sql`SELECT w.code AS w, l.code AS l FROM locations l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.org_id = 'demo' AND l.active ORDER BY 1, 2`,
    )) as Array<{ w: string; l: string }>;
    const rows: string[][] = [['stockId', 'partNumber', 'warehouse', 'location', 'quantity', 'conditionCode', 'lot', 'receivedDate']];
    for (let i = 0; i < 100_000; i++) {
      const part = parts[i % parts.length]!;
      const place = places[(i * 7) % places.length]!;
      rows.push([
        i % 2 ? `IMP${String(i).padStart(7, '0')}` : '',
        part.part_number,
        place.w,
        place.l,
        quantityOf(i),
        i % 3 ? 'NE' : 'SV',
        part.tracking === 'lot' ? `LOT${i % 97}` : '',
        '2024-05-01',
      ]);
    }
    const csv = toCsv(rows);
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const records = await count('stock_records');
    const movements = await count('movements');
    const started = performance.now();
    const res = await importCsv('stock', csv, { idempotencyKey: randomUUID() });
    const ms = performance.now() - started;
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.report).toMatchObject({ rows: 100_000, imported: 100_000, inserted: 100_000, rejectedCount: 0 });
    expect(await count('stock_records')).toBe(records + 100_000);
    expect(await count('movements')).toBe(movements + 100_000);
    console.log(`import of 100,000 stock rows (${(csv.length / 1024 / 1024).toFixed(1)} MB): ${Math.round(ms)} ms on ${t.database.kind}`);
    const one = await call(t.app, 'stock/get', { stockId: 'IMP0000001' }, clerk);
    expect(one.body.stock).toMatchObject({ quantity: Number(quantityOf(1)), receivedDate: '2024-05-01' });
    expect(one.body.movements).toEqual([expect.objectContaining({ type: 'receive', qtyDelta: Number(quantityOf(1)) })]);
  });

  it('exports on-hand stock of a warehouse as CSV, also by GET', async () => {
    const csv = await exportCsv('stock', 'EAST');
    const rows = [...parseCsv(csv)];
    expect(rows[0]).toEqual([
      'stockId',
      'partNumber',
      'warehouse',
      'location',
      'quantity',
      'conditionCode',
      'lot',
      'serial',
      'certSource',
      'receivedDate',
    ]);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.slice(1).every((r) => r[2] === 'EAST' && Number(r[4]) > 0)).toBe(true);
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/export/csv?entity=stock&warehouse=EAST',
      headers: { authorization: `Bearer ${clerk}` },
    });
    expect(get.statusCode).toBe(200);
    expect(get.body).toBe(csv);
    expect((await t.app.inject({ method: 'GET', url: '/api/export/csv?entity=stock' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/export/csv?entity=tasks', headers: { authorization: `Bearer ${clerk}` } }))
        .statusCode,
    ).toBe(400);
  });
});
