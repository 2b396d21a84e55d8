import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ERR } from '@floorhand/contract/errors';
import { PDFDocument } from 'pdf-lib';
import { LABEL_KINDS, LABELS_PER_PDF_MAX } from '@floorhand/contract/labels';
import { sql } from 'drizzle-orm';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { query } from '../../db/sql.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { ensureDefaultTemplates } from './service.ts';
import { createOrganisation } from '../../seed/demo.ts';
import { LANGUAGE_HEADER } from '@floorhand/contract/i18n';

// Templates (defaults, versions, validation, server-side preview), label data and the refusals of the
// print calls. The print agent end to end is agent.test.ts.

let t: TestApp;
let admin: string;
let clerk: string;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  acme = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());

const isPng = (b64: string | undefined) =>
  Buffer.from(b64 ?? '', 'base64')
    .subarray(1, 4)
    .toString() === 'PNG';

describe('label templates', () => {
  it('ships a default for every kind and several stock templates', async () => {
    const res = await call(t.app, 'label/template/list', {}, clerk);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const templates = res.body.templates!;
    for (const kind of LABEL_KINDS) expect(templates.filter((x) => x.kind === kind && x.isDefault).length, kind).toBe(1);
    expect(templates.filter((x) => x.kind === 'stock').length).toBeGreaterThanOrEqual(3);
    expect(templates.every((x) => x.version === 1 && x.savedBy === 'system')).toBe(true);
  });

  it.each(DEFAULT_TEMPLATES.map((d) => [d.id, d] as const))('previews the default %s as a PNG on the server', async (_id, d) => {
    const res = await call(
      t.app,
      'label/preview',
      { kind: d.kind, zpl: d.zpl, widthMm: d.widthMm, heightMm: d.heightMm, dpi: d.dpi },
      clerk,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(isPng(res.body.png)).toBe(true);
    expect(res.body.zpl).not.toContain('{{');
  });

  it('refuses unknown fields with the fields the kind may use', async () => {
    const res = await call(
      t.app,
      'label/preview',
      { kind: 'loc', zpl: '^XA^FO10,10^A0N,30,30^FD{{stockId}} {{bogus}}^FS^XZ', widthMm: 50, heightMm: 25, dpi: 203 },
      clerk,
    );
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain('Unknown fields {{stockId}}, {{bogus}}; a location label may use {{location}}');
  });

  it('refuses ZPL that does not render, and ZPL without ^XA … ^XZ', async () => {
    const frame = await call(t.app, 'label/preview', { kind: 'stock', zpl: 'hello', widthMm: 50, heightMm: 25, dpi: 203 }, clerk);
    expect(frame.body.err?.message).toContain('^XA and end with ^XZ');
    const broken = await call(
      t.app,
      'label/template/save',
      { kind: 'stock', name: 'Broken', zpl: '^XA^XZ', widthMm: 50, heightMm: 25, dpi: 203 },
      admin,
    );
    expect(broken.status).toBe(400);
    expect(broken.body.err?.message).toMatch(/^The ZPL does not render/);
  });

  it('saves every change as a new version; a stale version is refused; only admins save', async () => {
    const zpl = '^XA^FO20,20^A0N,30,30^FD{{partNumber}}^FS^FO20,60^BCN,60,Y,N,N^FD{{stockId}}^FS^XZ';
    const made = await call(
      t.app,
      'label/template/save',
      { kind: 'stock', name: 'Bin tag', zpl, widthMm: 60, heightMm: 30, dpi: 203 },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.template).toMatchObject({ version: 1, savedBy: 'admin', kind: 'stock' });
    const id = made.body.template!.templateId;
    const v2 = await call(
      t.app,
      'label/template/save',
      {
        templateId: id,
        expectedVersion: 1,
        kind: 'stock',
        name: 'Bin tag',
        zpl: zpl.replace('30,30', '34,34'),
        widthMm: 60,
        heightMm: 30,
        dpi: 300,
      },
      admin,
    );
    expect(v2.body.template).toMatchObject({ version: 2, dpi: 300 });
    const stale = await call(
      t.app,
      'label/template/save',
      { templateId: id, expectedVersion: 1, kind: 'stock', name: 'Late', zpl, widthMm: 60, heightMm: 30, dpi: 203 },
      admin,
    );
    expect(stale.status).toBe(409);
    const otherKind = await call(
      t.app,
      'label/template/save',
      { templateId: id, kind: 'loc', name: 'x', zpl: '^XA^FO1,1^FD{{location}}^FS^XZ', widthMm: 60, heightMm: 30, dpi: 203 },
      admin,
    );
    expect(otherKind.status).toBe(400);
    const byClerk = await call(
      t.app,
      'label/template/save',
      { kind: 'stock', name: 'Mine', zpl, widthMm: 60, heightMm: 30, dpi: 203 },
      clerk,
    );
    expect(byClerk.status).toBe(403);
    // Another organisation neither sees nor versions it.
    const acmeList = await call(t.app, 'label/template/list', { ...ACME_BASE }, acme);
    expect(acmeList.body.templates!.some((x) => x.templateId === id)).toBe(false);
    const acmeSave = await call(
      t.app,
      'label/template/save',
      { ...ACME_BASE, templateId: id, kind: 'stock', name: 'Taken', zpl, widthMm: 60, heightMm: 30, dpi: 203 },
      acme,
    );
    expect(acmeSave.status).toBe(404);
  });
});

describe("a label's own words in the language of whoever prints (issue 29)", () => {
  const traveller = DEFAULT_TEMPLATES.find((d) => d.id === 'traveller-4x6')!;
  const preview = (d: (typeof DEFAULT_TEMPLATES)[number], lang?: string) =>
    call(
      t.app,
      'label/preview',
      { kind: d.kind, zpl: d.zpl, widthMm: d.widthMm, heightMm: d.heightMm, dpi: d.dpi },
      clerk,
      lang ? { headers: { [LANGUAGE_HEADER]: lang } } : {},
    );

  it('no default template has a word outside {{t:…}}: every ^FD is data, a field or a label word', () => {
    for (const d of DEFAULT_TEMPLATES)
      for (const [, text] of d.zpl.matchAll(/\^FD([^^]*)/g)) {
        const words = text!.replace(/\{\{[^}]*\}\}/g, '').replace(/^QA,/, '');
        expect(words.trim(), `${d.id}: ${text}`).toBe('');
      }
  });

  it('prints a traveller in Spanish for a Spanish request and in English otherwise', async () => {
    const es = await preview(traveller, 'es');
    expect(es.status, JSON.stringify(es.body)).toBe(200);
    expect(es.body.zpl).toContain('^FDOperación 20  WELD-1^FS');
    expect(es.body.zpl).toContain('^FDReferencia FRAME-200   Cant. 40^FS');
    expect(es.body.zpl).toContain('^FDVence 2026-12-01   45 min^FS');
    const en = await preview(traveller);
    expect(en.body.zpl).toContain('^FDOperation 20  WELD-1^FS');
    expect(en.body.zpl).toContain('^FDPart number FRAME-200   Qty 40^FS');
    const pkg = await preview(
      DEFAULT_TEMPLATES.find((d) => d.id === 'package-4x6')!,
      'es',
    );
    expect(pkg.body.zpl).toContain('^FDEnviar a^FS');
    expect(isPng(pkg.body.png)).toBe(true);
  });

  it('a default nobody edited follows the new default as a new version; an edited one is left alone', async () => {
    const orgId = `words-${randomUUID().slice(0, 8)}`;
    await createOrganisation(t.db, { id: orgId, name: 'Words Ltd', siteId: `${orgId}-1`, hosts: [`${orgId}.test`] });
    const old = (d: (typeof DEFAULT_TEMPLATES)[number]) => d.zpl.replace(/\{\{t:([^}]*)\}\}/g, '$1');
    for (const d of DEFAULT_TEMPLATES)
      await query(
        t.db,
        sql`INSERT INTO label_templates (org_id, id, version, kind, name, zpl, width_mm, height_mm, dpi, is_default, saved_by)
          VALUES (${orgId}, ${d.id}, 1, ${d.kind}, ${d.name}, ${old(d)}, ${d.widthMm}, ${d.heightMm}, ${d.dpi}, ${d.isDefault}, ${d.id === 'pick-4x3' ? 'admin' : 'system'})`,
      );
    await ensureDefaultTemplates(t.db, orgId);
    const rows = await query<{ id: string; version: number; zpl: string; saved_by: string }>(
      t.db,
      sql`SELECT DISTINCT ON (id) id, version, zpl, saved_by FROM label_templates WHERE org_id = ${orgId} ORDER BY id, version DESC`,
    );
    const latest = new Map(rows.map((r) => [r.id, r]));
    for (const d of DEFAULT_TEMPLATES) {
      const r = latest.get(d.id)!;
      if (d.id === 'pick-4x3') expect(r, d.id).toMatchObject({ version: 1, zpl: old(d), saved_by: 'admin' });
      else if (old(d) === d.zpl)
        expect(r, d.id).toMatchObject({ version: 1, zpl: d.zpl }); // no words: unchanged
      else expect(r, d.id).toMatchObject({ version: 2, zpl: d.zpl, saved_by: 'system' });
    }
  });
});

describe('label data and downloads', () => {
  it('renders a stock label as a PNG to download', async () => {
    const res = await call(t.app, 'label/render', { kind: 'stock', source: { stockIds: ['S000000001'] } }, clerk);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(isPng(res.body.png)).toBe(true);
    expect(res.body).toMatchObject({ labels: 1, templateId: 'stock-4x2', templateVersion: 1 });
  });

  it('downloads every label of a source as a PDF, one page per label at the label size', async () => {
    const stock = await call(
      t.app,
      'label/render',
      { kind: 'stock', format: 'pdf', source: { stockIds: ['S000000001', 'S000000002'] } },
      clerk,
    );
    expect(stock.status, JSON.stringify(stock.body)).toBe(200);
    expect(stock.body.png).toBeUndefined();
    const doc = await PDFDocument.load(Buffer.from(stock.body.pdf!, 'base64'));
    expect(doc.getPageCount()).toBe(2);
    // stock-4x2 is 101.6 x 50.8 mm: 288 x 144 points.
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(288, 1);
      expect(page.getHeight()).toBeCloseTo(144, 1);
    }
    expect(stock.body).toMatchObject({ labels: 2, templateId: 'stock-4x2', templateVersion: 1 });
    const locs = await call(
      t.app,
      'label/render',
      { kind: 'loc', format: 'pdf', source: { locationRange: { warehouse: 'MAIN', from: 'A', to: 'A-02' } } },
      clerk,
    );
    expect(locs.status, JSON.stringify(locs.body)).toBe(200);
    expect(locs.body.labels).toBeGreaterThan(1);
    expect((await PDFDocument.load(Buffer.from(locs.body.pdf!, 'base64'))).getPageCount()).toBe(locs.body.labels);
    const test = await call(t.app, 'label/render', { kind: 'stock', format: 'pdf', source: { test: true } }, clerk);
    expect((await PDFDocument.load(Buffer.from(test.body.pdf!, 'base64'))).getPageCount()).toBe(1);
  });

  it(`refuses a PDF of more than ${LABELS_PER_PDF_MAX} labels with a clear message`, async () => {
    const stockIds = (
      await query<{ stock_id: string }>(
        t.db,
        sql`SELECT stock_id FROM stock_records WHERE org_id = 'demo' ORDER BY stock_id LIMIT ${LABELS_PER_PDF_MAX + 1}`,
      )
    ).map((r) => r.stock_id);
    const res = await call(t.app, 'label/render', { kind: 'stock', format: 'pdf', source: { stockIds } }, clerk);
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toBe(
      `A PDF holds at most ${LABELS_PER_PDF_MAX} labels and this makes ${LABELS_PER_PDF_MAX + 1}; download it in parts (a shorter range) or print it on a label printer`,
    );
    // The PNG (the first label) of the same source is still fine; an unknown format is refused.
    expect((await call(t.app, 'label/render', { kind: 'stock', source: { stockIds } }, clerk)).status).toBe(200);
    expect((await call(t.app, 'label/render', { kind: 'stock', format: 'gif', source: { stockIds } } as never, clerk)).status).toBe(400);
  });

  it('renders a range of location labels, and staff badges only for accounts with a badge', async () => {
    const locs = await call(
      t.app,
      'label/render',
      { kind: 'loc', source: { locationRange: { warehouse: 'MAIN', from: 'A', to: 'Z' } } },
      clerk,
    );
    expect(locs.status, JSON.stringify(locs.body)).toBe(200);
    expect(locs.body.labels).toBeGreaterThan(1);
    const wrongKind = await call(t.app, 'label/render', { kind: 'staff', source: { stockIds: ['S000000001'] } }, clerk);
    expect(wrongKind.status).toBe(400);
  });

  it('refuses a source that names nothing or two things, unknown row fields, other organisations’ stock', async () => {
    expect((await call(t.app, 'label/render', { kind: 'stock', source: {} }, clerk)).status).toBe(400);
    expect((await call(t.app, 'label/render', { kind: 'stock', source: { stockIds: ['S000000001'], test: true } }, clerk)).status).toBe(
      400,
    );
    const rows = await call(t.app, 'label/render', { kind: 'pick', source: { rows: [{ orderId: 'SO-1', shoeSize: '9' }] } }, clerk);
    expect(rows.body.err?.message).toContain("Unknown field(s) for a pick label: 'shoeSize'");
    expect((await call(t.app, 'label/render', { ...ACME_BASE, kind: 'stock', source: { stockIds: ['S000000001'] } }, acme)).status).toBe(
      404,
    );
  });

  it('refuses to print to a printer no agent has', async () => {
    const res = await call(
      t.app,
      'label/print',
      { idempotencyKey: randomUUID(), kind: 'stock', printerId: 'nobody/zebra', source: { stockIds: ['S000000001'] } },
      clerk,
    );
    expect(res.status).toBe(404);
    expect(res.body.err?.message).toContain("No printer 'nobody/zebra'");
    expect(
      (
        await call(
          t.app,
          'label/print',
          { idempotencyKey: randomUUID(), kind: 'stock', printerId: 'no-slash', source: { test: true } },
          clerk,
        )
      ).status,
    ).toBe(400);
  });
});

describe('fuzz', () => {
  it('never answers 500 to any body of the label calls', async () => {
    const paths = [
      'label/template/list',
      'label/template/save',
      'label/preview',
      'label/render',
      'label/print',
      'label/job/list',
      'label/job/reprint',
      'label/agent/list',
    ] as const;
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '__proto__', 'constructor', '{{stockId}}', '^XA^XZ', '~HS', -1, 1e308, null),
    );
    const body = fc.record({
      kind: fc.oneof(fc.constantFrom(...LABEL_KINDS), weird),
      zpl: fc.oneof(fc.constantFrom('^XA^FO1,1^FD{{stockId}}^FS^XZ', '^XA{{', '^XA^XZ'), weird),
      widthMm: fc.oneof(fc.integer({ min: -5, max: 400 }), weird),
      heightMm: fc.oneof(fc.integer({ min: -5, max: 400 }), weird),
      dpi: fc.oneof(fc.constantFrom(152, 203, 300, 600, 1), weird),
      source: fc.oneof(
        fc.record({ stockIds: fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }) }),
        fc.record({ rows: fc.array(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })), { maxLength: 2 }) }),
        weird,
      ),
      printerId: fc.oneof(fc.constantFrom('a/b', '/', 'x'), weird),
      jobId: weird,
      idempotencyKey: fc.oneof(fc.uuid(), weird),
      templateId: fc.oneof(fc.constantFrom('stock-4x2', '__proto__'), weird),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), body, async (path, b) => {
        const res = await call(t.app, path, b as never, admin);
        expect(res.status, `${path} ${JSON.stringify(b)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
