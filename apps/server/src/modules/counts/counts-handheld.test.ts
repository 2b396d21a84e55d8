import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foundStockHintSchema, type Sheet } from '@floorhand/contract/counts';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

// Issue 25, item 5: what a code scanned while counting is, when it is no stock label: a location not on
// the sheet (refused as counts/scanLocation refuses it, never found stock), an item's barcode, a serial.

let t: TestApp;
let admin: string;
let clerk: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

type Body = Record<string, unknown>;
const key = () => randomUUID();
const tag = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;

async function places(count: number): Promise<string[]> {
  const n = tag();
  const codes = Array.from({ length: count }, (_, i) => `SC-${n}-${i + 1}`);
  for (const code of codes) {
    const res = await call(
      t.app,
      'location/save',
      { record: { warehouse: 'MAIN', code, description: 'Scan code test', type: 'bin' } },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return codes;
}

/** An item of its own with one barcode. */
async function item(tracking: 'none' | 'lot' | 'serial'): Promise<{ partNumber: string; barcode: string }> {
  const partNumber = `SCP-${tag()}`;
  const barcode = `BC${tag()}`;
  const res = await call(
    t.app,
    'item/save',
    { record: { partNumber, description: 'Scan code part', tracking, barcodes: [barcode] } },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { partNumber, barcode };
}

async function receive(partNumber: string, location: string, quantity: number, extra: Body = {}): Promise<string> {
  const res = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: key(), record: { partNumber, warehouse: 'MAIN', location, quantity, ...extra } },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!.stockId;
}

async function sheetFor(locations: string[]): Promise<Sheet> {
  const res = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sheet!;
}

const count = (sheet: Sheet, location: string, body: Body) =>
  call(t.app, 'counts/record', { idempotencyKey: key(), sheetId: sheet._id, location, ...body }, clerk);
const hint = (detail: string | undefined) => foundStockHintSchema.parse(JSON.parse(detail ?? '{}')).found;

describe('what a scan is while counting, when it is no stock label', () => {
  it('refuses a location that is not on the sheet with the words of counts/scanLocation, not as found stock', async () => {
    const [on, off] = await places(2);
    const sheet = await sheetFor([on!]);
    const scanned = await call(t.app, 'counts/scanLocation', { sheetId: sheet._id, location: off }, clerk);
    expect(scanned.status).toBe(400);
    const message = `The location '${off}' is not on the count sheet ${sheet.code}`;
    expect(scanned.body.err!.message).toBe(message);

    const asLabel = await count(sheet, on!, { stockId: off });
    expect(asLabel.status).toBe(400);
    expect(asLabel.body.err!).toMatchObject({ code: 'ERR_BAD_INPUT', message });
    expect(asLabel.body.err!.detail).toBeUndefined();
    // Given a part number too, it is still no found stock.
    const typed = await count(sheet, on!, { stockId: off, qty: '1', partNumber: (await item('none')).partNumber });
    expect(typed.status).toBe(400);
    expect(typed.body.err!.message).toBe(message);
    // A location of the sheet itself is a location too.
    const own = await count(sheet, on!, { stockId: on });
    expect(own.status).toBe(400);
    expect(own.body.err!.message).toBe(`'${on}' is a location of the count sheet ${sheet.code}: scan it to count there`);
  });

  it("counts an item's barcode on the item's one record in the location; none there is found stock of that part, keyed without the barcode", async () => {
    const [here, empty] = await places(2);
    const { partNumber, barcode } = await item('none');
    const stockId = await receive(partNumber, here!, 7);
    const sheet = await sheetFor([here!, empty!]);

    const asks = await count(sheet, here!, { stockId: barcode });
    expect(asks.status).toBe(400);
    expect(asks.body.err!.message).toBe('Enter the counted quantity');
    expect(asks.body.err!.detail).toBe('{"ask":"qty"}');
    const counted = await count(sheet, here!, { stockId: barcode, qty: '6' });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body.line).toMatchObject({ stockId, partNumber, myCount: 6, found: false });

    // In a location without the item: the found-stock form, filled with the part number.
    const none = await count(sheet, empty!, { stockId: barcode });
    expect(none.status).toBe(400);
    expect(none.body.err!.message).toBe(
      `'${barcode}' is the barcode of part '${partNumber}': none is expected here; give the quantity to record it as found stock`,
    );
    expect(hint(none.body.err!.detail)).toEqual({ partNumber });
    const found = await count(sheet, empty!, { stockId: barcode, qty: '2', partNumber });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.line).toMatchObject({ stockId: null, partNumber, myCount: 2, found: true });
  });

  it("a lot-tracked item's barcode with the lot typed counts that lot's record; two records there ask which", async () => {
    const [here] = await places(1);
    const { partNumber, barcode } = await item('lot');
    const a = await receive(partNumber, here!, 3, { lot: 'L1' });
    await receive(partNumber, here!, 4, { lot: 'L2' });
    const sheet = await sheetFor([here!]);
    const asks = await count(sheet, here!, { stockId: barcode });
    expect(asks.status).toBe(400);
    expect(asks.body.err!.message).toContain('more than one record of it is here');
    expect(hint(asks.body.err!.detail)).toEqual({ partNumber });
    const counted = await count(sheet, here!, { stockId: barcode, qty: '3', partNumber, lot: 'L1' });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body.line).toMatchObject({ stockId: a, myCount: 3, found: false });
  });

  it('a serial on hand, scanned as it is, counts its record (1, no prompt), here or found from elsewhere', async () => {
    const [here, there] = await places(2);
    const { partNumber } = await item('serial');
    const serial = `SN${tag()}`;
    const other = `SN${tag()}`;
    const stockId = await receive(partNumber, here!, 1, { serial });
    const elsewhere = await receive(partNumber, there!, 1, { serial: other });
    const sheet = await sheetFor([here!, there!]);
    const counted = await count(sheet, here!, { stockId: serial });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body.line).toMatchObject({ stockId, serial, myCount: 1, found: false });
    const foundHere = await count(sheet, here!, { stockId: other });
    expect(foundHere.status, JSON.stringify(foundHere.body)).toBe(200);
    expect(foundHere.body.line).toMatchObject({ stockId: elsewhere, serial: other, found: true });
  });

  it("a serial item's barcode asks for the serial, with the part number filled", async () => {
    const [here] = await places(1);
    const { partNumber, barcode } = await item('serial');
    const sheet = await sheetFor([here!]);
    const res = await count(sheet, here!, { stockId: barcode });
    expect(res.status).toBe(400);
    expect(res.body.err!.message).toBe(
      `'${barcode}' is the barcode of part '${partNumber}': scan the serial, or give it to record found stock`,
    );
    expect(hint(res.body.err!.detail)).toEqual({ partNumber });
  });

  it('an unknown label is still found stock by its label', async () => {
    const [here] = await places(1);
    const sheet = await sheetFor([here!]);
    const label = `UNK${tag()}`;
    const res = await count(sheet, here!, { stockId: label });
    expect(res.status).toBe(400);
    expect(res.body.err!.message).toBe(`No stock record '${label}' exists: give its part number to record it as found stock`);
  });
});

describe("a counter's sheet list", () => {
  it("lists the sheets naming the caller as a counter first, newest first within each part (issue 25: the counter's sheets on the handheld's first screen)", async () => {
    const [a, b] = await places(2);
    const mine = (await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations: [a], assignees: ['clerk'] }, admin)).body.sheet!;
    const newer = await sheetFor([b!]);
    const list = await call(t.app, 'counts/sheet/list', { filterSheetOpen: true }, clerk);
    expect(list.status).toBe(200);
    const codes = list.body.sheets!.map((s) => s.code);
    expect(codes.indexOf(mine.code)).toBeGreaterThanOrEqual(0);
    expect(codes.indexOf(mine.code)).toBeLessThan(codes.indexOf(newer.code));
    // Another account's list keeps the newest first.
    const theirs = (await call(t.app, 'counts/sheet/list', { filterSheetOpen: true }, admin)).body.sheets!.map((s) => s.code);
    expect(theirs.indexOf(newer.code)).toBeLessThan(theirs.indexOf(mine.code));
  });
});
