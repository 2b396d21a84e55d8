import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { ERR } from '@floorhand/contract/errors';
import { LABEL_FIELDS } from '@floorhand/contract/labels';
import { ACME_BASE, call, createAcme, createTestApp, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, agentKeyFor, tokenFor } from '../../test/logins.ts';
import { query } from '../../db/sql.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import * as repo from './repository.ts';

// Issue 23, items 8 and 9 (docs/labels.md, "What a template may use" and "Who prints what"): field
// data never becomes a printer command, templates use label-formatting commands only, and labels
// print what exists in the organisation, a staff badge only for its person, administrators and
// timekeepers.

let t: TestApp;
let admin: string;
let clerk: string;
let timekeeper: string;
let acme: string;
const ids = new Map<string, string>();
const PRINTER = 'trust/zebra';

const C0_OR_DEL = /[\u0000-\u001F\u007F]/; // eslint-disable-line no-control-regex -- control characters are what the test looks for
/** The data of every ^FD … ^FS of a ZPL text. */
const fieldData = (zpl: string) => [...zpl.matchAll(/\^FD([\s\S]*?)\^FS/g)].map((m) => m[1]!);
const stored = async (jobId: string) => (await repo.jobById(t.db, 'demo', jobId))!.zpl;

beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  admin = await tokenFor(t.app, 'admin');
  clerk = await tokenFor(t.app, 'clerk');
  timekeeper = await tokenFor(t.app, 'tcadmin');
  acme = await acmeAdminToken(t.app);
  for (const r of await query<{ id: string; user_name: string }>(t.db, sql`SELECT id, user_name FROM accounts WHERE org_id = 'demo'`))
    ids.set(r.user_name, r.id);
  const svc = ids.get('svc')!;
  // A printer of the demo site as a connected agent announces it: an agent with its own key, live on a
  // socket (the job is recorded; no agent takes it here).
  await agentKeyFor(t.app, admin, 'trust', 'Trust agent');
  await repo.upsertAgent(t.db, 'demo', 'demo-main', {
    id: 'trust',
    name: 'Trust agent',
    accountId: svc,
    socketId: 'trust-socket',
    note: null,
    printers: [{ id: PRINTER, name: 'Zebra', state: 'online' }],
  });
});
afterAll(() => t?.close());

const print = (token: string, body: Record<string, unknown>) =>
  call(t.app, 'label/print', { idempotencyKey: randomUUID(), printerId: PRINTER, ...body } as never, token);

describe('field data never becomes a printer command (item 8)', () => {
  it('a stock label of an item whose description holds RS (0x1E), DLE (0x10), ^ and ~ prints none of them', async () => {
    const [r] = await query<{ stock_id: string; item_id: string }>(
      t.db,
      sql`SELECT stock_id, item_id FROM stock_records WHERE org_id = 'demo' ORDER BY stock_id OFFSET 7 LIMIT 1`,
    );
    await query(t.db, sql`UPDATE items SET description = ${'Bolt\u001E^XA^IDR:*.*^XZ\u0010~JR\u007F\tzinc'} WHERE id = ${r!.item_id}`);
    const res = await print(clerk, { kind: 'stock', source: { stockIds: [r!.stock_id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const zpl = await stored(res.body.job!.jobId);
    for (const data of fieldData(zpl)) {
      expect(data).not.toMatch(C0_OR_DEL);
      expect(data).not.toMatch(/[\^~]/);
    }
    expect(zpl).toContain('^FDBolt XA IDR:*.* XZ JR zinc^FS');
    // Only the template's own line breaks: no control character anywhere else.
    expect(zpl.replace(/\n/g, '')).not.toMatch(C0_OR_DEL);
  });

  it('in a ^FH field, data cannot make a hex escape: _1E is printed as the text _1E (_5F1E)', async () => {
    const zpl = '^XA^CI28^FO20,20^A0N,30,30^FH^FD{{description}}^FS^FO20,60^BCN,60,Y,N,N^FD{{stockId}}^FS^XZ';
    const saved = await call(t.app, 'label/template/save', { kind: 'stock', name: 'Hex', zpl, widthMm: 60, heightMm: 30, dpi: 203 }, admin);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [r] = await query<{ stock_id: string; item_id: string }>(
      t.db,
      sql`SELECT stock_id, item_id FROM stock_records WHERE org_id = 'demo' ORDER BY stock_id OFFSET 8 LIMIT 1`,
    );
    await query(t.db, sql`UPDATE items SET description = ${'Nut _1E_5E_7e end'} WHERE id = ${r!.item_id}`);
    const res = await print(clerk, { kind: 'stock', templateId: saved.body.template!.templateId, source: { stockIds: [r!.stock_id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(res.body.job!.jobId)).toContain('^FH^FDNut _5F1E_5F5E_5F7e end^FS');
    // The template itself may not write one.
    const refused = await call(
      t.app,
      'label/template/save',
      { kind: 'stock', name: 'Hex RS', zpl: zpl.replace('{{description}}', '_1E{{description}}'), widthMm: 60, heightMm: 30, dpi: 203 },
      admin,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.err?.message).toContain("The template's ^FH field writes _1E (a control character), which labels may not use");
  });

  it.each([
    ['~WC', 'it changes the printer, not the label'],
    ['^JUF', 'it changes the printer, not the label'],
    ['^ND2,1,2.3.4.5', 'it changes the printer, not the label'],
    ['^IDR:*.*', "it reads or writes the printer's storage, not the label"],
    ['~JR', 'it changes the printer, not the label'],
    ['^DFR:FORM.ZPL', "it reads or writes the printer's storage, not the label"],
  ])('template save refuses %s and names it', async (cmd, why) => {
    const zpl = `^XA^FO20,20^A0N,30,30^FD{{stockId}}^FS${cmd}^XZ`;
    const res = await call(t.app, 'label/template/save', { kind: 'stock', name: 'Evil', zpl, widthMm: 60, heightMm: 30, dpi: 203 }, admin);
    expect(res.status).toBe(400);
    expect(res.body.err?.code).toBe(ERR.badInput);
    expect(res.body.err?.message).toContain(`The template uses ${cmd.slice(0, 3)}, which labels may not use (${why})`);
    // The preview says the same.
    expect(
      (await call(t.app, 'label/preview', { kind: 'stock', zpl, widthMm: 60, heightMm: 30, dpi: 203 }, clerk)).body.err?.message,
    ).toContain(`The template uses ${cmd.slice(0, 3)}`);
  });

  it.each(DEFAULT_TEMPLATES.map((d) => [d.id, d] as const))('the default %s saves as a template of its own', async (_id, d) => {
    const res = await call(
      t.app,
      'label/template/save',
      { kind: d.kind, name: `Copy of ${d.name}`, zpl: d.zpl, widthMm: d.widthMm, heightMm: d.heightMm, dpi: d.dpi },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a template stored before the allow-list does not print until it is saved again', async () => {
    const id = `t-old-${randomUUID().slice(0, 6)}`;
    await repo.insertTemplateVersion(t.db, 'demo', {
      id,
      version: 1,
      kind: 'stock',
      name: 'Old',
      zpl: '^XA^FO1,1^FD{{stockId}}^FS~WC^XZ',
      widthMm: 60,
      heightMm: 30,
      dpi: 203,
      isDefault: false,
      savedBy: 'admin',
    });
    const res = await print(clerk, { kind: 'stock', templateId: id, source: { stockIds: ['S000000001'] } });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain("The template 'Old' cannot print until an administrator saves it again: The template uses ~WC");
  });

  it('fuzz: whatever the data of a preview, its fields hold no prefix and no control character', async () => {
    const template = DEFAULT_TEMPLATES.find((d) => d.id === 'stock-4x2')!;
    const nasty = fc.oneof(
      fc.string({ maxLength: 30 }),
      // NUL is refused by every call already (the contract's fuzz has it).
      fc
        .array(fc.constantFrom('^', '~', '_1E', '\u0010', '\u001E', '\u0001', '\u007F', '\r\n', '^XZ~JR^XA', 'a'), { maxLength: 10 })
        .map((a) => a.join('')),
    );
    const keys = [...LABEL_FIELDS.get('stock')!.keys()];
    let rendered = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(nasty, { minLength: keys.length, maxLength: keys.length }), async (values) => {
        const data = Object.fromEntries(keys.map((k, i) => [k, values[i]!]));
        const res = await call(
          t.app,
          'label/preview',
          { kind: 'stock', zpl: template.zpl, widthMm: template.widthMm, heightMm: template.heightMm, dpi: template.dpi, data },
          clerk,
        );
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeLessThan(500);
        if (res.status !== 200) return; // a QR code of nothing does not render: refused, fine
        rendered += 1;
        for (const f of fieldData(res.body.zpl!)) {
          expect(f).not.toMatch(/[\^~]/);
          expect(f).not.toMatch(C0_OR_DEL);
        }
      }),
      { numRuns: 12 },
    );
    expect(rendered).toBeGreaterThan(0);
  }, 120_000);
});

describe('labels print what exists, for whom may print it (item 9)', () => {
  it("a clerk prints their own badge, not another person's; administrators and timekeepers print anyone's", async () => {
    const own = await call(t.app, 'label/render', { kind: 'staff', source: { accountIds: [ids.get('clerk')!] } }, clerk);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const others = await call(t.app, 'label/render', { kind: 'staff', source: { accountIds: [ids.get('admin')!] } }, clerk);
    expect(others.status).toBe(403);
    expect(others.body.err?.message).toBe(
      "Only administrators and timekeepers may print another person's badge (a badge punches the clock); you may print your own",
    );
    expect(
      (await call(t.app, 'label/render', { kind: 'staff', source: { accountIds: [ids.get('clerk')!, ids.get('tcadmin')!] } }, clerk))
        .status,
    ).toBe(403);
    expect((await print(clerk, { kind: 'staff', source: { accountIds: [ids.get('admin')!] } })).status).toBe(403);
    // Refused before the printer is looked at.
    expect(
      (
        await call(
          t.app,
          'label/print',
          { idempotencyKey: randomUUID(), kind: 'staff', printerId: 'nobody/x', source: { accountIds: [ids.get('admin')!] } },
          clerk,
        )
      ).status,
    ).toBe(403);
    expect((await print(clerk, { kind: 'staff', source: { accountIds: [ids.get('clerk')!] } })).status).toBe(200);
    expect((await call(t.app, 'label/render', { kind: 'staff', source: { accountIds: [ids.get('clerk')!] } }, admin)).status).toBe(200);
    expect((await call(t.app, 'label/render', { kind: 'staff', source: { accountIds: [ids.get('clerk')!] } }, timekeeper)).status).toBe(
      200,
    );
    // No badge of invented values: staff labels take no rows.
    const typed = await call(t.app, 'label/render', { kind: 'staff', source: { rows: [{ name: 'Ada Admin', badge: 'B-ADMIN' }] } }, clerk);
    expect(typed.status).toBe(400);
    expect(typed.body.err?.message).toBe("A staff label prints its record as it is: say which (accountIds), not the label's values");
  });

  it('a badge job is reprinted by the person who printed it, administrators and timekeepers, not by another clerk', async () => {
    const job = await print(timekeeper, { kind: 'staff', source: { accountIds: [ids.get('admin')!] } });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const again = (token: string) => call(t.app, 'label/job/reprint', { idempotencyKey: randomUUID(), jobId: job.body.job!.jobId }, token);
    expect((await again(clerk)).status).toBe(403);
    expect((await again(timekeeper)).status).toBe(200);
    expect((await again(admin)).status).toBe(200);
    const own = await print(clerk, { kind: 'staff', source: { accountIds: [ids.get('clerk')!] } });
    expect((await call(t.app, 'label/job/reprint', { idempotencyKey: randomUUID(), jobId: own.body.job!.jobId }, clerk)).status).toBe(200);
  });

  it('a stock label of an invented id is refused; a real one prints the quantity of the record, whatever the request says', async () => {
    const invented = await print(clerk, { kind: 'stock', source: { stockIds: ['S999999999'] } });
    expect(invented.status).toBe(404);
    expect(invented.body.err?.message).toBe("No stock record 'S999999999'");
    const typed = await print(clerk, { kind: 'stock', source: { rows: [{ stockId: 'S000000001', qty: '9999', partNumber: 'GOLD' }] } });
    expect(typed.status).toBe(400);
    expect(typed.body.err?.message).toBe("A stock label prints its record as it is: say which (stockIds), not the label's values");
    expect((await print(clerk, { kind: 'stock', source: { stockIds: ['S000000001'], rows: [{ qty: '9999' }] } })).status).toBe(400);
    const [r] = await query<{ q: string }>(t.db, sql`SELECT quantity::text AS q FROM stock_records WHERE stock_id = 'S000000001'`);
    const real = await print(clerk, { kind: 'stock', source: { stockIds: ['S000000001'] } });
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect(await stored(real.body.job!.jobId)).toContain(`^FDQty ${Number(r!.q)} `);
    // Locations likewise: from the organisation's locations only.
    expect((await print(clerk, { kind: 'loc', source: { rows: [{ location: 'A-99-99' }] } })).status).toBe(400);
    expect((await print(clerk, { kind: 'loc', source: { locationIds: ['no-such-location'] } })).status).toBe(404);
  });

  it("another organisation's stock, locations, accounts, orders and packages are refused", async () => {
    const [loc] = await query<{ id: string }>(t.db, sql`SELECT id FROM locations WHERE org_id = 'demo' LIMIT 1`);
    const render = (kind: string, source: Record<string, unknown>) =>
      call(t.app, 'label/render', { ...ACME_BASE, kind, source } as never, acme);
    expect((await render('stock', { stockIds: ['S000000001'] })).status).toBe(404);
    expect((await render('loc', { locationIds: [loc!.id] })).status).toBe(404);
    expect((await render('loc', { locationRange: { warehouse: 'MAIN', from: 'A', to: 'Z' } })).status).toBe(404);
    expect((await render('staff', { accountIds: [ids.get('clerk')!] })).status).toBe(404);
    expect((await render('pick', { rows: [{ orderId: 'SO-1001', line: '1' }] })).status).toBe(404);
    expect((await render('orderTraveller', { rows: [{ orderId: 'WO-3001' }] })).status).toBe(404);
    expect((await render('package', { rows: [{ packageNo: 'SO-1001-1' }] })).status).toBe(404);
  });

  it('a pick label is an order line of the organisation with its item; with a stock record, what was picked of it', async () => {
    const typedOrder = await print(clerk, { kind: 'pick', source: { rows: [{ orderId: 'SO-404', line: '1', qty: '5' }] } });
    expect(typedOrder.status).toBe(404);
    expect(typedOrder.body.err?.message).toBe("No line 1 of order 'SO-404'");
    expect((await print(clerk, { kind: 'pick', source: { rows: [{ orderId: 'SO-1001', line: '99' }] } })).status).toBe(404);
    expect((await print(clerk, { kind: 'pick', source: { rows: [{ orderId: 'SO-1001' }] } })).status).toBe(400);
    const [line] = await query<{ part_number: string; qty: string }>(
      t.db,
      sql`SELECT i.part_number, ol.qty::text AS qty FROM orders o JOIN order_lines ol ON ol.order_id = o.id JOIN items i ON i.id = ol.item_id WHERE o.org_id = 'demo' AND o.number = 'SO-1001' AND ol.line_no = 1`,
    );
    // The line's ticket: the line's part and quantity, not the request's.
    const ticket = await print(clerk, {
      kind: 'pick',
      source: { rows: [{ orderId: 'SO-1001', line: '1', partNumber: 'GOLD', qty: '9999' }] },
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
    const ticketZpl = await stored(ticket.body.job!.jobId);
    expect(ticketZpl).toContain(`^FD${line!.part_number}^FS`);
    expect(ticketZpl).toContain(`^FDQty ${Number(line!.qty)} `);
    expect(ticketZpl).not.toContain('GOLD');
    expect(ticketZpl).not.toContain('9999');
    // A stock record not picked for the line is refused; one picked prints what was picked.
    const notPicked = await print(clerk, { kind: 'pick', source: { rows: [{ orderId: 'SO-1001', line: '1', stockId: 'S000000001' }] } });
    expect(notPicked.status).toBe(400);
    expect(notPicked.body.err?.message).toBe("The stock record 'S000000001' is not picked for line 1 of order 'SO-1001'");
    const [order] = await query<{ id: string }>(t.db, sql`SELECT id FROM orders WHERE org_id = 'demo' AND number = 'SO-1001'`);
    const pickLine = (await call(t.app, 'pick/order', { orderId: order!.id }, admin)).body.lines!.find((l) => l.lineNo === 1)!;
    const source = pickLine.sources[0]!;
    const picked = await call(
      t.app,
      'pick/confirm',
      { idempotencyKey: randomUUID(), lineId: pickLine._id, location: source.location, scan: source.stockId, qty: 1 },
      admin,
    );
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    const label = await print(clerk, {
      kind: 'pick',
      source: {
        rows: [
          { orderId: 'SO-1001', orderType: 'sos', line: '1', stockId: picked.body.pick!.stockId, qty: '9999', picker: 'Someone else' },
        ],
      },
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    const zpl = await stored(label.body.job!.jobId);
    expect(zpl).toContain('^FDQty 1 ');
    expect(zpl).toContain(`^FD${picked.body.pick!.stockId}^FS`);
    expect(zpl).toContain('^FDPicked by Ada Admin ');
  });

  it('a traveller is an order of the organisation and one of its tasks or its own number; a package label is a package', async () => {
    expect((await print(clerk, { kind: 'orderTraveller', source: { rows: [{ orderId: 'WO-404' }] } })).status).toBe(404);
    const bogusTask = await print(clerk, { kind: 'orderTraveller', source: { rows: [{ orderId: 'WO-3001', taskBarcode: 'NOT-A-TASK' }] } });
    expect(bogusTask.status).toBe(404);
    expect(bogusTask.body.err?.message).toBe("No task 'NOT-A-TASK' of order 'WO-3001'");
    const own = await print(clerk, {
      kind: 'orderTraveller',
      source: { rows: [{ orderId: 'WO-3001', taskBarcode: 'WO-3001', description: 'Made up', qty: '77' }] },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const zpl = await stored(own.body.job!.jobId);
    expect(zpl).toContain('^FDAssembly line 2^FS');
    expect(zpl).toContain('Qty 3^FS');
    expect(zpl).not.toContain('Made up');
    const pkg = await print(clerk, { kind: 'package', source: { rows: [{ packageNo: 'PKG-404', weight: '1 kg' }] } });
    expect(pkg.status).toBe(404);
    expect(pkg.body.err?.message).toBe("No package 'PKG-404'");
  });
});
