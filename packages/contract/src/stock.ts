import { z } from 'zod';
import { serverErrSchema } from './errors.ts';
import { PACK_PICK_MAX_ROWS, ZERO_QTY_MONTHS_DEFAULT } from './constants.ts';
import { QTY_MAX_TEXT, parseQty } from './quantity.ts';
import type { EntityDef } from './records/schema-model.ts';
import type { callBase } from './api.ts';

// Inventory (docs/inventory.md): warehouses, locations, items, stock records and the movement
// ledger. The calls are declared here and spread into `calls` of api.ts (types only from api.ts, so
// there is no import cycle at run time). Records a user types or imports are checked with the record
// layer's engine against the EntityDefs below, so forms, CSV rows and the API give the same messages.

export const TRACKING = ['none', 'lot', 'serial'] as const;
export type Tracking = (typeof TRACKING)[number];
export const LOCATION_TYPES = ['bin', 'shelf', 'rack', 'floor', 'dock', 'staging', 'quarantine'] as const;
/** Every kind of change of a stock record; a receipt is each record's first movement. */
export const MOVEMENT_TYPES = ['receive', 'adjust', 'move', 'split', 'pick', 'unpick', 'pack', 'ship', 'issue', 'count'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
export const DELTA_TYPES = ['delta', 'absolute'] as const;

/** Rows a lookup or list answers at most (spec: maxRows 499), with a "more rows" flag beyond. */
export const INVENTORY_MAX_ROWS = PACK_PICK_MAX_ROWS;
/** Movements stock/get answers, newest first. */
export const MOVEMENT_HISTORY_MAX = PACK_PICK_MAX_ROWS;
/** import/csv's body limit; every other call has the server's 1 MB. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/** Rejected rows an import report lists; `rejectedCount` has them all. */
export const IMPORT_REPORT_MAX = 1000;
/** Separator of an item's barcodes in one CSV field. */
export const BARCODE_SEPARATOR = '|';

/** Scanned codes (part numbers, stock ids, location codes, barcodes, lots, serials): printable ASCII, no spaces. */
export const SCAN_CODE_REGEX = '^[\\x21-\\x7E]+$';
const scanCode = z.string().min(1).max(100).regex(new RegExp(SCAN_CODE_REGEX), 'must be printable characters without spaces');
const code = z.string().min(1).max(40);
/** A client-made key (e.g. a UUID) that makes a retried write apply once; unique per organisation. */
export const idempotencyKeySchema = z.string().min(8).max(100).regex(new RegExp(SCAN_CODE_REGEX), 'must be 8 to 100 printable characters without spaces');

/** A quantity as a JSON number or decimal text, at most four decimals (numeric(15,4)); answered as its canonical text. */
export const quantityInput = z.union([z.number(), z.string().max(40)]).transform((value, ctx) => {
  const parsed = parseQty(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.units;
});

// ---------------------------------------------------------------------------------------------
// Entities as typed, imported or sent: references by code, as a user or a CSV names them.

const activeField = { name: 'active', label: 'Active', dataType: 'boolean' } as const;

export const warehouseEntity: EntityDef = {
  type: 'warehouse',
  title: 'Warehouse',
  idFieldName: 'code',
  displayIdFieldName: 'name',
  fields: [
    { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, max: 20, regex: 'generalId' } },
    { name: 'name', label: 'Name', dataType: 'string', conditions: { required: true, max: 100 } },
    activeField,
  ],
};

export const locationEntity: EntityDef = {
  type: 'location',
  title: 'Location',
  idFieldName: 'code',
  displayIdFieldName: 'description',
  fields: [
    { name: 'warehouse', label: 'Warehouse', dataType: 'string', conditions: { required: true, max: 20 } },
    { name: 'code', label: 'Code', dataType: 'string', conditions: { required: true, max: 40, regex: SCAN_CODE_REGEX } },
    { name: 'description', label: 'Description', dataType: 'string', conditions: { max: 200 } },
    { name: 'type', label: 'Type', dataType: 'string', conditions: { valid: [...LOCATION_TYPES] } },
    activeField,
  ],
};

export const itemEntity: EntityDef = {
  type: 'item',
  title: 'Item',
  idFieldName: 'partNumber',
  displayIdFieldName: 'description',
  fields: [
    { name: 'partNumber', label: 'Part Number', dataType: 'string', conditions: { required: true, max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'description', label: 'Description', dataType: 'string', conditions: { required: true, max: 200 } },
    { name: 'uom', label: 'Unit of Measure', dataType: 'string', conditions: { max: 10 } },
    { name: 'department', label: 'Department', dataType: 'string', conditions: { max: 20 } },
    { name: 'tracking', label: 'Tracking', dataType: 'string', conditions: { valid: [...TRACKING] } },
    {
      name: 'barcodes',
      label: 'Barcodes',
      dataType: 'array',
      conditions: { max: 20 },
      items: { name: 'barcode', label: 'Barcode', dataType: 'string', conditions: { required: true, max: 100, regex: SCAN_CODE_REGEX } },
    },
    activeField,
  ],
};

/** A receipt (stock/receive, a row of a stock import). The stock id is made by the server when absent. */
export const stockRecordEntity: EntityDef = {
  type: 'stockRecord',
  title: 'Stock Record',
  idFieldName: 'stockId',
  displayIdFieldName: 'partNumber',
  fields: [
    { name: 'stockId', label: 'Stock Id', dataType: 'string', conditions: { max: 40, regex: SCAN_CODE_REGEX } },
    { name: 'partNumber', label: 'Part Number', dataType: 'string', conditions: { required: true, max: 60 } },
    { name: 'warehouse', label: 'Warehouse', dataType: 'string', conditions: { required: true, max: 20 } },
    { name: 'location', label: 'Location', dataType: 'string', conditions: { required: true, max: 40 } },
    // The engine checks the type and range; the server also refuses more than four decimals.
    { name: 'quantity', label: 'Quantity', dataType: 'numeric', conditions: { required: true, min: 0, max: Number(QTY_MAX_TEXT) } },
    { name: 'conditionCode', label: 'Condition Code', dataType: 'string', conditions: { max: 20 } },
    { name: 'lot', label: 'Lot', dataType: 'string', conditions: { max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'serial', label: 'Serial', dataType: 'string', conditions: { max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'certSource', label: 'Certificate Source', dataType: 'string', conditions: { max: 100 } },
    { name: 'receivedDate', label: 'Received Date', dataType: 'date' },
  ],
};

export const INVENTORY_ENTITIES = { warehouses: warehouseEntity, locations: locationEntity, items: itemEntity, stock: stockRecordEntity } as const;
export const CSV_ENTITIES = ['warehouses', 'locations', 'items', 'stock'] as const;
export type CsvEntity = (typeof CSV_ENTITIES)[number];
/** CSV columns per entity, in this order on export; an import needs the header and may leave optional columns out. */
export const CSV_COLUMNS: Record<CsvEntity, readonly string[]> = {
  warehouses: ['code', 'name', 'active'],
  locations: ['warehouse', 'code', 'description', 'type', 'active'],
  items: ['partNumber', 'description', 'uom', 'department', 'tracking', 'barcodes', 'active'],
  stock: ['stockId', 'partNumber', 'warehouse', 'location', 'quantity', 'conditionCode', 'lot', 'serial', 'certSource', 'receivedDate'],
};

// ---------------------------------------------------------------------------------------------
// Answers

const auditSchema = z.object({ create: z.object({ user: z.string(), ts: z.string() }), modify: z.object({ user: z.string(), ts: z.string() }) });
const control = { _id: z.string(), _rev: z.number().int(), x$audit: auditSchema };

export const warehouseSchema = z.object({ ...control, code: z.string(), name: z.string(), active: z.boolean() });
export type Warehouse = z.infer<typeof warehouseSchema>;

/** What a location holds: records with a quantity above zero, their distinct items and total quantity. */
export const locationCountsSchema = z.object({ records: z.number().int(), items: z.number().int(), quantity: z.number() });
export const locationSchema = z.object({
  ...control,
  warehouseId: z.string(),
  warehouse: z.string(),
  code: z.string(),
  description: z.string(),
  type: z.string(),
  active: z.boolean(),
  counts: locationCountsSchema.optional(),
});
export type Location = z.infer<typeof locationSchema>;

export const itemSchema = z.object({
  ...control,
  partNumber: z.string(),
  description: z.string(),
  uom: z.string(),
  department: z.string().nullable(),
  tracking: z.enum(TRACKING),
  barcodes: z.array(z.string()),
  active: z.boolean(),
});
export type Item = z.infer<typeof itemSchema>;

/** Where stock lies and what it is: its item, warehouse and location (a record's or a lookup group's). */
const placedItem = {
  itemId: z.string(),
  partNumber: z.string(),
  description: z.string(),
  uom: z.string(),
  tracking: z.enum(TRACKING),
  department: z.string().nullable(),
  warehouseId: z.string(),
  warehouse: z.string(),
  locationId: z.string(),
  location: z.string(),
};

/** A stock record with its item, warehouse and location named, flat for tables. Quantities are numbers. */
export const stockRecordSchema = z.object({
  ...control,
  stockId: z.string(),
  ...placedItem,
  quantity: z.number(),
  conditionCode: z.string().nullable(),
  lot: z.string().nullable(),
  serial: z.string().nullable(),
  certSource: z.string().nullable(),
  /** YYYY-MM-DD */
  receivedDate: z.string().nullable(),
  /** When the quantity or place last changed (ISO); zeroQtyMonths counts from here. */
  changedAt: z.string(),
});
export type StockRecord = z.infer<typeof stockRecordSchema>;

export const movementSchema = z.object({
  id: z.string(),
  type: z.enum(MOVEMENT_TYPES),
  stockId: z.string(),
  qtyDelta: z.number(),
  qtyAfter: z.number(),
  fromWarehouse: z.string().nullable(),
  fromLocation: z.string().nullable(),
  toWarehouse: z.string().nullable(),
  toLocation: z.string().nullable(),
  reason: z.string().nullable(),
  /** The other record of a split or part move. */
  relatedStockId: z.string().nullable(),
  /** The account id of the person who made the change, and their account name. */
  user: z.string(),
  userName: z.string().nullable(),
  ts: z.string(),
});
export type Movement = z.infer<typeof movementSchema>;

export const LOOKUP_MATCHES = ['stockId', 'location', 'partNumber', 'barcode'] as const;
export const LOOKUP_SORTS = ['location', 'partNumber', 'stockId', 'receivedDate', 'quantity'] as const;

/**
 * A record as a lookup lists it: only what its group (item and place) does not already say, and no
 * audit (stock/get has the whole record). A location lookup lists a hundred records: repeating the
 * item and place in each tripled the answer (docs/inventory.md, Speed).
 */
export const lookupRecordSchema = stockRecordSchema.pick({
  _id: true,
  _rev: true,
  stockId: true,
  quantity: true,
  conditionCode: true,
  lot: true,
  serial: true,
  certSource: true,
  receivedDate: true,
  changedAt: true,
});
export type LookupRecord = z.infer<typeof lookupRecordSchema>;

/** Stock of one item in one location, in the lookup's order. */
export const lookupGroupSchema = z.object({
  ...placedItem,
  quantity: z.number(),
  records: z.array(lookupRecordSchema),
});
export type LookupGroup = z.infer<typeof lookupGroupSchema>;

/** A stock record of a list, with its item and place: a lookup record with its group's fields. */
export type ListedStock = Omit<StockRecord, 'x$audit'>;

/** A lookup group's records with the group's item and place filled in, for flat lists of records. */
export function groupRecords(g: LookupGroup): ListedStock[] {
  const { records, quantity: _total, ...shared } = g;
  return records.map((r) => ({ ...shared, ...r }));
}

export const importProblemSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
/**
 * What an import did. All or nothing: with any rejected row nothing is imported, and the call
 * answers 400 ERR_BAD_INPUT whose `detail` is this report as JSON (see importReportOf).
 */
export const importReportSchema = z.object({
  entity: z.enum(CSV_ENTITIES),
  /** Data rows read (the header and blank lines not counted). */
  rows: z.number().int(),
  imported: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  rejectedCount: z.number().int(),
  /** The first IMPORT_REPORT_MAX problems: row (the header is row 1), field, message. */
  rejected: z.array(importProblemSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a refused import says: how many problems, and where, the header row told apart from the data
 * rows ("3 problems in the header row and 2 of 40 data rows"; never "12 problems in 2 of 1 rows").
 */
export function importRefusalSummary(r: ImportReport): string {
  const inHeader = r.rejected.some((p) => p.row === 1);
  const badRows = new Set(r.rejected.filter((p) => p.row > 1).map((p) => p.row)).size;
  const where = [inHeader ? 'the header row' : '', badRows > 0 ? `${badRows} of ${plural(r.rows, 'data row', 'data rows')}` : ''].filter(Boolean).join(' and ');
  return `${plural(r.rejectedCount, 'problem', 'problems')}${where ? ` in ${where}` : ''}; nothing was imported. Correct the file and import it again.`;
}

/** The report of a refused import from its error, or undefined. */
export function importReportOf(err: { detail?: string } | undefined): ImportReport | undefined {
  try {
    const parsed = importReportSchema.safeParse(JSON.parse(err?.detail ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Calls

const withErr = <T extends z.ZodRawShape>(shape: T) => z.object({ err: serverErrSchema.optional(), ...shape });
/** A record as typed (see the EntityDefs): checked by the record engine for the spec's messages. `_id` and `_rev` to update. */
const recordInput = z.record(z.string(), z.unknown());
const page = { offset: z.number().int().min(0).max(1_000_000).default(0), limit: z.number().int().min(1).max(INVENTORY_MAX_ROWS).default(100) };
const stockIdInput = scanCode.max(40);
/** The revision the client read; when given and stale, the change is refused with 409. */
const expectedRev = z.number().int().min(1).optional();
const stockChange = withErr({ stock: stockRecordSchema.optional(), newStock: stockRecordSchema.optional(), movements: z.array(movementSchema).optional() });

/** The longest value stock/lookup takes: longer than any stock id, part number, barcode or location code. */
export const LOOKUP_VALUE_MAX = 100;

export function inventoryCalls(base: typeof callBase) {
  return {
    'stock/lookup': {
      locId: undefined,
      auth: 'required',
      /** One scanned or typed value: a stock id, location code, part number or barcode; every kind that matches counts. */
      body: base.extend({
        value: z.string().trim().min(1).max(LOOKUP_VALUE_MAX),
        warehouse: code.optional(),
        conditionCode: code.optional(),
        department: code.optional(),
        showZeroQty: z.boolean().default(false),
        /** With showZeroQty: zero-quantity records changed within this many months (spec default 1). */
        zeroQtyMonths: z.number().int().min(0).max(1200).default(ZERO_QTY_MONTHS_DEFAULT),
        sort: z.enum(LOOKUP_SORTS).default('location'),
        desc: z.boolean().default(false),
        maxRows: z.number().int().min(1).max(INVENTORY_MAX_ROWS).default(INVENTORY_MAX_ROWS),
      }),
      response: withErr({
        /** What the value matched; empty when nothing did. */
        matchedAs: z.array(z.enum(LOOKUP_MATCHES)).optional(),
        groups: z.array(lookupGroupSchema).optional(),
        rowCount: z.number().int().optional(),
        /** More records match than maxRows. */
        more: z.boolean().optional(),
      }),
    },
    'stock/get': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ stockId: stockIdInput }),
      response: withErr({ stock: stockRecordSchema.optional(), movements: z.array(movementSchema).optional(), moreMovements: z.boolean().optional() }),
    },
    'stock/receive': {
      locId: undefined,
      auth: 'required',
      /** `record` as stockRecordEntity: stockId?, partNumber, warehouse, location, quantity > 0, conditionCode?, lot?, serial?, certSource?, receivedDate? (today). */
      body: base.extend({ idempotencyKey: idempotencyKeySchema, record: recordInput }),
      response: stockChange,
    },
    'stock/adjust': {
      locId: undefined,
      auth: 'required',
      /** delta: qty is added (may be negative); absolute: qty is the new quantity. The reason is one of app settings' stockAdjust.reasons. */
      body: base.extend({
        idempotencyKey: idempotencyKeySchema,
        stockId: stockIdInput,
        deltaType: z.enum(DELTA_TYPES),
        qty: quantityInput,
        reason: z.string().min(1).max(100),
        _rev: expectedRev,
      }),
      response: stockChange,
    },
    'stock/move': {
      locId: undefined,
      auth: 'required',
      /** Without qty (or with all of it) the record moves; with less, a new record is split off at the destination (newStock). */
      body: base.extend({
        idempotencyKey: idempotencyKeySchema,
        stockId: stockIdInput,
        qty: quantityInput.optional(),
        /** Warehouse code of the destination; the record's own warehouse when absent. */
        toWarehouse: code.optional(),
        toLocation: scanCode.max(40),
        _rev: expectedRev,
      }),
      response: stockChange,
    },
    'stock/split': {
      locId: undefined,
      auth: 'required',
      /** qty leaves the record for a new one in the same location (newStock). */
      body: base.extend({ idempotencyKey: idempotencyKeySchema, stockId: stockIdInput, qty: quantityInput, _rev: expectedRev }),
      response: stockChange,
    },
    'warehouse/list': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ active: z.boolean().optional() }),
      response: withErr({ warehouses: z.array(warehouseSchema).optional(), more: z.boolean().optional() }),
    },
    'warehouse/save': {
      locId: undefined,
      auth: 'required',
      /** `record` as warehouseEntity; without `_id` it is created, with `_id` and `_rev` updated. */
      body: base.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInput }),
      response: withErr({ warehouse: warehouseSchema.optional() }),
    },
    'location/list': {
      locId: undefined,
      auth: 'required',
      /** Ordered by warehouse and code; `search` matches the start of the code or any part of the description. */
      body: base.extend({ warehouse: code.optional(), active: z.boolean().optional(), search: z.string().trim().max(100).optional(), ...page }),
      response: withErr({ locations: z.array(locationSchema).optional(), more: z.boolean().optional() }),
    },
    'location/get': {
      locId: undefined,
      auth: 'required',
      /** The location with its stock (quantity above zero), up to 499 records by part number. */
      body: base.extend({ warehouse: code, code: scanCode.max(40) }),
      response: withErr({ location: locationSchema.optional(), stock: z.array(stockRecordSchema).optional(), more: z.boolean().optional() }),
    },
    'location/save': {
      locId: undefined,
      auth: 'required',
      /** `record` as locationEntity; without `_id` it is created, with `_id` and `_rev` updated (the warehouse cannot change). */
      body: base.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInput }),
      response: withErr({ location: locationSchema.optional() }),
    },
    'location/deactivate': {
      locId: undefined,
      auth: 'required',
      /** Refused with 409 while the location holds stock. */
      body: base.extend({ idempotencyKey: idempotencyKeySchema.optional(), warehouse: code, code: scanCode.max(40), _rev: expectedRev }),
      response: withErr({ location: locationSchema.optional() }),
    },
    'item/list': {
      locId: undefined,
      auth: 'required',
      /** Ordered by part number; `search` matches the start of the part number or any part of the description. */
      body: base.extend({ search: z.string().trim().max(100).optional(), department: code.optional(), active: z.boolean().optional(), ...page }),
      response: withErr({ items: z.array(itemSchema).optional(), more: z.boolean().optional() }),
    },
    'item/get': {
      locId: undefined,
      auth: 'required',
      body: base.extend({ partNumber: scanCode.max(60) }),
      response: withErr({
        item: itemSchema.optional(),
        /** On-hand quantity per warehouse. */
        stock: z.array(z.object({ warehouse: z.string(), records: z.number().int(), quantity: z.number() })).optional(),
      }),
    },
    'item/save': {
      locId: undefined,
      auth: 'required',
      /** `record` as itemEntity; barcodes replace the item's aliases. Tracking cannot change while the item has stock. */
      body: base.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInput }),
      response: withErr({ item: itemSchema.optional() }),
    },
    'import/csv': {
      locId: undefined,
      auth: 'required',
      /** CSV text with a header row (CSV_COLUMNS); all or nothing in one transaction. */
      body: base.extend({ idempotencyKey: idempotencyKeySchema.optional(), entity: z.enum(CSV_ENTITIES), csv: z.string().min(1).max(IMPORT_MAX_BYTES) }),
      response: withErr({ report: importReportSchema.optional() }),
    },
    'export/csv': {
      locId: undefined,
      auth: 'required',
      /** Answers text/csv (not JSON) with the import's columns; also GET /api/export/csv?entity=…&warehouse=… with the bearer token. */
      body: base.extend({ entity: z.enum(CSV_ENTITIES), warehouse: code.optional() }),
      response: withErr({}),
    },
  } as const;
}
