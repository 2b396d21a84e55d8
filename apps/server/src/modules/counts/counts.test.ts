import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { calls, type CallPath } from '@floorhand/contract/api';
import { postRefusalSchema, type Sheet } from '@floorhand/contract/counts';
import { ACME_BASE, DEMO_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { pdfTexts } from '../../test/pdf-text.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let third: string;
/** The demo's supervisor: reviews and posts (physicalInventory.post), counts nothing in these tests unless told. */
let supervisor: string;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  third = await tokenFor(t.app, 'tcadmin');
  supervisor = await tokenFor(t.app, 'super');
  acme = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

type Body = Record<string, unknown>;
const key = () => randomUUID();
const rows = async (q: SQL) => ((await t.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

let n = 0;
let PART = '';
let SERIAL_PART = '';
let LOT_PART = '';
beforeAll(async () => {
  const found = (await rows(
    sql`SELECT DISTINCT ON (tracking) tracking, part_number FROM items WHERE org_id = 'demo' AND active AND uom = 'EA' ORDER BY tracking, part_number`,
  )) as Array<{
    tracking: string;
    part_number: string;
  }>;
  PART = found.find((r) => r.tracking === 'none')!.part_number;
  SERIAL_PART = found.find((r) => r.tracking === 'serial')!.part_number;
  LOT_PART = found.find((r) => r.tracking === 'lot')!.part_number;
});

/** Fresh locations of MAIN (P-<n>-1 … P-<n>-count) for one test. */
async function places(count = 2): Promise<string[]> {
  n += 1;
  const codes = Array.from({ length: count }, (_, i) => `PI-${n}${Date.now() % 100000}-${i + 1}`);
  for (const code of codes) {
    const res = await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code, description: 'Count test', type: 'bin' } }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return codes;
}

async function receive(location: string, quantity: number | string, extra: Body = {}): Promise<string> {
  const res = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: key(), record: { partNumber: PART, warehouse: 'MAIN', location, quantity, ...extra } },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.stock!.stockId;
}

const qtyOf = async (stockId: string) =>
  Number((await rows(sql`SELECT quantity::text AS q FROM stock_records WHERE stock_id = ${stockId}`))[0]?.q);

async function sheetFor(locations: string[], extra: Body = {}, token = admin): Promise<Sheet> {
  const res = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations, ...extra }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sheet!;
}

/**
 * Every answer outside the count screens that shows the stock of a location (or of a record in it):
 * stock/lookup by location and by stock id, stock/get, location/get, location/list, item/get and the
 * stock CSV export (its text).
 */
async function stockReads(location: string, stockId: string, token: string): Promise<unknown[]> {
  const csv = await t.app.inject({
    method: 'POST',
    url: '/api/export/csv',
    headers: { authorization: `Bearer ${token}` },
    payload: { ...DEMO_BASE, entity: 'stock', warehouse: 'MAIN' },
  });
  expect(csv.statusCode).toBe(200);
  return [
    (await call(t.app, 'stock/lookup', { value: location }, token)).body,
    (await call(t.app, 'stock/lookup', { value: stockId }, token)).body,
    (await call(t.app, 'stock/get', { stockId }, token)).body,
    (await call(t.app, 'location/get', { warehouse: 'MAIN', code: location }, token)).body,
    (await call(t.app, 'location/list', { warehouse: 'MAIN', search: location }, token)).body,
    (await call(t.app, 'item/get', { partNumber: PART }, token)).body,
    csv.body.split('\n').filter((l) => l.includes(stockId)),
  ];
}

const showsQty = (a: unknown, qty: number) => new RegExp(`(^|[^0-9])${qty}([^0-9]|$)`).test(JSON.stringify(a));
/** Every stock read shows the quantity (item/get sums per warehouse: it lists MAIN). */
async function expectShown(location: string, stockId: string, token: string, qty: number) {
  const reads = await stockReads(location, stockId, token);
  reads.forEach((a, i) => {
    if (i === 5) expect((a as { stock?: Array<{ warehouse: string }> }).stock?.map((s) => s.warehouse)).toContain('MAIN');
    else expect(showsQty(a, qty), JSON.stringify(a)).toBe(true);
  });
}
/** No stock read shows it (item/get leaves MAIN out: its sum would tell). */
async function expectHidden(location: string, stockId: string, token: string, qty: number) {
  const reads = await stockReads(location, stockId, token);
  for (const a of reads) expect(showsQty(a, qty), JSON.stringify(a)).toBe(false);
  expect((reads[5] as { stock?: Array<{ warehouse: string }> }).stock?.map((s) => s.warehouse)).not.toContain('MAIN');
}

const count = (sheet: Sheet, location: string, body: Body, token = clerk) =>
  call(t.app, 'counts/record', { idempotencyKey: key(), sheetId: sheet._id, location, ...body }, token);
const submit = (sheet: Sheet, token = clerk) => call(t.app, 'counts/sheet/submit', { sheetId: sheet._id }, token);
const review = (sheet: Sheet, extra: Body = {}, token = admin) =>
  call(t.app, 'counts/review', { sheetId: sheet._id, limit: 1000, ...extra }, token);
const post = (sheet: Sheet, idempotencyKey = key(), token = admin) =>
  call(t.app, 'counts/post', { idempotencyKey, sheetId: sheet._id }, token);
const adjust = (stockId: string, qty: number) =>
  call(t.app, 'stock/adjust', { idempotencyKey: key(), stockId, deltaType: 'delta', qty, reason: 'Found' }, admin);

describe('count sheets', () => {
  it('goes open → counting → review → posted, and refuses the wrong transitions', async () => {
    const locs = await places(1);
    const sheet = await sheetFor(locs, { description: 'Aisle test' });
    expect(sheet).toMatchObject({
      state: 'open',
      warehouse: 'MAIN',
      blind: true,
      locationCount: 1,
      lineCount: 0,
      description: 'Aisle test',
    });
    expect(sheet.code).toMatch(/^CS\d{6}$/);
    expect((await submit(sheet)).status).toBe(409);
    const started = await call(t.app, 'counts/sheet/start', { sheetId: sheet._id }, clerk);
    expect(started.body.sheet?.state).toBe('counting');
    expect((await call(t.app, 'counts/sheet/start', { sheetId: sheet._id }, clerk)).status).toBe(409);
    expect((await submit(sheet)).body.sheet?.state).toBe('review');
    const posted = await post(sheet);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.sheet?.state).toBe('posted');
    expect((await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin)).status).toBe(409);
  });

  it('takes a range of locations, lists by the preference filters, and cancels', async () => {
    const locs = await places(3);
    const sheet = await sheetFor([], { locations: undefined, fromLocation: locs[0], toLocation: locs[1], assignees: ['clerk'] });
    expect(sheet.locationCount).toBe(2);
    expect(sheet.assignees).toEqual(['clerk']);
    const mine = await call(
      t.app,
      'counts/sheet/list',
      { filterSheetSelf: true, filterSheetOpen: true, warehouse: 'MAIN', fromDate: new Date().toISOString().slice(0, 10) },
      clerk,
    );
    expect(mine.body.sheets?.map((s) => s.code)).toContain(sheet.code);
    const theirs = await call(t.app, 'counts/sheet/list', { filterSheetSelf: true }, admin);
    expect(theirs.body.sheets?.map((s) => s.code)).not.toContain(sheet.code);
    expect((await call(t.app, 'counts/sheet/list', { sheet: sheet.code }, clerk)).body.sheets?.map((s) => s.code)).toEqual([sheet.code]);
    expect((await call(t.app, 'counts/sheet/list', { fromDate: '2999-01-01' }, clerk)).body.sheets).toEqual([]);
    // Only the assignee counts on an assigned sheet.
    const other = await count(sheet, locs[0]!, { stockId: 'NOPE', partNumber: PART, qty: 1 }, third);
    expect(other.status).toBe(403);
    expect((await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin)).body.sheet?.state).toBe('cancelled');
    expect((await call(t.app, 'counts/sheet/list', { filterSheetOpen: true, sheet: sheet.code }, clerk)).body.sheets).toEqual([]);
  });

  it('reports every unknown location and account at once', async () => {
    const res = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', locations: ['NOPE-1', 'NOPE-2'] }, admin);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain("'NOPE-1', 'NOPE-2'");
    const who = await call(t.app, 'counts/sheet/create', { warehouse: 'MAIN', assignees: ['ghost', 'nobody'] }, admin);
    expect(who.body.err?.message).toContain("'ghost', 'nobody'");
    expect((await call(t.app, 'counts/sheet/create', { warehouse: 'NOWHERE' }, admin)).status).toBe(400);
  });
});

describe('counting', () => {
  it('never gives a blind counter the expected quantity, in any answer', async () => {
    const locs = await places(1);
    const stockId = await receive(locs[0]!, 9173);
    const sheet = await sheetFor(locs);
    const answers: unknown[] = [];
    answers.push((await call(t.app, 'counts/scanLocation', { sheetId: sheet._id, location: locs[0] }, clerk)).body);
    answers.push((await count(sheet, locs[0]!, { stockId, qty: 30 })).body);
    answers.push((await call(t.app, 'counts/sheet/get', { sheetId: sheet._id, location: locs[0] }, clerk)).body);
    answers.push((await call(t.app, 'counts/sheet/list', { sheet: sheet.code }, clerk)).body);
    answers.push((await call(t.app, 'counts/export', { sheetId: sheet._id }, clerk)).body);
    // Review (the only answer with system quantities) is refused while counting.
    const early = await review(sheet);
    expect(early.status).toBe(409);
    answers.push(early.body);
    // Nor does any stock read outside the work area while the sheet is counted (counts/blind.ts).
    const blindReads = await stockReads(locs[0]!, stockId, clerk);
    answers.push(...blindReads);
    for (const a of answers) {
      const text = JSON.stringify(a);
      expect(text).not.toMatch(/(^|[^0-9])9173([^0-9]|$)/);
      expect(text).not.toContain('expected');
      expect(text).not.toContain('systemQty');
    }
    const [lookup, byStockId, got, where] = blindReads as Array<{
      groups?: unknown[];
      blind?: Array<{ location: string; sheet: string; message: string }>;
      err?: { message: string };
    }>;
    expect(lookup!.groups).toEqual([]);
    expect(lookup!.blind).toEqual([expect.objectContaining({ location: locs[0], sheet: sheet.code })]);
    expect(lookup!.blind![0]!.message).toBe(
      `Stock in MAIN/${locs[0]} is being counted blind (count sheet ${sheet.code}); quantities are hidden until the count is in review`,
    );
    expect(byStockId!.groups).toEqual([]);
    expect(got!.err?.message).toBe(lookup!.blind![0]!.message);
    expect(where!.err?.message).toBe(lookup!.blind![0]!.message);
    expect((blindReads[5] as { stock?: Array<{ warehouse: string }> }).stock?.map((s) => s.warehouse)).not.toContain('MAIN');
    // Someone who does not count it (a reviewer) sees the quantity everywhere.
    await expectShown(locs[0]!, stockId, admin, 9173);
    // In review the counter sees it again.
    expect((await submit(sheet)).status).toBe(200);
    await expectShown(locs[0]!, stockId, clerk, 9173);
    // The same sheet not blind shows it.
    const open = await sheetFor(locs, { blind: false });
    const seen = await count(open, locs[0]!, { stockId, qty: 30 });
    expect(seen.body.line?.expected).toBe(9173);
    await call(t.app, 'counts/sheet/cancel', { sheetId: open._id }, admin);
    await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin);
  });

  it('hides stock from a named counter before any count, refuses their stock changes and labels there, and hides a blind recount again', async () => {
    const locs = await places(1);
    const stockId = await receive(locs[0]!, 4327);
    const sheet = await sheetFor(locs, { assignees: ['clerk'] });
    // A named counter is blind from the sheet's creation on, before scanning anything.
    await expectHidden(locs[0]!, stockId, clerk, 4327);
    const message = `Stock in MAIN/${locs[0]} is being counted blind (count sheet ${sheet.code}); quantities are hidden until the count is in review`;
    // A change or a label of the record would answer with its quantity: refused, and nothing changes.
    const adjusted = await call(
      t.app,
      'stock/adjust',
      { idempotencyKey: key(), stockId, deltaType: 'delta', qty: 1, reason: 'Found' },
      clerk,
    );
    expect(adjusted.status).toBe(403);
    expect(adjusted.body.err?.message).toBe(message);
    expect(await qtyOf(stockId)).toBe(4327);
    const label = await call(t.app, 'label/render', { kind: 'stock', source: { stockIds: [stockId] } }, clerk);
    expect(label.status).toBe(403);
    expect(label.body.err?.message).toBe(message);
    // Not the counter: sees it.
    await expectShown(locs[0]!, stockId, admin, 4327);
    expect((await count(sheet, locs[0]!, { stockId, qty: 1 })).status).toBe(200);
    expect((await submit(sheet)).status).toBe(200);
    await expectShown(locs[0]!, stockId, clerk, 4327);
    // Sent to a blind recount: hidden again from the sheet's counters, not from the reviewer.
    const lines = (await review(sheet)).body.lines!;
    expect(
      (await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'recount', lineIds: lines.map((l) => l.lineId) }, admin)).status,
    ).toBe(200);
    await expectHidden(locs[0]!, stockId, clerk, 4327);
    await expectShown(locs[0]!, stockId, admin, 4327);
    expect((await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, admin)).status).toBe(200);
    await expectShown(locs[0]!, stockId, clerk, 4327);
  });

  it('keeps a recount blind to whoever may recount it, on a sheet that is not blind too: review, export, sheet, PDF and every stock read', async () => {
    const locs = await places(1);
    const stockId = await receive(locs[0]!, 6151);
    const sheet = await sheetFor(locs, { blind: false });
    expect((await count(sheet, locs[0]!, { stockId, qty: 5999 })).status).toBe(200);
    expect((await submit(sheet)).status).toBe(200);
    const [line] = (await review(sheet, {}, supervisor)).body.lines!;
    expect(line).toMatchObject({ systemQty: 6151, counted: 5999 });
    expect(
      (await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'recount', lineIds: [line!.lineId] }, supervisor)).status,
    ).toBe(200);
    // The third account never counted it and may count but not review: it may be the recounter, so it
    // sees neither figure anywhere, before its first scan.
    const figures = /(^|[^0-9])(6151|5999)([^0-9]|$)/;
    await expectHidden(locs[0]!, stockId, third, 6151);
    const lookup = (await call(t.app, 'stock/lookup', { value: locs[0] }, third)).body;
    expect(lookup.blind?.[0]?.message).toBe(
      `Stock in MAIN/${locs[0]} is due for a blind recount (count sheet ${sheet.code}); quantities are hidden from its recounters until it is recounted`,
    );
    const seen = [
      (await call(t.app, 'counts/sheet/get', { sheetId: sheet._id, location: locs[0] }, third)).body,
      (await call(t.app, 'counts/export', { sheetId: sheet._id }, third)).body,
      (await review(sheet, {}, third)).body,
    ];
    for (const a of seen) expect(JSON.stringify(a)).not.toMatch(figures);
    expect(JSON.stringify(seen[0])).not.toContain('expected');
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/counts/sheet/pdf',
      headers: { authorization: `Bearer ${third}` },
      payload: { ...DEMO_BASE, sheetId: sheet._id },
    });
    expect(pdf.statusCode).toBe(200);
    const printed = (await pdfTexts(pdf.rawPayload)).join('\n');
    expect(printed).not.toMatch(figures);
    expect(printed).toContain(locs[0]!);
    // The first counter: the same (and may not recount it).
    await expectHidden(locs[0]!, stockId, clerk, 6151);
    expect((await count(sheet, locs[0]!, { stockId, qty: 1 }, clerk)).status).toBe(403);
    // The reviewer who counts nothing sees both.
    await expectShown(locs[0]!, stockId, supervisor, 6151);
    expect((await call(t.app, 'counts/export', { sheetId: sheet._id }, supervisor)).body.csv).toMatch(/,6151,5999,/);
    // Recounted: shown again to everyone.
    expect((await count(sheet, locs[0]!, { stockId, qty: 6150 }, third)).status).toBe(200);
    await expectShown(locs[0]!, stockId, third, 6151);
    expect((await review(sheet, {}, supervisor)).body.lines![0]).toMatchObject({ status: 'counted', counted: 6150, round: 2 });
    expect((await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, supervisor)).status).toBe(200);
  });

  it("closes review to a reviewer who counted a line now due for recount, and gives them the counter's export", async () => {
    const locs = await places(1);
    const stockId = await receive(locs[0]!, 7717);
    const sheet = await sheetFor(locs, { assignees: ['admin', 'tcadmin'] });
    expect((await count(sheet, locs[0]!, { stockId, qty: 7001 }, admin)).status).toBe(200);
    expect((await submit(sheet, admin)).status).toBe(200);
    const [line] = (await review(sheet)).body.lines!;
    expect((await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'recount', lineIds: [line!.lineId] }, admin)).status).toBe(
      200,
    );
    expect((await review(sheet)).status).toBe(403);
    const exported = (await call(t.app, 'counts/export', { sheetId: sheet._id }, admin)).body;
    expect(exported.fileName).toBe(`${sheet.code}.csv`);
    expect(exported.csv).not.toMatch(/(^|[^0-9])(7717|7001)([^0-9]|$)/);
    await expectHidden(locs[0]!, stockId, admin, 7717);
    // A reviewer who is not a named counter reviews.
    expect((await review(sheet, {}, supervisor)).status).toBe(200);
    expect((await call(t.app, 'counts/sheet/cancel', { sheetId: sheet._id }, supervisor)).status).toBe(200);
  });

  it('records found stock, counts a serial scanned twice once, and refuses or flags a serial above 1', async () => {
    const locs = await places(2);
    const sheet = await sheetFor(locs);
    const found = await count(sheet, locs[0]!, { stockId: `FOUND-${Date.now()}`, partNumber: PART, qty: 4 });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.line).toMatchObject({ found: true, myCount: 4, partNumber: PART });
    expect((await count(sheet, locs[0]!, { stockId: 'UNKNOWN-LABEL', qty: 1 })).body.err?.message).toContain('give its part number');
    expect((await count(sheet, locs[0]!, { partNumber: LOT_PART, qty: 1 })).body.err?.message).toContain("'Lot' must be provided");

    const serial = `SN-${Date.now()}`;
    const first = await count(sheet, locs[1]!, { partNumber: SERIAL_PART, serial });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.line?.myCount).toBe(1);
    const again = await count(sheet, locs[1]!, { partNumber: SERIAL_PART, serial });
    expect(again.body.duplicate).toBe(true);
    const lines = (await call(t.app, 'counts/sheet/get', { sheetId: sheet._id, location: locs[1] }, clerk)).body.lines!;
    expect(lines).toHaveLength(1);

    const two = await count(sheet, locs[1]!, { partNumber: SERIAL_PART, serial, qty: 2 });
    expect(two.status).toBe(400);
    expect(two.body.err?.message).toBe('A serial-tracked count cannot be above 1');
    const flagged = await count(sheet, locs[1]!, { partNumber: SERIAL_PART, serial, qty: 2, allowSwsgt1: true });
    expect(flagged.status).toBe(200);
    expect((await submit(sheet)).status).toBe(200);
    const r = await review(sheet);
    expect(r.body.lines?.find((l) => l.serial === serial)?.flags).toContain('serialOver1');
    // The flagged line blocks the post until it is excluded.
    const refused = await post(sheet);
    expect(refused.status).toBe(400);
    const line = r.body.lines!.find((l) => l.serial === serial)!;
    await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'exclude', lineIds: [line.lineId] }, admin);
    const posted = await post(sheet);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.created).toBe(1);
    const made = await rows(
      sql`SELECT sr.quantity::text AS q, m.type, m.reason FROM stock_records sr JOIN movements m ON m.stock_record_id = sr.id WHERE sr.stock_id = ${found.body.line!.stockId}`,
    );
    expect(made).toEqual([{ q: '4.0000', type: 'count', reason: 'physical count' }]);
  });

  it('merges several counters without loss and flags a disagreement for recount', async () => {
    const locs = await places(2);
    const a = await receive(locs[0]!, 10);
    const b = await receive(locs[1]!, 5);
    const c = await receive(locs[1]!, 7);
    const sheet = await sheetFor(locs);
    await Promise.all([
      count(sheet, locs[0]!, { stockId: a, qty: 10 }, clerk),
      count(sheet, locs[1]!, { stockId: b, qty: 5 }, admin),
      count(sheet, locs[1]!, { stockId: c, qty: 6 }, third),
    ]);
    // Two counters disagree on c.
    await count(sheet, locs[1]!, { stockId: c, qty: 7 }, clerk);
    expect((await submit(sheet)).status).toBe(200);
    // The admin counted a line: may recount c, so the review (which shows its figures) is closed to them.
    const closed = await review(sheet);
    expect(closed.status).toBe(403);
    expect(closed.body.err?.message).toBe(
      `You may recount a location of the count sheet ${sheet.code} (${locs[1]}); its review is closed to you until they are recounted`,
    );
    const r = await review(sheet, {}, supervisor);
    expect(r.body.summary).toMatchObject({ lines: 3, recount: 1 });
    const lineC = r.body.lines!.find((l) => l.stockId === c)!;
    expect(lineC).toMatchObject({ status: 'recount', flags: ['disputed'] });
    const entries = await rows(
      sql`SELECT count(*)::int AS n FROM count_entries e JOIN count_lines l ON l.id = e.line_id WHERE l.sheet_id = ${sheet._id}`,
    );
    expect(entries[0]!.n).toBe(4);
    // The last counter may not recount; another does, blind.
    expect((await count(sheet, locs[1]!, { stockId: c, qty: 7 }, clerk)).status).toBe(403);
    const recount = await count(sheet, locs[1]!, { stockId: c, qty: 7 }, third);
    expect(recount.status, JSON.stringify(recount.body)).toBe(200);
    expect(JSON.stringify(recount.body)).not.toContain('expected');
    const after = await review(sheet);
    expect(after.status).toBe(200);
    expect(after.body.lines!.find((l) => l.stockId === c)).toMatchObject({ status: 'counted', counted: 7, round: 2 });
    expect((await post(sheet)).status).toBe(200);
    expect([await qtyOf(a), await qtyOf(b), await qtyOf(c)]).toEqual([10, 5, 7]);
  });

  it('counts expected stock of a scanned location that nobody found as 0', async () => {
    const locs = await places(2);
    const seen = await receive(locs[0]!, 3);
    const missing = await receive(locs[0]!, 2);
    const unvisited = await receive(locs[1]!, 9);
    const sheet = await sheetFor(locs);
    await count(sheet, locs[0]!, { stockId: seen, qty: 3 });
    await submit(sheet);
    const r = await review(sheet);
    expect(r.body.summary).toMatchObject({ lines: 2, uncountedLocations: 1 });
    expect(r.body.lines!.find((l) => l.stockId === missing)).toMatchObject({
      notFound: true,
      systemQty: 2,
      counted: 0,
      variance: -2,
      variancePct: -100,
    });
    expect((await post(sheet)).status).toBe(200);
    expect([await qtyOf(seen), await qtyOf(missing), await qtyOf(unvisited)]).toEqual([3, 0, 9]);
  });

  it('moves stock counted in another location of the warehouse to where it was found', async () => {
    const locs = await places(2);
    const s = await receive(locs[0]!, 6);
    const sheet = await sheetFor([locs[1]!]);
    const res = await count(sheet, locs[1]!, { stockId: s, qty: 6 });
    expect(res.body.line?.found).toBe(true);
    await submit(sheet);
    expect((await post(sheet)).status).toBe(200);
    const [row] = await rows(
      sql`SELECT l.code, sr.quantity::text AS q FROM stock_records sr JOIN locations l ON l.id = sr.location_id WHERE sr.stock_id = ${s}`,
    );
    expect(row).toEqual({ code: locs[1], q: '6.0000' });
  });
});

describe('posting', () => {
  it('books counted minus the system quantity at the scan, so movements after the scan carry through', async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 10);
    const sheet = await sheetFor(locs);
    await count(sheet, locs[0]!, { stockId: s, qty: 8 });
    // 3 are picked after the scan: the count (8 of the 10 then) says 2 are missing; 10 - 3 - 2 = 5.
    expect((await adjust(s, -3)).status).toBe(200);
    await submit(sheet);
    const r = await review(sheet);
    expect(r.body.lines![0]).toMatchObject({ systemQty: 10, counted: 8, variance: -2, variancePct: -20, movedSince: true });
    expect(r.body.summary?.movedSince).toBe(1);
    const posted = await post(sheet);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(await qtyOf(s)).toBe(5);
    const [m] = await rows(
      sql`SELECT m.type, m.qty_delta::text AS d, m.reason FROM movements m JOIN stock_records sr ON sr.id = m.stock_record_id WHERE sr.stock_id = ${s} ORDER BY m.id DESC LIMIT 1`,
    );
    expect(m).toEqual({ type: 'count', d: '-2.0000', reason: 'physical count' });
  });

  it('zeroes as not found only stock that was in the location when it was counted: stock that arrives later is left alone', async () => {
    const locs = await places(2);
    const there = await receive(locs[0]!, 5);
    const elsewhere = await receive(locs[1]!, 3);
    const sheet = await sheetFor([locs[0]!]);
    expect((await call(t.app, 'counts/scanLocation', { sheetId: sheet._id, location: locs[0] }, clerk)).status).toBe(200);
    // After the location was counted: a new record is received into it, another is moved in.
    const late = await receive(locs[0]!, 7);
    expect((await call(t.app, 'stock/move', { idempotencyKey: key(), stockId: elsewhere, toLocation: locs[0] }, admin)).status).toBe(200);
    expect((await submit(sheet)).status).toBe(200);
    const r = await review(sheet);
    expect(r.body.lines!.map((l) => [l.stockId, l.notFound])).toEqual([[there, true]]);
    expect(r.body.summary).toMatchObject({ lines: 1, netVariance: -5 });
    const posted = await post(sheet);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.movements).toBe(1);
    expect([await qtyOf(there), await qtyOf(late), await qtyOf(elsewhere)]).toEqual([0, 7, 3]);
  });

  it('leaves a counted record where it is now and corrects only its quantity; the review says where it is', async () => {
    const locs = await places(3);
    const counted = await receive(locs[0]!, 6);
    const found = await receive(locs[2]!, 4);
    const sheet = await sheetFor([locs[0]!, locs[1]!]);
    expect((await count(sheet, locs[0]!, { stockId: counted, qty: 5 })).status).toBe(200);
    // Recorded in the third location, found in the second: a found-elsewhere line.
    expect((await count(sheet, locs[1]!, { stockId: found, qty: 4 })).body.line?.found).toBe(true);
    // Both are moved whole after their scans: the counted one to the second location, the found one to the first.
    expect((await call(t.app, 'stock/move', { idempotencyKey: key(), stockId: counted, toLocation: locs[1] }, admin)).status).toBe(200);
    expect((await call(t.app, 'stock/move', { idempotencyKey: key(), stockId: found, toLocation: locs[0] }, admin)).status).toBe(200);
    await submit(sheet);
    const r = await review(sheet);
    expect(r.body.lines!.find((l) => l.stockId === counted)).toMatchObject({
      location: locs[0],
      locationNow: locs[1],
      variance: -1,
      movedSince: true,
    });
    expect(r.body.lines!.find((l) => l.stockId === found)).toMatchObject({
      location: locs[1],
      locationNow: locs[0],
      variance: 0,
      movedSince: true,
      found: true,
    });
    // The variance export says so too.
    const csv = (await call(t.app, 'counts/export', { sheetId: sheet._id }, admin)).body.csv!.trim().split('\r\n');
    expect(csv[0]).toContain(',movedSince,locationNow,flags,');
    expect(csv.find((l) => l.includes(counted))).toContain(`,true,${locs[1]},`);
    const posted = await post(sheet);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.movements).toBe(1);
    const where = async (stockId: string) =>
      (
        await rows(
          sql`SELECT l.code, sr.quantity::text AS q FROM stock_records sr JOIN locations l ON l.id = sr.location_id WHERE sr.stock_id = ${stockId}`,
        )
      )[0];
    expect(await where(counted)).toEqual({ code: locs[1], q: '5.0000' });
    expect(await where(found)).toEqual({ code: locs[0], q: '4.0000' });
    const [m] = await rows(
      sql`SELECT m.type, m.qty_delta::text AS d, fl.code AS from_code, tl.code AS to_code FROM movements m JOIN stock_records sr ON sr.id = m.stock_record_id
      JOIN locations fl ON fl.id = m.from_location_id JOIN locations tl ON tl.id = m.to_location_id WHERE sr.stock_id = ${counted} ORDER BY m.id DESC LIMIT 1`,
    );
    expect(m).toEqual({ type: 'count', d: '-1.0000', from_code: locs[1], to_code: locs[1] });
  });

  it('posts once: a retry answers the same, another key is refused, nothing is booked twice', async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 4);
    const sheet = await sheetFor(locs);
    await count(sheet, locs[0]!, { stockId: s, qty: 6 });
    await submit(sheet);
    const k = key();
    const first = await post(sheet, k);
    const retry = await post(sheet, k);
    expect(retry.body).toEqual(first.body);
    expect((await post(sheet)).status).toBe(409);
    expect(await qtyOf(s)).toBe(6);
  });

  it('reports every invalid line in one answer and books nothing', async () => {
    const locs = await places(1);
    const ids = [await receive(locs[0]!, 5), await receive(locs[0]!, 5), await receive(locs[0]!, 5)];
    const sheet = await sheetFor(locs);
    for (const id of ids) await count(sheet, locs[0]!, { stockId: id, qty: 1 });
    // Each loses all 5 after the scan: booking -4 would go below zero.
    for (const id of ids.slice(0, 2)) expect((await adjust(id, -5)).status).toBe(200);
    await submit(sheet);
    const res = await post(sheet);
    expect(res.status).toBe(400);
    const detail = postRefusalSchema.parse(JSON.parse(res.body.err!.detail!));
    expect(detail.invalid.map((l) => l.stockId).sort()).toEqual(ids.slice(0, 2).sort());
    expect(res.body.err?.message).toMatch(/^2 lines cannot be posted/);
    expect(await qtyOf(ids[2]!)).toBe(5);
    expect((await review(sheet)).body.sheet?.state).toBe('review');
  });

  it('sends lines over the warehouse threshold to a blind recount by another counter', async () => {
    const put = await call(t.app, 'counts/threshold/put', { warehouse: 'MAIN', maxQty: 5, maxPct: 50 }, admin);
    expect(put.body.threshold).toEqual({ warehouse: 'MAIN', maxQty: 5, maxPct: 50 });
    try {
      const locs = await places(1);
      const small = await receive(locs[0]!, 100);
      const big = await receive(locs[0]!, 100);
      const sheet = await sheetFor(locs);
      await count(sheet, locs[0]!, { stockId: small, qty: 97 });
      await count(sheet, locs[0]!, { stockId: big, qty: 80 });
      await submit(sheet);
      const r = await review(sheet, { onlyVariances: true });
      expect(r.body.lines!.find((l) => l.stockId === big)).toMatchObject({ status: 'recount', flags: ['overThreshold'] });
      expect(r.body.lines!.find((l) => l.stockId === small)).toMatchObject({ status: 'counted' });
      // Accept cannot approve a line due for recount; post refuses it.
      expect((await call(t.app, 'counts/decide', { sheetId: sheet._id, decision: 'accept', all: true }, admin)).body.changed).toBe(1);
      expect((await post(sheet)).status).toBe(400);
      const view = await call(t.app, 'counts/sheet/get', { sheetId: sheet._id, location: locs[0] }, third);
      expect(view.body.lines!.find((l) => l.stockId === big)).toMatchObject({ status: 'recount', myCount: null });
      expect(JSON.stringify(view.body)).not.toContain('expected');
      expect((await count(sheet, locs[0]!, { stockId: big, qty: 81 }, third)).status).toBe(200);
      expect((await post(sheet)).status).toBe(200);
      expect([await qtyOf(small), await qtyOf(big)]).toEqual([97, 81]);
    } finally {
      await call(t.app, 'counts/threshold/put', { warehouse: 'MAIN', maxQty: null, maxPct: null }, admin);
    }
  });

  it('posts each count at once with adjustWithCount', async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 10);
    const sheet = await sheetFor(locs);
    const res = await count(sheet, locs[0]!, { stockId: s, qty: 12, adjustWithCount: true }, supervisor);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.posted).toBe(true);
    expect(await qtyOf(s)).toBe(12);
    await submit(sheet);
    expect((await post(sheet)).body.movements).toBe(0);
    expect(await qtyOf(s)).toBe(12);
  });

  it('exports the variances as CSV for a reviewer', async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 10);
    const sheet = await sheetFor(locs);
    await count(sheet, locs[0]!, { stockId: s, qty: 7 });
    await submit(sheet);
    const res = await call(t.app, 'counts/export', { sheetId: sheet._id }, admin);
    expect(res.body.fileName).toBe(`${sheet.code}-variances.csv`);
    const [head, line] = res.body.csv!.trim().split('\r\n');
    expect(head).toContain('systemQty,counted,variance,variancePct');
    expect(line).toContain(`${s},${PART}`);
    expect(line).toContain(',10,7,-3,-30,');
  });
});

describe('rights and other organisations', () => {
  it('separates counting from reviewing by default: a counter counts, and is refused review, posting and adjustWithCount', async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 10);
    const sheet = await sheetFor(locs);
    // The demo clerk has no role: Everyone's defaults, with physicalInventory.post None (an admin's or supervisor's job).
    const counter = clerk;
    {
      expect((await count(sheet, locs[0]!, { stockId: s, qty: 9 }, counter)).status).toBe(200);
      expect((await count(sheet, locs[0]!, { stockId: s, qty: 9, adjustWithCount: true }, counter)).status).toBe(403);
      expect((await submit(sheet, counter)).status).toBe(200);
      expect((await review(sheet, {}, counter)).status).toBe(403);
      expect((await post(sheet, key(), counter)).status).toBe(403);
      const exported = await call(t.app, 'counts/export', { sheetId: sheet._id }, counter);
      expect(exported.body.csv).not.toMatch(/(^|,)10(,|\r|$)/m);
      expect(exported.body.csv).not.toContain('systemQty');
      expect(await qtyOf(s)).toBe(10);
      for (const path of ['counts/sheet/create', 'counts/threshold/put', 'counts/frequency/put'] as const) {
        const refused = await call(t.app, path, { warehouse: 'MAIN', locations: locs, maxQty: 1, maxPct: 1, days: 1 }, counter);
        expect(refused.status, path).toBe(403);
      }
    }
    // The demo's supervisor role gives it: review and post.
    expect((await review(sheet, {}, supervisor)).status).toBe(200);
    expect((await post(sheet, key(), supervisor)).status).toBe(200);
    expect(await qtyOf(s)).toBe(9);
  });

  it('refuses kiosk and time-clock accounts', async () => {
    for (const user of ['kiosk', 'clock']) {
      const token = await tokenFor(t.app, user);
      expect((await call(t.app, 'counts/record', { idempotencyKey: key(), sheetId: 'x', location: 'A' }, token)).status).toBe(403);
    }
  });

  it("never shows or uses another organisation's sheets, stock or warehouses", async () => {
    const locs = await places(1);
    const s = await receive(locs[0]!, 10);
    const sheet = await sheetFor(locs);
    const acmeCall = (path: CallPath, body: Body) => call(t.app, path, { ...ACME_BASE, ...body }, acme);
    expect((await acmeCall('counts/sheet/get', { sheetId: sheet._id })).status).toBe(404);
    expect(
      (await acmeCall('counts/record', { idempotencyKey: key(), sheetId: sheet._id, location: locs[0], stockId: s, qty: 1 })).status,
    ).toBe(404);
    expect((await acmeCall('counts/post', { idempotencyKey: key(), sheetId: sheet._id })).status).toBe(404);
    expect((await acmeCall('counts/sheet/cancel', { sheetId: sheet._id })).status).toBe(404);
    expect((await call(t.app, 'counts/sheet/list', { ...ACME_BASE }, acme)).body.sheets).toEqual([]);
    expect((await acmeCall('counts/sheet/create', { warehouse: 'MAIN' })).status).toBe(400);
    // The demo's body with an acme token is refused before anything.
    expect((await call(t.app, 'counts/sheet/get', { sheetId: sheet._id }, acme)).status).toBe(403);
    // An acme sheet cannot count demo stock.
    await call(t.app, 'warehouse/save', { ...ACME_BASE, record: { code: 'AW', name: 'Acme W' } }, acme);
    await call(t.app, 'location/save', { ...ACME_BASE, record: { warehouse: 'AW', code: 'AL-1', description: 'x', type: 'bin' } }, acme);
    const acmeSheet = (await call(t.app, 'counts/sheet/create', { ...ACME_BASE, warehouse: 'AW' }, acme)).body.sheet;
    expect(acmeSheet, 'acme sheet').toBeDefined();
    const stolen = await acmeCall('counts/record', {
      idempotencyKey: key(),
      sheetId: acmeSheet!._id,
      location: 'AL-1',
      stockId: s,
      qty: 1,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.err?.message).toContain('give its part number');
    expect(await qtyOf(s)).toBe(10);
  });
});

describe('fuzz', () => {
  const weird = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
    fc.constant('__proto__'),
    fc.constant('constructor'),
  );
  const countPaths = (Object.keys(calls) as CallPath[]).filter((p) => p.startsWith('counts/'));
  it.each(countPaths)('%s never answers 500 to arbitrary input', async (path) => {
    const locs = await places(1);
    const sheet = await sheetFor(locs);
    const fields = [...Object.keys(calls[path].body.shape), 'extra'];
    const valid: Body = {
      idempotencyKey: key(),
      sheetId: sheet._id,
      location: locs[0],
      warehouse: 'MAIN',
      decision: 'accept',
      maxQty: 1,
      maxPct: 1,
    };
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), weird, { maxKeys: 3 }), async (overrides) => {
        const res = await call(t.app, path, { ...valid, idempotencyKey: key(), ...overrides }, admin);
        expect(res.status, JSON.stringify({ overrides, reply: res.body })).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.err).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: 25 },
    );
    await call(t.app, 'counts/threshold/put', { warehouse: 'MAIN', maxQty: null, maxPct: null }, admin);
  });
});
