import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LABEL_FIELDS } from '@floorhand/contract/labels';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin } from '../../test/logins.ts';
import { ledgerMismatches } from '../stock/ledger-check.ts';

// The packing list of a package (package/packingList, a PDF from lib/pdf.ts) and the package label
// (label kind `package`) printed with it.

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
  PART = (await rows<{ part_number: string }>(sql`SELECT part_number FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT 1`))[0]!.part_number;
});
afterAll(() => t?.close());
afterEach(async () => {
  expect(await ledgerMismatches(t.db)).toEqual([]);
});

/** The text a PDF shows: its content streams inflated, the hex strings of the Tj operators decoded (WinAnsi, Latin-1 here). */
function pdfStrings(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let body: string;
    try {
      body = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      body = m[1]!;
    }
    for (const s of body.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) out.push(Buffer.from(s[1]!, 'hex').toString('latin1'));
    for (const s of body.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(s[1]!);
  }
  return out.join('\n');
}

let n = 0;
async function packedPackage() {
  n += 1;
  const place = `PL-${String(n).padStart(3, '0')}-1`;
  expect((await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code: place, type: 'shelf' } }, ada)).status).toBe(200);
  const rec = await call(t.app, 'stock/receive', { idempotencyKey: randomUUID(), record: { partNumber: PART, warehouse: 'MAIN', location: place, quantity: 10, lot: `LOT-${n}` } }, ada);
  const source = rec.body.stock!.stockId;
  const number = `PL-${Date.now()}-${n}`;
  const saved = await call(t.app, 'order/save', { order: { type: 'sos', number, warehouse: 'MAIN', customer: 'Größe & Söhne, Dock 4', lines: [{ lineNo: 1, partNumber: PART, qty: 3 }, { lineNo: 2, partNumber: PART, qty: 2 }] } }, ada);
  const order = saved.body.order!;
  const picked: string[] = [];
  for (const line of order.lines) {
    const res = await call(t.app, 'pick/confirm', { idempotencyKey: randomUUID(), lineId: line._id, location: place, scan: source, qty: line.qty }, ada);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    picked.push(res.body.pick!.stockId);
  }
  const pkg = (await call(t.app, 'package/save', { orderId: order._id, type: 'box', weight: '4.25', length: 40, width: 30, height: 20, carrier: 'UPS', service: 'Ground', tracking: '1Z999' }, ada)).body.package!;
  for (const stockId of picked) expect((await call(t.app, 'package/pack', { idempotencyKey: randomUUID(), packageId: pkg._id, stockId }, ada)).status).toBe(200);
  return { order, pkg, picked };
}

describe('package/packingList', () => {
  it('answers a PDF of the package: order, customer, package, carrier, and its lines with item, description, quantity and lot', async () => {
    const { order, pkg, picked } = await packedPackage();
    const res = await call(t.app, 'package/packingList', { packageId: pkg._id }, ada);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.fileName).toBe(`packing-list-${pkg.packageNo}.pdf`);
    expect(res.body.records).toBe(2);
    const bytes = Buffer.from(res.body.pdf!, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe(`Packing list ${pkg.packageNo}`);
    const text = pdfStrings(bytes);
    for (const expected of [`Order ${order.number} (SOS)`, 'Customer: Größe & Söhne, Dock 4', `Package ${pkg.packageNo}: box, 4.25 kg, 40 x 30 x 20 cm`, 'Carrier: UPS Ground, tracking 1Z999', PART, '3', '2', `LOT-${n}`, ...picked, '2 records packed.']) {
      expect(text, expected).toContain(expected);
    }
  });

  it('an empty package has a list that says so; an unknown or another organisation\'s package is not found; a kiosk is refused', async () => {
    const { order } = await packedPackage();
    const empty = (await call(t.app, 'package/save', { orderId: order._id, type: 'envelope' }, ada)).body.package!;
    const res = await call(t.app, 'package/packingList', { packageId: empty._id }, ada);
    expect(res.status).toBe(200);
    expect(res.body.records).toBe(0);
    expect(pdfStrings(Buffer.from(res.body.pdf!, 'base64'))).toContain('The package is empty.');
    expect((await call(t.app, 'package/packingList', { packageId: 'nope' }, ada)).status).toBe(404);
    expect((await call(t.app, 'package/packingList', { ...ACME_BASE, packageId: empty._id }, acme)).status).toBe(404);
    expect((await call(t.app, 'package/packingList', { packageId: empty._id }, kiosk)).status).toBe(403);
    expect((await call(t.app, 'package/packingList', { packageId: { __proto__: 'x' } } as never, ada)).status).toBe(400);
  });
});

describe('the package label', () => {
  it('is a label kind of its own with a default template, rendered from a package\'s fields', async () => {
    const list = await call(t.app, 'label/template/list', { kind: 'package' }, ada);
    expect(list.body.templates!.filter((x) => x.isDefault).map((x) => x.templateId)).toEqual(['package-4x6']);
    const { order, pkg } = await packedPackage();
    const row = { packageNo: pkg.packageNo, orderId: order.number, orderType: 'sos', customer: order.customer ?? '', warehouse: 'MAIN', packageType: 'box', weight: '4.25 kg', carrier: 'UPS', service: 'Ground', tracking: '1Z999', items: '2' };
    expect(Object.keys(row).every((k) => LABEL_FIELDS.get('package')!.has(k))).toBe(true);
    const res = await call(t.app, 'label/render', { kind: 'package', source: { rows: [row] } }, ada);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.labels).toBe(1);
    expect(Buffer.from(res.body.png!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // A stock label's field is not a package label's.
    const bad = await call(t.app, 'label/render', { kind: 'package', source: { rows: [{ stockId: 'S1' }] } }, ada);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain("Unknown field 'stockId' for a package label");
  });
});
