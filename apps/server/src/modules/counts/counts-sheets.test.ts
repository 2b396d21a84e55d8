// Count sheets on paper and in bulk: the printable PDF (blind sheets never carry the expected
// quantity), creating sheets by CSV (every bad row at once, hostile names), cycle frequencies and the
// sheets of the locations due, and the review chart's variance by location. PGlite by default,
// PostgreSQL with DATABASE_URL (docs/physical-inventory.md).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { Sheet, SheetImportReport } from '@floorhand/contract/counts';
import { ACME_BASE, DEMO_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { pdfTexts } from '../../test/pdf-text.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let acme: string;
let PART = '';

const rows = async (q: SQL) => ((await t.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
const key = () => randomUUID();

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  acme = await acmeAdminToken(t.app);
  PART = String(
    (
      await rows(
        sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND uom = 'EA' AND tracking = 'none' ORDER BY part_number LIMIT 1`,
      )
    )[0]!.part_number,
  );
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

let n = 0;
/** Fresh locations of MAIN whose codes read as one aisle (letters), the given bays and level 1. */
async function places(bays: number[]): Promise<string[]> {
  n += 1;
  // Letters only before the bay, so the aisle is one number and the bays order the walk.
  const aisle = `Q${String.fromCharCode(65 + (n % 26))}${randomUUID()
    .replace(/[^a-z]/g, '')
    .slice(0, 3)
    .toUpperCase()}`;
  const codes = bays.map((b) => `${aisle}-${b}-1`);
  for (const code of codes) {
    const res = await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code, description: 'Sheet test', type: 'bin' } }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return codes;
}

async function receive(location: string, quantity: number): Promise<string> {
  const res = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: key(), record: { partNumber: PART, warehouse: 'MAIN', location, quantity } },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!.stockId;
}

async function sheetFor(body: Record<string, unknown>, token = admin): Promise<Sheet> {
  const res = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sheet!;
}

async function pdfOf(sheetId: string, token = clerk) {
  return t.app.inject({
    method: 'POST',
    url: '/api/counts/sheet/pdf',
    payload: { ...DEMO_BASE, sheetId },
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('the printable count sheet', () => {
  it('lists the locations in walk order with the expected stock and a blank counted column, and the quantity only when not blind', async () => {
    const [b1, b2, b10] = await places([1, 2, 10]);
    const s10 = await receive(b10!, 9173);
    const s1 = await receive(b1!, 4821);
    const open = await sheetFor({
      fromLocation: b1,
      toLocation: b2!.replace(/-2-1$/, '-9-9'),
      blind: false,
      assignees: ['clerk'],
      description: 'Aisle PQ',
    });
    // The range by byte order holds -1-1, -10-1 and -2-1; the sheet prints them as they are walked.
    expect(open.locationCount).toBe(3);
    const res = await pdfOf(open._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${open.code}.pdf"`);
    const texts = await pdfTexts(res.rawPayload);
    expect(texts).toContain(`Count sheet ${open.code}`);
    expect(texts).toContain('Counters: clerk');
    expect(texts.some((x) => x.startsWith('Warehouse MAIN'))).toBe(true);
    for (const header of ['Location', 'Stock id', 'Item', 'Description', 'Lot / serial', 'Expected', 'Counted'])
      expect(texts).toContain(header);
    const order = texts.filter((x) => x === b1 || x === b2 || x === b10);
    expect(order).toEqual([b1, b2, b10]);
    expect(texts).toContain(s1);
    expect(texts).toContain(s10);
    expect(texts).toContain('4821');
    expect(texts).toContain('9173');
    expect(texts).toContain('(nothing expected)');

    await receive(b1!, 7); // a second record of the item in b1: still one row on the blind sheet
    const blind = await sheetFor({ locations: [b1, b2, b10] });
    const blindPdf = await pdfOf(blind._id);
    expect(blindPdf.statusCode).toBe(200);
    const blindTexts = await pdfTexts(blindPdf.rawPayload);
    // What to look for, an item per location; nothing that counts it: no stock ids or serials (a row per
    // record would tell how many serials are expected), no "nothing expected".
    expect(blindTexts.filter((x) => x === PART)).toHaveLength(2);
    expect(blindTexts).not.toContain(s10);
    expect(blindTexts).not.toContain(s1);
    expect(blindTexts).not.toContain('Stock id');
    expect(blindTexts).not.toContain('(nothing expected)');
    expect(blindTexts).not.toContain('Expected');
    expect(blindTexts.join('\n')).not.toMatch(/4821|9173/);
    // Nor anywhere in the file as it is sent.
    expect(Buffer.from(blindPdf.rawPayload).toString('latin1')).not.toMatch(/4821|9173/);
    expect(blindTexts.some((x) => x.startsWith('Blind count'))).toBe(true);
    for (const s of [open, blind]) await call(t.app, 'counts/sheet/cancel', { sheetId: s._id }, admin);
  });

  it("answers 404 for another organisation's sheet and an error in the spec's shape for a bad body", async () => {
    const [b1] = await places([1]);
    const sheet = await sheetFor({ locations: [b1] });
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/counts/sheet/pdf',
      payload: { ...ACME_BASE, sheetId: sheet._id },
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().err.code).toBe('ERR_NOT_FOUND');
    const bad = await call(t.app, 'counts/sheet/pdf', { sheetId: { __proto__: 1 } }, clerk);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toEqual(expect.any(String));
    await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin);
  });
});

const importCsv = (csv: string, idempotencyKey?: string, token = admin) =>
  call(t.app, 'counts/sheet/import', { csv, ...(idempotencyKey ? { idempotencyKey } : {}) }, token);
const sheetCount = async () => Number((await rows(sql`SELECT count(*)::int AS n FROM count_sheets WHERE org_id = 'demo'`))[0]!.n);

describe('count sheets by CSV', () => {
  it('creates one sheet a row: a list, a range, counters, blind or not, all or nothing and once', async () => {
    const locs = await places([1, 2, 3]);
    const csv = [
      'warehouse,locations,fromLocation,toLocation,counters,blind,description',
      `MAIN,${locs[0]}|${locs[2]},,,clerk|Admin,false,"By list, two"`,
      `MAIN,,${locs[0]},${locs[1]},,,By range`,
    ].join('\r\n');
    const k = key();
    const res = await importCsv(csv, k);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.report).toMatchObject({ rows: 2, created: 2, rejectedCount: 0 });
    const [byList, byRange] = res.body.sheets!;
    expect(byList).toMatchObject({
      warehouse: 'MAIN',
      locationCount: 2,
      blind: false,
      assignees: ['admin', 'clerk'],
      description: 'By list, two',
      state: 'open',
    });
    expect(byRange).toMatchObject({ locationCount: 2, blind: true, assignees: [], description: 'By range' });
    const before = await sheetCount();
    const again = await importCsv(csv, k);
    expect(again.body).toEqual(res.body);
    expect(await sheetCount()).toBe(before);
    for (const s of res.body.sheets!) await call(t.app, 'counts/sheet/cancel', { sheetId: s._id }, admin);
  });

  it('reports every problem of every row at once, hostile names included, and creates nothing', async () => {
    const [loc] = await places([1]);
    const csv = [
      'Warehouse,locations,fromLocation,counters,blind,__proto__',
      `__proto__,${loc},,,,x`,
      `MAIN,NOPE-1|constructor,,,,`,
      `MAIN,${loc},${loc},,,`,
      `MAIN,NOPE-2,,ghost,maybe,`,
      `MAIN,${loc},,constructor|__proto__|clerk,,`,
      `,${loc},,,,`,
      'MAIN,a,b',
    ].join('\n');
    const before = await sheetCount();
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toMatch(/^The file was refused: rows with problems 8, problems \d+; no sheet was created$/);
    const report = JSON.parse(res.body.err!.detail!) as SheetImportReport;
    const at = (row: number) => report.rejected.filter((p) => p.row === row).map((p) => `${p.field}: ${p.message}`);
    expect(at(1)).toEqual([expect.stringContaining("Unknown column '__proto__'")]);
    expect(at(2).join()).toContain("No warehouse '__proto__' exists");
    expect(at(3).join()).toContain("No active location 'NOPE-1', 'constructor' in warehouse 'MAIN'");
    expect(at(4)).toEqual(['locations: Give a list of locations or a range, not both']);
    // A row refused for one cell is still checked on the others: all its problems at once.
    expect(at(5)).toEqual([
      "blind: 'Blind' must be a boolean",
      "locations: No active location 'NOPE-2' in warehouse 'MAIN'",
      "counters: No active account 'ghost'",
    ]);
    expect(at(6)).toEqual(["counters: No active account 'constructor', '__proto__'"]);
    expect(at(7).join()).toMatch(/warehouse/i);
    expect(at(8).join()).toMatch(/The row has 3 fields; the header has 6/);
    expect(await sheetCount()).toBe(before);
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('refuses an empty file, a header alone and a file that is not CSV with a clear error', async () => {
    for (const csv of ['warehouse', '"unclosed', '\n\n']) {
      const res = await importCsv(csv);
      expect(res.status, csv).toBe(400);
      expect(res.body.err?.code).toBe('ERR_BAD_INPUT');
      expect((JSON.parse(res.body.err!.detail!) as SheetImportReport).rejected.length).toBeGreaterThan(0);
    }
  });

  it("never uses another organisation's warehouses", async () => {
    const other = await call(t.app, 'counts/sheet/import', { ...ACME_BASE, csv: 'warehouse\nMAIN' }, acme);
    expect(other.status).toBe(400);
    expect(JSON.parse(other.body.err!.detail!).rejected[0].message).toBe("No warehouse 'MAIN' exists");
  });
});

describe('cycle frequencies', () => {
  const due = (locations: string[]) => call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations, due: true }, admin);

  it('makes a sheet of the locations not counted in a posted sheet within their days', async () => {
    const [a, b, c] = await places([1, 2, 3]);
    const put = await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', locations: [a, b], days: 7 }, admin);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.frequency?.locations).toEqual(
      expect.arrayContaining([
        { code: a, days: 7 },
        { code: b, days: 7 },
      ]),
    );

    // Never counted: a and b are due; c has no frequency.
    const first = await due([a!, b!, c!]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.sheet?.locationCount).toBe(2);
    await call(t.app, 'counts/sheet/cancel', { sheetId: first.body.sheet!._id }, admin);

    // a is counted (scanned) on a posted sheet; b is on it but nobody scanned it.
    const counted = await sheetFor({ locations: [a, b] });
    expect((await call(t.app, 'counts/scanLocation', { sheetId: counted._id, location: a }, clerk)).status).toBe(200);
    expect((await call(t.app, 'counts/sheet/submit', { sheetId: counted._id }, clerk)).status).toBe(200);
    expect((await call(t.app, 'counts/post', { idempotencyKey: key(), sheetId: counted._id }, admin)).status).toBe(200);
    const second = await due([a!, b!, c!]);
    const sheetLocs = (await call(t.app, 'counts/sheet/get', { sheetId: second.body.sheet!._id }, admin)).body.locations!.map(
      (l) => l.code,
    );
    expect(sheetLocs).toEqual([b]);
    await call(t.app, 'counts/sheet/cancel', { sheetId: second.body.sheet!._id }, admin);

    // Eight days later a is due again.
    await t.db.execute(sql`UPDATE count_sheets SET posted_at = now() - interval '8 days' WHERE id = ${counted._id}`);
    const third = await due([a!, b!, c!]);
    expect(third.body.sheet?.locationCount).toBe(2);
    await call(t.app, 'counts/sheet/cancel', { sheetId: third.body.sheet!._id }, admin);

    // The warehouse's days cover locations without their own; a location's own days win.
    await t.db.execute(sql`UPDATE count_sheets SET posted_at = now() - interval '3 days' WHERE id = ${counted._id}`);
    expect((await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', days: 1 }, admin)).body.frequency?.days).toBe(1);
    try {
      const withWarehouse = await due([a!, b!, c!]);
      const codes = (await call(t.app, 'counts/sheet/get', { sheetId: withWarehouse.body.sheet!._id }, admin)).body.locations!.map(
        (l) => l.code,
      );
      expect(codes).toEqual([b, c]);
      await call(t.app, 'counts/sheet/cancel', { sheetId: withWarehouse.body.sheet!._id }, admin);
    } finally {
      await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', days: null }, admin);
    }

    // Nothing due: a clear refusal.
    await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', locations: [b], days: null }, admin);
    const none = await due([a!, c!]);
    expect(none.status).toBe(400);
    expect(none.body.err?.message).toBe("No location of warehouse 'MAIN' in the selection is due for a count by its count frequency");
    const got = await call(t.app, 'counts/frequency/get', { warehouse: 'MAIN' }, clerk);
    expect(got.body.frequency?.days).toBeNull();
    expect(got.body.frequency?.locations).toContainEqual({ code: a, days: 7 });
    expect(got.body.frequency?.locations.map((l) => l.code)).not.toContain(b);
  });

  it('creates due sheets by CSV too, and refuses unknown locations and bad days', async () => {
    const [a, b] = await places([1, 2]);
    await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', locations: [a], days: 30 }, admin);
    const res = await importCsv(`warehouse,locations,due\nMAIN,${a}|${b},true\nMAIN,${b},1`);
    expect(res.status).toBe(400);
    const report = JSON.parse(res.body.err!.detail!) as SheetImportReport;
    expect(report.rejected).toEqual([
      { row: 3, field: 'due', message: "No location of warehouse 'MAIN' in the selection is due for a count by its count frequency" },
    ]);
    const ok = await importCsv(`warehouse,locations,due\nMAIN,${a}|${b},true`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.sheets![0]!.locationCount).toBe(1);
    await call(t.app, 'counts/sheet/cancel', { sheetId: ok.body.sheets![0]!._id }, admin);

    const unknown = await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', locations: ['NOPE-9', '__proto__'], days: 3 }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.err?.message).toBe("No location 'NOPE-9', '__proto__' in warehouse 'MAIN'");
    for (const days of [0, -1, 1.5, 100_000, '7'])
      expect((await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', days }, admin)).status).toBe(400);
    expect((await call(t.app, 'counts/frequency/put', { ...ACME_BASE, warehouse: 'MAIN', days: 3 }, acme)).status).toBe(404);
    expect((await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', days: 3 }, clerk)).status).toBeLessThan(500);
    await call(t.app, 'counts/frequency/put', { warehouse: 'MAIN', days: null }, admin);
  });
});

describe('the review chart', () => {
  it('sums overages and shortages per location, the largest absolute variance first, excluded lines left out', async () => {
    const [a, b, c] = await places([1, 2, 3]);
    const sa = await receive(a!, 10);
    const sb1 = await receive(b!, 10);
    const sb2 = await receive(b!, 10);
    const sc = await receive(c!, 10);
    const sheet = await sheetFor({ locations: [a, b, c] });
    const count = (location: string, stockId: string, qty: number) =>
      call(t.app, 'counts/record', { idempotencyKey: key(), sheetId: sheet._id, location, stockId, qty }, clerk);
    await count(a!, sa, 9);
    await count(b!, sb1, 15);
    await count(b!, sb2, 7);
    await count(c!, sc, 10);
    await call(t.app, 'counts/sheet/submit', { sheetId: sheet._id }, clerk);
    const r = await call(t.app, 'counts/review', { sheetId: sheet._id }, admin);
    expect(r.body.byLocation).toEqual([
      { location: b, over: 5, short: -3 },
      { location: a, over: 0, short: -1 },
    ]);
    const lineB1 = r.body.lines!.find((l) => l.stockId === sb1)!;
    await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'exclude', lineIds: [lineB1.lineId] }, admin);
    expect((await call(t.app, 'counts/review', { sheetId: sheet._id }, admin)).body.byLocation).toEqual([
      { location: b, over: 0, short: -3 },
      { location: a, over: 0, short: -1 },
    ]);
    await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin);
  });
});
