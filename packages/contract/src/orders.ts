import { z } from 'zod';
import { PACK_PICK_MAX_ROWS } from './constants.ts';
import {
  callBase,
  code,
  controlFields,
  idempotencyKeySchema,
  idSchema,
  INVENTORY_MAX_ROWS,
  page,
  SCAN_CODE_REGEX,
  scanCode,
  withErr,
} from './common.ts';
import { QTY_MAX_TEXT } from './quantity.ts';
import type { EntityDef } from './records/schema-model.ts';
import { TRACKING } from './items.ts';
import { APP_SETTINGS_DEFAULTS, appSettingsSchema, ORDER_TYPES, SHORT_PICK_DEFAULT, type ShortPickMode } from './site-admin.ts';
import { quantityInput } from './stock.ts';
import { tk } from './i18n.ts';

// Orders (docs/orders.md): sales (sos), sales-movement (sms), routing (rst), work (wos) and
// manufacturing (mos) orders with their lines; the pick calls that take stock for them. An order is
// keyed by its type and number in the organisation: an ERP re-sending one updates it.

export type OrderType = (typeof ORDER_TYPES)[number];
export const orderTypeSchema = z.enum(ORDER_TYPES);
/** Order types that are issued to production instead of shipped. */
export const PRODUCTION_ORDER_TYPES: ReadonlySet<OrderType> = new Set(['rst', 'wos', 'mos']);
/** The status of a cancelled order (not an app setting: cancelling is the same everywhere). */
export const ORDER_CANCELLED = 'cancelled';
/** The status of a new order when the sender gives none. */
export const ORDER_STATUS_DEFAULT = 'open';
export const LINE_STATUSES = ['open', 'picked', 'short', 'cancelled'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
/** Lines of one order at most (the pick list of 5,000 lines is the design's figure). */
export const ORDER_LINES_MAX = 5000;
export const PICK_SORTS = ['dueDate', 'priority', 'number', 'type'] as const;

export type PickStatuses = z.infer<typeof appSettingsSchema.shape.stockPick>['sos'];
/** The pick statuses of one order type from the site's app settings, or the defaults. */
export function readPickStatuses(appSettings: unknown, type: OrderType): PickStatuses {
  const raw = (appSettings as { stockPick?: unknown } | undefined)?.stockPick;
  const parsed = appSettingsSchema.shape.stockPick.safeParse(raw);
  const all = parsed.success ? parsed.data : APP_SETTINGS_DEFAULTS.stockPick;
  return all[type];
}
/** The status set when a picker takes an order (`assign`), and when it is fully picked (`picked`): the first of each list. */
/** What a short pick of this order type does with the rest of the line. */
export const shortPickMode = (s: PickStatuses): ShortPickMode => s.short ?? SHORT_PICK_DEFAULT;
/** Characters of an order's ship-to address at most (name, street, town, country on their lines). */
export const ORDER_SHIP_TO_MAX = 500;
/** The number of an order's n-th backorder: `SO-1` → `SO-1-BO1`. */
export const backorderNumber = (number: string, n: number): string => `${number}-BO${n}`;
export const assignStatus = (s: PickStatuses): string => s.assign[0] ?? 'picking';
export const pickedStatus = (s: PickStatuses): string => s.picked[0] ?? 'picked';

/** A person as others see them on a claim. */
export const claimantSchema = z.object({ id: z.string(), name: z.string() });
export type Claimant = z.infer<typeof claimantSchema>;

// ---------------------------------------------------------------------------------------------
// Records

const orderLineInput = z.strictObject({
  lineNo: z.number().int().min(1).max(1_000_000),
  partNumber: z.string().trim().min(1).max(60),
  qty: quantityInput,
});
export const orderInputSchema = z.strictObject({
  type: orderTypeSchema,
  number: scanCode.max(60),
  /** A status code; new orders are `open` unless given. */
  status: code.optional(),
  /** Warehouse code. */
  warehouse: code,
  /** Customer or destination. */
  customer: z.string().trim().max(200).optional(),
  /** The ship-to address, its lines separated by newlines (the packing list prints it). */
  shipTo: z.string().trim().max(ORDER_SHIP_TO_MAX).optional(),
  /** YYYY-MM-DD */
  dueDate: z.iso.date().optional(),
  priority: z.number().int().min(0).max(9999).optional(),
  notes: z.string().max(2000).optional(),
  /** Where picked stock is put (a location code in the order's warehouse); the warehouse's first staging location when absent. */
  stagingLocation: scanCode.max(40).optional(),
  department: code.optional(),
  lines: z.array(orderLineInput).min(1).max(ORDER_LINES_MAX),
});
export type OrderInput = z.input<typeof orderInputSchema>;

/**
 * One row of the orders CSV (import/csv entity `orders`): one order line, with its order's header
 * repeated (or given once: empty cells of an order's other rows take it). Rows of one type and number
 * are one order; re-importing it updates it (its lines become the file's) and never makes a second.
 */
export const orderCsvEntity: EntityDef = {
  type: 'orderLine',
  title: 'Order Line',
  idFieldName: 'orderNumber',
  fields: [
    { name: 'orderType', label: tk('Order Type'), dataType: 'string', conditions: { required: true, valid: [...ORDER_TYPES] } },
    { name: 'orderNumber', label: tk('Order Number'), dataType: 'string', conditions: { required: true, max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'status', label: tk('Status'), dataType: 'string', conditions: { max: 40 } },
    { name: 'warehouse', label: tk('Warehouse'), dataType: 'string', conditions: { max: 40 } },
    { name: 'customer', label: tk('Customer'), dataType: 'string', conditions: { max: 200 } },
    { name: 'dueDate', label: tk('Due Date'), dataType: 'date' },
    { name: 'priority', label: tk('Priority'), dataType: 'numeric', conditions: { min: 0, max: 9999 } },
    { name: 'notes', label: tk('Notes'), dataType: 'string', conditions: { max: 2000 } },
    { name: 'stagingLocation', label: tk('Staging Location'), dataType: 'string', conditions: { max: 40, regex: SCAN_CODE_REGEX } },
    { name: 'department', label: tk('Department'), dataType: 'string', conditions: { max: 40 } },
    { name: 'lineNo', label: tk('Line No'), dataType: 'numeric', conditions: { min: 1, max: 1_000_000 } },
    { name: 'partNumber', label: tk('Part Number'), dataType: 'string', conditions: { required: true, max: 60 } },
    { name: 'qty', label: tk('Quantity'), dataType: 'numeric', conditions: { required: true, min: 0, max: Number(QTY_MAX_TEXT) } },
  ],
};
/** The orders CSV's columns, in this order on export. */
export const ORDER_CSV_COLUMNS = orderCsvEntity.fields.map((f) => f.name);
/** The header fields of an order in its CSV rows (the others are the line's). */
export const ORDER_CSV_HEADER_FIELDS = [
  'status',
  'warehouse',
  'customer',
  'dueDate',
  'priority',
  'notes',
  'stagingLocation',
  'department',
] as const;

export const orderLineSchema = z.object({
  _id: z.string(),
  lineNo: z.number().int(),
  itemId: z.string(),
  partNumber: z.string(),
  description: z.string(),
  uom: z.string(),
  tracking: z.enum(TRACKING),
  qty: z.number(),
  picked: z.number(),
  /** What a short pick closed without picking. */
  short: z.number(),
  shipped: z.number(),
  status: z.enum(LINE_STATUSES),
  shortReason: z.string().nullable(),
  claimedBy: claimantSchema.nullable(),
  /** Skipped lines walk last, in the order skipped. */
  skipSeq: z.number().int(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderHeaderSchema = z.object({
  ...controlFields,
  type: orderTypeSchema,
  number: z.string(),
  status: z.string(),
  warehouse: z.string(),
  customer: z.string().nullable(),
  shipTo: z.string().nullable(),
  dueDate: z.string().nullable(),
  priority: z.number().int(),
  notes: z.string().nullable(),
  stagingLocation: z.string().nullable(),
  department: z.string().nullable(),
  claimedBy: claimantSchema.nullable(),
  lineCount: z.number().int(),
  /** Lines no longer open (picked, short or cancelled). */
  doneLineCount: z.number().int(),
});
export type OrderHeader = z.infer<typeof orderHeaderSchema>;
export const orderSchema = orderHeaderSchema.extend({ lines: z.array(orderLineSchema) });
export type Order = z.infer<typeof orderSchema>;

/** Stock a line can be picked from: a record of its item in the order's warehouse, not picked for an order. */
export const pickSourceSchema = z.object({
  stockId: z.string(),
  location: z.string(),
  quantity: z.number(),
  lot: z.string().nullable(),
  serial: z.string().nullable(),
});
/** A picked record at the staging place, as a pick made it. */
export const pickSchema = z.object({
  _id: z.string(),
  lineId: z.string(),
  stockId: z.string(),
  qty: z.number(),
  fromLocation: z.string(),
  toLocation: z.string(),
  pickedBy: claimantSchema,
  ts: z.string(),
});
export type Pick = z.infer<typeof pickSchema>;
export const pickLineSchema = orderLineSchema.extend({ sources: z.array(pickSourceSchema), picks: z.array(pickSchema) });
export type PickLine = z.infer<typeof pickLineSchema>;

const orderRef = { orderId: idSchema.optional(), type: orderTypeSchema.optional(), number: scanCode.max(60).optional() };
const reasonText = z.string().trim().min(1).max(200);

export const orderCalls = {
  'order/save': {
    locId: undefined,
    auth: 'required',
    /** Creates the order, or updates the one of this type and number (lines matched by lineNo; lines left out are removed unless picked). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), order: orderInputSchema }),
    response: withErr({ order: orderSchema.optional(), created: z.boolean().optional() }),
  },
  'order/get': {
    locId: undefined,
    auth: 'required',
    /** By id, or by number (and type, when numbers repeat across types). */
    body: callBase.extend(orderRef),
    response: withErr({ order: orderSchema.optional() }),
  },
  'order/list': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      type: orderTypeSchema.optional(),
      status: code.optional(),
      warehouse: code.optional(),
      number: z.string().max(60).optional(),
      ...page,
    }),
    response: withErr({ orders: z.array(orderHeaderSchema).optional(), more: z.boolean().optional() }),
  },
  'order/cancel': {
    locId: undefined,
    auth: 'required',
    /** Picked stock goes back to the locations it was picked from (unpick movements). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, orderId: idSchema, reason: reasonText.optional() }),
    response: withErr({ order: orderSchema.optional() }),
  },
  'pick/list': {
    locId: undefined,
    auth: 'required',
    /** Orders whose status is in their type's `include` or `assign` statuses, with who holds them. */
    body: callBase.extend({
      warehouse: code.optional(),
      type: orderTypeSchema.optional(),
      department: code.optional(),
      sort: z.enum(PICK_SORTS).default('dueDate'),
      desc: z.boolean().default(false),
      maxRows: z.number().int().min(1).max(INVENTORY_MAX_ROWS).default(PACK_PICK_MAX_ROWS),
    }),
    response: withErr({ orders: z.array(orderHeaderSchema).optional(), more: z.boolean().optional() }),
  },
  'pick/order': {
    locId: undefined,
    auth: 'required',
    /** An order to pick: its lines in walk order (open lines first), each with where its stock is and what was picked. */
    body: callBase.extend(orderRef),
    response: withErr({ order: orderHeaderSchema.optional(), lines: z.array(pickLineSchema).optional() }),
  },
  'pick/claim': {
    locId: undefined,
    auth: 'required',
    /** Takes the order (sets its `assign` status) or, with lineIds, those lines; refused while another person holds them. */
    body: callBase.extend({ orderId: idSchema, lineIds: z.array(idSchema).max(ORDER_LINES_MAX).optional() }),
    response: withErr({ order: orderSchema.optional() }),
  },
  'pick/release': {
    locId: undefined,
    auth: 'required',
    /** Lets go of the caller's claim of the order or of those lines. */
    body: callBase.extend({ orderId: idSchema, lineIds: z.array(idSchema).max(ORDER_LINES_MAX).optional() }),
    response: withErr({ order: orderSchema.optional() }),
  },
  'pick/confirm': {
    locId: undefined,
    auth: 'required',
    /**
     * One scan's pick: `location` the scanned location code, `scan` a stock label (stock id) or, where
     * the location holds one record of the item, its part number or barcode. Less than the record
     * splits it: the picked part becomes a record of its own at the order's staging place.
     */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      lineId: idSchema,
      location: scanCode.max(40),
      scan: scanCode,
      qty: quantityInput,
    }),
    response: withErr({
      line: orderLineSchema.optional(),
      pick: pickSchema.optional(),
      orderStatus: z.string().optional(),
      locationEmpty: z.boolean().optional(),
    }),
  },
  'pick/short': {
    locId: undefined,
    auth: 'required',
    /**
     * A short pick with a reason; per the type's app setting `stockPick.<type>.short` the rest of the
     * line is closed short (`close`), stays open (`open`), or is closed short and put on a backorder
     * (`backorder`: answered as `backorder`, the new or growing order `<number>-BO<n>`).
     */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, lineId: idSchema, reason: reasonText }),
    response: withErr({
      line: orderLineSchema.optional(),
      orderStatus: z.string().optional(),
      backorder: z.object({ _id: z.string(), number: z.string(), lineId: z.string(), qty: z.number() }).optional(),
    }),
  },
  'pick/reportDiscrepancy': {
    locId: undefined,
    auth: 'required',
    /**
     * "Location empty?" answered No: the location a pick of this line was made from still holds
     * something. Asks for a count of it (a blind one-location count sheet, open), or answers the open
     * or counting sheet covering it already (`created` false).
     */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, lineId: idSchema, location: scanCode.max(40) }),
    response: withErr({
      sheet: z.object({ _id: z.string(), code: z.string(), state: z.string() }).optional(),
      created: z.boolean().optional(),
    }),
  },
  'pick/skip': {
    locId: undefined,
    auth: 'required',
    /**
     * Moves the line to the end of the walk. With an idempotency key the skip is made once per key (a
     * device's outbox replays it with the key it was taken with); optional, so a page loaded before
     * keys were sent still skips.
     */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), lineId: idSchema }),
    response: withErr({ line: orderLineSchema.optional() }),
  },
  'pick/unpick': {
    locId: undefined,
    auth: 'required',
    /** Puts a picked record back into a location (by code, in the order's warehouse); the line is open again. */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, pickId: idSchema, toLocation: scanCode.max(40) }),
    response: withErr({ line: orderLineSchema.optional(), orderStatus: z.string().optional() }),
  },
} as const;
