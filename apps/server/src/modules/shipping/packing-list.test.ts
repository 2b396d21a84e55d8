import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LABEL_FIELDS } from '@floorhand/contract/labels';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, demoLogin } from '../../test/logins.ts';
import { ledgerMismatches } from '../../db/ledger-check.ts';

// The packing list of a package (package/packingList, a PDF from lib/pdf.ts) and the package label
// (label kind `package`) printed with it.

let t: TestApp;
let ada: string;
let acme: string;
let kiosk: string;
let PART = '';
let DESC = '';

const rows = async <T>(q: ReturnType<typeof sql>) => ((await t.db.execute(q)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  ada = (await demoLogin(t.app, 'admin')).token;
  kiosk = (await demoLogin(t.app, 'kiosk')).token;
  acme = await acmeAdminToken(t.app);
  [{ part_number: PART, description: DESC }] = (await rows<{ part_number: string; description: string }>(
    sql`SELECT part_number, description FROM items WHERE org_id = 'demo' AND active AND tracking = 'none' AND uom = 'EA' ORDER BY part_number LIMIT 1`,
  )) as [{ part_number: string; description: string }];
  const require = createRequire(import.meta.url);
  prepareZXingModule({
    overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer },
  });
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

/** The cells of a table row as the PDF writes them: consecutive strings of the text. */
const rowIn = (text: string, cells: string[]) => text.split('\n').some((_, i, all) => cells.every((c, j) => all[i + j] === c));

/** Every barcode in the PDF's images (the colour images pdf-lib embeds: deflated 8-bit RGB), decoded by ZXing. */
async function pdfBarcodes(bytes: Buffer): Promise<Array<[string, string]>> {
  const doc = await PDFDocument.load(bytes);
  const out: Array<[string, string]> = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    if (obj.dict.get(PDFName.of('ColorSpace')) !== PDFName.of('DeviceRGB')) continue;
    const width = (obj.dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
    const height = (obj.dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
    const rgb = inflateSync(Buffer.from(obj.contents));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) rgba.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, 255], i * 4);
    for (const r of await readBarcodes({ data: rgba, width, height, colorSpace: 'srgb' }, { formats: ['Code128', 'QRCode'] }))
      out.push([r.format, r.text]);
  }
  return out;
}

let n = 0;
/**
 * An order of two lines picked and packed into one package: line 1 (3 wanted) picked in two goes, so
 * from two stock records (2 and 1), line 2 (2 wanted) in one.
 */
async function packedPackage(shipTo: string | null = 'Größe & Söhne GmbH\nDock 4, Hafenstraße 12\n20457 Hamburg') {
  n += 1;
  const place = `PL-${String(n).padStart(3, '0')}-1`;
  expect((await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code: place, type: 'shelf' } }, ada)).status).toBe(200);
  const rec = await call(
    t.app,
    'stock/receive',
    { idempotencyKey: randomUUID(), record: { partNumber: PART, warehouse: 'MAIN', location: place, quantity: 10, lot: `LOT-${n}` } },
    ada,
  );
  const source = rec.body.stock!.stockId;
  const number = `PL-${Date.now()}-${n}`;
  const saved = await call(
    t.app,
    'order/save',
    {
      order: {
        type: 'sos',
        number,
        warehouse: 'MAIN',
        customer: 'Größe & Söhne',
        shipTo: shipTo ?? undefined,
        lines: [
          { lineNo: 1, partNumber: PART, qty: 3 },
          { lineNo: 2, partNumber: PART, qty: 2 },
        ],
      },
    },
    ada,
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const order = saved.body.order!;
  const picked: string[] = [];
  for (const [line, qty] of [
    [order.lines[0]!, 2],
    [order.lines[0]!, 1],
    [order.lines[1]!, 2],
  ] as const) {
    const res = await call(
      t.app,
      'pick/confirm',
      { idempotencyKey: randomUUID(), lineId: line._id, location: place, scan: source, qty },
      ada,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    picked.push(res.body.pick!.stockId);
  }
  const pkg = (
    await call(
      t.app,
      'package/save',
      {
        orderId: order._id,
        type: 'box',
        weight: '4.25',
        length: 40,
        width: 30,
        height: 20,
        carrier: 'UPS',
        service: 'Ground',
        tracking: '1Z999',
      },
      ada,
    )
  ).body.package!;
  for (const stockId of picked)
    expect((await call(t.app, 'package/pack', { idempotencyKey: randomUUID(), packageId: pkg._id, stockId }, ada)).status).toBe(200);
  return { order, pkg, picked };
}

describe('package/packingList', () => {
  it('answers a PDF of the package: its barcode, order, customer, ship-to address, package, carrier, and one row per order line with what of it is packed', async () => {
    const { order, pkg, picked } = await packedPackage();
    expect(order.shipTo).toBe('Größe & Söhne GmbH\nDock 4, Hafenstraße 12\n20457 Hamburg');
    const res = await call(t.app, 'package/packingList', { packageId: pkg._id }, ada);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.fileName).toBe(`packing-list-${pkg.packageNo}.pdf`);
    expect([res.body.records, res.body.lines]).toEqual([3, 2]);
    const bytes = Buffer.from(res.body.pdf!, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe(`Packing list ${pkg.packageNo}`);
    const text = pdfStrings(bytes);
    for (const expected of [
      `Order ${order.number} (SOS)`,
      'Customer: Größe & Söhne',
      'Ship to: Größe & Söhne GmbH',
      'Dock 4, Hafenstraße 12',
      '20457 Hamburg',
      `Package ${pkg.packageNo}: box, 4.25 kg, 40 x 30 x 20 cm`,
      'Carrier: UPS Ground, tracking 1Z999',
      '2 lines, 3 stock records packed.',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // One row per order line: line 1's two stock records (2 + 1) are one row of 3, of 3 ordered; no stock ids.
    expect(rowIn(text, ['1', PART, DESC, '3', '3', 'EA', `LOT-${n}`]), text).toBe(true);
    expect(rowIn(text, ['2', PART, DESC, '2', '2', 'EA', `LOT-${n}`]), text).toBe(true);
    expect(text.split('\n').filter((s) => s === PART)).toHaveLength(2);
    for (const stockId of picked) expect(text).not.toContain(stockId);
    // The package's barcode: a Code 128 of its number, as the package label has it.
    expect(await pdfBarcodes(bytes)).toEqual([['Code128', pkg.packageNo]]);
  });

  it('lists only what is in this package: a line split over two packages is in each with its own quantity; no address says so', async () => {
    const { order, pkg, picked } = await packedPackage(null);
    expect(order.shipTo).toBeNull();
    const second = (await call(t.app, 'package/save', { orderId: order._id, type: 'envelope' }, ada)).body.package!;
    // Line 1's record of 1 moves to the second package.
    expect(
      (await call(t.app, 'package/unpack', { idempotencyKey: randomUUID(), packageId: pkg._id, stockId: picked[1]! }, ada)).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'package/pack', { idempotencyKey: randomUUID(), packageId: second._id, stockId: picked[1]! }, ada)).status,
    ).toBe(200);
    const first = await call(t.app, 'package/packingList', { packageId: pkg._id }, ada);
    const firstText = pdfStrings(Buffer.from(first.body.pdf!, 'base64'));
    expect([first.body.records, first.body.lines]).toEqual([2, 2]);
    expect(rowIn(firstText, ['1', PART, DESC, '2', '3', 'EA']), firstText).toBe(true);
    expect(rowIn(firstText, ['2', PART, DESC, '2', '2', 'EA']), firstText).toBe(true);
    expect(firstText).toContain('Ship to: no address on the order');
    const other = await call(t.app, 'package/packingList', { packageId: second._id }, ada);
    const otherBytes = Buffer.from(other.body.pdf!, 'base64');
    const otherText = pdfStrings(otherBytes);
    expect([other.body.records, other.body.lines]).toEqual([1, 1]);
    expect(otherText).toContain('1 line, 1 stock record packed.');
    expect(otherText.split('\n').filter((s) => s === PART)).toHaveLength(1);
    expect(rowIn(otherText, ['1', PART, DESC, '1', '3', 'EA']), otherText).toBe(true);
    expect(await pdfBarcodes(otherBytes)).toEqual([['Code128', second.packageNo]]);
  });

  it("an empty package has a list that says so; an unknown or another organisation's package is not found; a kiosk is refused", async () => {
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
  it("is a label kind of its own with a default template, rendered from a package's fields", async () => {
    const list = await call(t.app, 'label/template/list', { kind: 'package' }, ada);
    expect(list.body.templates!.filter((x) => x.isDefault).map((x) => x.templateId)).toEqual(['package-4x6']);
    const { order, pkg } = await packedPackage();
    const row = {
      packageNo: pkg.packageNo,
      orderId: order.number,
      orderType: 'sos',
      customer: order.customer ?? '',
      warehouse: 'MAIN',
      packageType: 'box',
      weight: '4.25 kg',
      carrier: 'UPS',
      service: 'Ground',
      tracking: '1Z999',
      items: '2',
    };
    expect(Object.keys(row).every((k) => LABEL_FIELDS.get('package')!.has(k))).toBe(true);
    const res = await call(t.app, 'label/render', { kind: 'package', source: { rows: [row] } }, ada);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.labels).toBe(1);
    expect(Buffer.from(res.body.png!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // A stock label's field is not a package label's.
    const bad = await call(t.app, 'label/render', { kind: 'package', source: { rows: [{ stockId: 'S1' }] } }, ada);
    expect(bad.status).toBe(400);
    expect(bad.body.err?.message).toContain("Unknown field(s) for a package label: 'stockId'");
  });
});
