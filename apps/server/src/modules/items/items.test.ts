import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validationDetailSchema } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { call, createTestApp, type TestApp } from '../../test/harness.ts';
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

type Body = Record<string, unknown>;
const save = (record: Body, token = clerk) => call(t.app, 'item/save', { record }, token);
const detailOf = (err: ServerErr | undefined) => validationDetailSchema.parse(JSON.parse(err?.detail ?? 'null'));
let n = 0;
const unique = (prefix: string) => `${prefix}${++n}${Date.now() % 100000}`;

describe('items', () => {
  it('creates an item with barcodes, finds it by them, and replaces them on update', async () => {
    const partNumber = unique('P-');
    const created = await save({
      partNumber,
      description: 'Widget',
      department: 'ASSY',
      tracking: 'lot',
      barcodes: [`${partNumber}-BC1`, `${partNumber}-BC2`],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.item).toMatchObject({
      partNumber,
      uom: 'EA',
      department: 'ASSY',
      tracking: 'lot',
      barcodes: [`${partNumber}-BC1`, `${partNumber}-BC2`],
      active: true,
    });
    const item = created.body.item!;
    expect((await call(t.app, 'stock/lookup', { value: `${partNumber}-BC2` }, clerk)).body.matchedAs).toEqual(['barcode']);
    const updated = await save({ _id: item._id, _rev: 1, partNumber, description: 'Widget', barcodes: [`${partNumber}-BC3`] });
    expect(updated.body.item).toMatchObject({ barcodes: [`${partNumber}-BC3`], tracking: 'lot', department: 'ASSY' });
    expect((await call(t.app, 'stock/lookup', { value: `${partNumber}-BC2` }, clerk)).body.matchedAs).toEqual([]);
    const got = await call(t.app, 'item/get', { partNumber }, clerk);
    expect(got.body).toMatchObject({ item: { partNumber, _rev: 2 }, stock: [] });
  });

  it('refuses a barcode of another item, an unknown department, a duplicate part number', async () => {
    const other = (await call(t.app, 'item/list', { limit: 1 }, clerk)).body.items![0]!;
    const res = await save({ partNumber: unique('P-'), description: 'x', department: 'NODEPT', barcodes: [other.barcodes[0]] });
    expect(res.status).toBe(400);
    const errors = detailOf(res.body.err).errors;
    expect(errors.department).toEqual(["No active department 'NODEPT' exists"]);
    expect(errors.barcodes?.[0]).toContain(`already names the item '${other.partNumber}'`);
    const dup = await save({ partNumber: other.partNumber, description: 'again' });
    expect(dup.body.err).toMatchObject({ code: ERR.dup, message: `An Item with id '${other.partNumber}' already exists.` });
  });

  it('refuses to change the tracking of an item with stock on hand', async () => {
    const stocked = (await call(t.app, 'stock/lookup', { value: 'A-01-2', warehouse: 'MAIN' }, clerk)).body.groups![0]!;
    const item = (await call(t.app, 'item/get', { partNumber: stocked.partNumber }, clerk)).body.item!;
    const tracking = item.tracking === 'serial' ? 'none' : 'serial';
    const res = await save({ _id: item._id, _rev: item._rev, partNumber: item.partNumber, description: item.description, tracking });
    expect(res.status).toBe(409);
  });

  it('lists by search, department and page', async () => {
    const res = await call(t.app, 'item/list', { search: 'FH-1000', department: 'ASSY', limit: 50 }, clerk);
    expect(res.status).toBe(200);
    expect(res.body.items!.every((i) => i.partNumber.startsWith('FH-1000') && i.department === 'ASSY')).toBe(true);
    const first = await call(t.app, 'item/list', { limit: 2 }, clerk);
    const second = await call(t.app, 'item/list', { limit: 2, offset: 1 }, clerk);
    expect(second.body.items![0]).toEqual(first.body.items![1]);
    expect((await call(t.app, 'item/get', { partNumber: 'NOPE' }, clerk)).status).toBe(404);
  });

  it('applies a retried save once', async () => {
    const body = { idempotencyKey: randomUUID(), record: { partNumber: unique('P-'), description: 'Once' } };
    const first = await call(t.app, 'item/save', body, clerk);
    const again = await call(t.app, 'item/save', body, clerk);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
