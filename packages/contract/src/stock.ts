import { z } from 'zod';
import { PACK_PICK_MAX_ROWS, ZERO_QTY_MONTHS_DEFAULT } from './constants.ts';
import { QTY_MAX_TEXT, parseQty } from './quantity.ts';
import type { EntityDef } from './records/schema-model.ts';
import {
  callBase,
  code,
  controlFields,
  expectedRev,
  idempotencyKeySchema,
  INVENTORY_MAX_ROWS,
  recordInputSchema,
  SCAN_CODE_REGEX,
  scanCode,
  withErr,
} from './common.ts';
import { TRACKING } from './items.ts';
import { ORDER_TYPES } from './site-admin.ts';
import { tk } from './i18n.ts';

// Stock (docs/inventory.md): stock records, the movement ledger, lookup, and the calls that change
// stock (receive, adjust, move, split). Receipts a user types or imports are checked with the record
// layer's engine against stockRecordEntity, so forms, CSV rows and the API give the same messages.

/** Every kind of change of a stock record; a receipt is each record's first movement. */
export const MOVEMENT_TYPES = ['receive', 'adjust', 'move', 'split', 'pick', 'unpick', 'pack', 'ship', 'issue', 'count'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
export const DELTA_TYPES = ['delta', 'absolute'] as const;

/** Movements stock/get answers, newest first. */
export const MOVEMENT_HISTORY_MAX = PACK_PICK_MAX_ROWS;
/** A quantity as a JSON number or decimal text, at most four decimals (numeric(15,4)); answered as its canonical text. */
export const quantityInput = z.union([z.number(), z.string().max(40)]).transform((value, ctx) => {
  const parsed = parseQty(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.units;
});

/** A receipt (stock/receive, a row of a stock import). The stock id is made by the server when absent. */
export const stockRecordEntity: EntityDef = {
  type: 'stockRecord',
  title: 'Stock Record',
  idFieldName: 'stockId',
  displayIdFieldName: 'partNumber',
  fields: [
    { name: 'stockId', label: tk('Stock Id'), dataType: 'string', conditions: { max: 40, regex: SCAN_CODE_REGEX } },
    { name: 'partNumber', label: tk('Part Number'), dataType: 'string', conditions: { required: true, max: 60 } },
    { name: 'warehouse', label: tk('Warehouse'), dataType: 'string', conditions: { required: true, max: 20 } },
    { name: 'location', label: tk('Location'), dataType: 'string', conditions: { required: true, max: 40 } },
    // The engine checks the type and range; the server also refuses more than four decimals.
    { name: 'quantity', label: tk('Quantity'), dataType: 'numeric', conditions: { required: true, min: 0, max: Number(QTY_MAX_TEXT) } },
    { name: 'conditionCode', label: tk('Condition Code'), dataType: 'string', conditions: { max: 20 } },
    { name: 'lot', label: tk('Lot'), dataType: 'string', conditions: { max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'serial', label: tk('Serial'), dataType: 'string', conditions: { max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'certSource', label: tk('Certificate Source'), dataType: 'string', conditions: { max: 100 } },
    { name: 'receivedDate', label: tk('Received Date'), dataType: 'date' },
  ],
};

// ---------------------------------------------------------------------------------------------
// Answers

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
  ...controlFields,
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

/** What a lookup value matched; `order`: an order number, whose picked (and shipped or issued) stock is shown. */
export const LOOKUP_MATCHES = ['stockId', 'location', 'partNumber', 'barcode', 'order'] as const;
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

// ---------------------------------------------------------------------------------------------
// Calls

const stockIdInput = scanCode.max(40);
const stockChange = withErr({
  stock: stockRecordSchema.optional(),
  newStock: stockRecordSchema.optional(),
  movements: z.array(movementSchema).optional(),
});

/** The longest value stock/lookup takes: longer than any stock id, part number, barcode or location code. */
export const LOOKUP_VALUE_MAX = 100;

/**
 * A location whose stock quantities are hidden from the caller: it is on a blind count sheet the caller
 * counts (docs/physical-inventory.md, Blind counts everywhere). `message` says so, for the screen.
 */
export const blindPlaceSchema = z.object({
  warehouse: z.string(),
  location: z.string(),
  sheet: z.string(),
  message: z.string(),
  /** Hidden for a recount in review (blind on every sheet), not for the first count. */
  recount: z.boolean().optional(),
});
export type BlindPlace = z.infer<typeof blindPlaceSchema>;

export const stockCalls = {
  'stock/lookup': {
    locId: undefined,
    auth: 'required',
    /** One scanned or typed value: a stock id, location code, part number, barcode or order number; every kind that matches counts. */
    body: callBase.extend({
      value: z.string().trim().min(1).max(LOOKUP_VALUE_MAX),
      warehouse: code.optional(),
      /** Only stock picked for an order of this type and not yet shipped or issued (the spec's order-type filter); an order number matches only orders of this type. */
      orderType: z.enum(ORDER_TYPES).optional(),
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
      /** Matching stock withheld: it lies in these locations, counted blind by the caller (no group, record or quantity of theirs is in the answer). */
      blind: z.array(blindPlaceSchema).optional(),
    }),
  },
  'stock/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ stockId: stockIdInput }),
    response: withErr({
      stock: stockRecordSchema.optional(),
      movements: z.array(movementSchema).optional(),
      moreMovements: z.boolean().optional(),
    }),
  },
  'stock/receive': {
    locId: undefined,
    auth: 'required',
    /** `record` as stockRecordEntity: stockId?, partNumber, warehouse, location, quantity > 0, conditionCode?, lot?, serial?, certSource?, receivedDate? (today). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, record: recordInputSchema }),
    response: stockChange,
  },
  'stock/adjust': {
    locId: undefined,
    auth: 'required',
    /** delta: qty is added (may be negative); absolute: qty is the new quantity. The reason is one of app settings' stockAdjust.reasons. */
    body: callBase.extend({
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
    body: callBase.extend({
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
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, stockId: stockIdInput, qty: quantityInput, _rev: expectedRev }),
    response: stockChange,
  },
} as const;
