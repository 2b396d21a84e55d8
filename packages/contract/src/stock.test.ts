import { describe, expect, it } from 'vitest';
import { entityDefSchema } from './records/schema-model.ts';
import { validateRecord } from './records/validate.ts';
import { CSV_COLUMNS, CSV_ENTITIES, INVENTORY_ENTITIES, importReportOf } from './csv-transfer.ts';
import { groupRecords, lookupGroupSchema, lookupRecordSchema, quantityInput } from './stock.ts';

describe('inventory entities', () => {
  it.each(CSV_ENTITIES)('%s is a valid EntityDef whose fields are the CSV columns', (entity) => {
    const def = INVENTORY_ENTITIES[entity];
    expect(entityDefSchema.safeParse(def).success).toBe(true);
    expect(def.fields.map((f) => f.name)).toEqual(CSV_COLUMNS[entity]);
  });

  it('checks a receipt with the spec messages', () => {
    const result = validateRecord(INVENTORY_ENTITIES.stock, {
      partNumber: 'P 1',
      warehouse: 'MAIN',
      location: 'A-01',
      quantity: '-2',
      receivedDate: '2024-13-01',
    });
    expect(result.errors).toEqual({
      quantity: ["'Quantity' must be at least 0"],
      receivedDate: ["'Received Date' must match pattern 'YYYY-MM-DD'"],
    });
    expect(validateRecord(INVENTORY_ENTITIES.items, { partNumber: 'P 1', description: 'x', tracking: 'batch' }).errors).toEqual({
      partNumber: ["'Part Number' does not match regular expression"],
      tracking: ["'Tracking' must be one of none, lot, serial"],
    });
  });
});

describe('quantityInput', () => {
  it('turns numbers and decimal text into units of 1/10000', () => {
    expect(quantityInput.parse(1.5)).toBe(15000n);
    expect(quantityInput.parse('-0.0001')).toBe(-1n);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 'x', '1.00001', 1e12, true])('refuses %s', (value) => {
    expect(quantityInput.safeParse(value).success).toBe(false);
  });
});

describe('importReportOf', () => {
  it('reads the report of a refused import from its error detail, and nothing else', () => {
    const report = {
      entity: 'stock',
      rows: 1,
      imported: 0,
      inserted: 0,
      updated: 0,
      rejectedCount: 1,
      rejected: [{ row: 2, field: 'quantity', message: 'x' }],
    };
    expect(importReportOf({ detail: JSON.stringify(report) })).toEqual(report);
    expect(importReportOf({ detail: '{"errors":{}}' })).toBeUndefined();
    expect(importReportOf({ detail: 'not json' })).toBeUndefined();
    expect(importReportOf(undefined)).toBeUndefined();
  });
});

describe('lookup groups', () => {
  it('groupRecords gives each record its group’s item and place, and the record keeps its own fields', () => {
    const record = {
      _id: 'sr1',
      _rev: 2,
      stockId: 'S1',
      quantity: 1.5,
      conditionCode: 'NE',
      lot: 'L1',
      serial: null,
      certSource: null,
      receivedDate: '2026-01-02',
      changedAt: '2026-01-02T00:00:00.000Z',
    };
    const group = lookupGroupSchema.parse({
      itemId: 'i1',
      partNumber: 'P-1',
      description: 'Bolt',
      uom: 'EA',
      tracking: 'lot',
      department: 'MECH',
      warehouseId: 'w1',
      warehouse: 'MAIN',
      locationId: 'l1',
      location: 'A-01',
      quantity: 3,
      records: [record, { ...record, _id: 'sr2', stockId: 'S2' }],
    });
    const [first, second] = groupRecords(group);
    expect(first).toEqual({
      ...record,
      itemId: 'i1',
      partNumber: 'P-1',
      description: 'Bolt',
      uom: 'EA',
      tracking: 'lot',
      department: 'MECH',
      warehouseId: 'w1',
      warehouse: 'MAIN',
      locationId: 'l1',
      location: 'A-01',
    });
    expect(second?.stockId).toBe('S2');
  });

  it('a lookup record carries neither its group’s fields nor the audit', () => {
    const parsed = lookupRecordSchema.parse({
      _id: 'sr1',
      _rev: 1,
      stockId: 'S1',
      quantity: 1,
      conditionCode: null,
      lot: null,
      serial: null,
      certSource: null,
      receivedDate: null,
      changedAt: 'x',
      partNumber: 'P',
      x$audit: {},
    });
    expect(Object.keys(parsed)).not.toContain('partNumber');
    expect(Object.keys(parsed)).not.toContain('x$audit');
  });
});

describe('importRefusalSummary', () => {
  const report = (rows: number, rejected: Array<{ row: number }>, rejectedCount = rejected.length) => ({
    entity: 'items' as const,
    rows,
    imported: 0,
    inserted: 0,
    updated: 0,
    rejectedCount,
    rejected: rejected.map((p) => ({ ...p, field: 'x', message: 'y' })),
  });
  it('tells the header row from the data rows, and counts in words that add up', async () => {
    const { importRefusalSummary } = await import('./csv-transfer.ts');
    const many = report(1, [...Array.from({ length: 11 }, () => ({ row: 1 })), { row: 2 }]);
    expect(importRefusalSummary(many)).toBe(
      '12 problems in the header row and 1 of 1 data row; nothing was imported. Correct the file and import it again.',
    );
    expect(importRefusalSummary(report(40, [{ row: 3 }, { row: 3 }, { row: 9 }]))).toMatch(/^3 problems in 2 of 40 data rows;/);
    expect(importRefusalSummary(report(5, [{ row: 1 }]))).toMatch(/^1 problem in the header row;/);
  });
});

describe('importRefusalSummary in another language', () => {
  it("builds the summary from keys the screen's t translates", async () => {
    const { importRefusalSummary } = await import('./csv-transfer.ts');
    const t = (key: string, params?: Readonly<Record<string, string | number>>) =>
      `[${key.replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(params?.[n]))}]`;
    const report = {
      entity: 'items' as const,
      rows: 40,
      imported: 0,
      inserted: 0,
      updated: 0,
      rejectedCount: 1,
      rejected: [{ row: 3, field: 'x', message: 'y' }],
    };
    expect(importRefusalSummary(report, t)).toBe(
      '[[1 problem] in [1 of 40 data rows]; nothing was imported. Correct the file and import it again.]',
    );
  });
});
