import { z } from 'zod';
import { PACK_PICK_MAX_ROWS } from './constants.ts';
import { callBase, code, controlFields, idempotencyKeySchema, idSchema, INVENTORY_MAX_ROWS, scanCode, withErr } from './common.ts';
import { orderHeaderSchema, orderTypeSchema, pickSchema } from './orders.ts';
import { quantityInput } from './stock.ts';
import { tk } from './i18n.ts';

// Shipping (docs/orders.md): packages of picked sales and movement orders, packed by scan and shipped
// one by one (ship movements); work, manufacturing and routing orders are issued to production
// instead (issue movements).

/** An order's status when all its picked stock has shipped and no line is open; and when some has. */
export const ORDER_SHIPPED = 'shipped';
export const ORDER_PART_SHIPPED = 'partly shipped';
export const ORDER_ISSUED = 'issued';
export const ORDER_PART_ISSUED = 'partly issued';
// Each is also a word on the screen: a catalogue key.
export const PACKAGE_TYPES_DEFAULT = [tk('box'), tk('envelope'), tk('pallet'), tk('crate')] as const;

/** A package's measures and the unit of each (the package form shows the unit in the label). */
export const PACKAGE_MEASURE_UNITS: ReadonlyMap<'weight' | 'length' | 'width' | 'height', string> = new Map([
  ['weight', 'kg'],
  ['length', 'cm'],
  ['width', 'cm'],
  ['height', 'cm'],
]);
/** The longest text of a package's text fields (the form's fields stop there too). */
export const PACKAGE_TEXT_MAX: ReadonlyMap<'type' | 'carrier' | 'service' | 'tracking', number> = new Map([
  ['type', 40],
  ['carrier', 60],
  ['service', 60],
  ['tracking', 100],
]);
/** Said of a measure below 0 (the server refuses it with "The weight must not be negative"). */
export const MEASURE_NEGATIVE = tk('must not be negative');

const measure = quantityInput.optional();
const text = (field: 'type' | 'carrier' | 'service' | 'tracking') => z.string().trim().max(PACKAGE_TEXT_MAX.get(field)!).optional();
/** What a packer types about a package; every field optional on update. */
const packageFields = {
  type: z.string().trim().min(1).max(PACKAGE_TEXT_MAX.get('type')!).optional(),
  /** kg */
  weight: measure,
  /** cm */
  length: measure,
  width: measure,
  height: measure,
  carrier: text('carrier'),
  service: text('service'),
  tracking: text('tracking'),
};

export const packageSchema = z.object({
  ...controlFields,
  orderId: z.string(),
  packageNo: z.string(),
  type: z.string(),
  weight: z.number().nullable(),
  length: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  carrier: z.string().nullable(),
  service: z.string().nullable(),
  tracking: z.string().nullable(),
  status: z.enum(['open', 'shipped']),
  shippedAt: z.string().nullable(),
  /** Stock ids packed in it. */
  stockIds: z.array(z.string()),
});
export type Package = z.infer<typeof packageSchema>;

/** Picked stock of an order at its staging place, and the package it is in. */
export const stagedSchema = pickSchema.extend({
  partNumber: z.string(),
  uom: z.string(),
  packageId: z.string().nullable(),
  state: z.string(),
});
export type Staged = z.infer<typeof stagedSchema>;

/** The order types that are packed and shipped (work, manufacturing and routing orders are issued instead). */
export const SHIPPED_ORDER_TYPES = ['sos', 'sms'] as const;
/** How much of an order is picked: every line done, some lines picked, nothing picked. */
export const PICKED_SHARES = ['all', 'part', 'none'] as const;
/** The pack board's sorts; `picked` is how much is picked (none, part, all), then the share of the quantity picked. */
export const PACK_SORTS = ['dueDate', 'priority', 'number', 'picked'] as const;

/** A pack board row: an order with how much of it is picked (all, part, none). */
export const boardRowSchema = orderHeaderSchema.extend({ picked: z.enum(PICKED_SHARES), packageCount: z.number().int() });
export type BoardRow = z.infer<typeof boardRowSchema>;

/** The weight is required before ship when a carrier is named (carriers refuse a parcel without one). */
export function shipProblem(p: Pick<Package, 'packageNo' | 'carrier' | 'weight' | 'stockIds' | 'status'>): string | undefined {
  if (p.status === 'shipped') return tk(`The package '${p.packageNo}' is shipped already`);
  if (p.stockIds.length === 0) return tk(`The package '${p.packageNo}' is empty`);
  if (p.carrier && (p.weight === null || p.weight <= 0))
    return tk(`The package '${p.packageNo}' needs its weight: the carrier ${p.carrier} asks for it`);
  return undefined;
}

const orderRef = { orderId: idSchema.optional(), type: orderTypeSchema.optional(), number: scanCode.max(60).optional() };

export const shippingCalls = {
  'ship/board': {
    locId: undefined,
    auth: 'required',
    /**
     * Sales and movement orders with picked stock or pickable statuses, not shipped or cancelled; the
     * stockPack preferences' filters (warehouse, order type, how much is picked, department of the order
     * or of an item on it) and sort, applied by the server.
     */
    body: callBase.extend({
      warehouse: code.optional(),
      type: z.enum(SHIPPED_ORDER_TYPES).optional(),
      picked: z.enum(PICKED_SHARES).optional(),
      department: code.optional(),
      sort: z.enum(PACK_SORTS).default('dueDate'),
      desc: z.boolean().default(false),
      maxRows: z.number().int().min(1).max(INVENTORY_MAX_ROWS).default(PACK_PICK_MAX_ROWS),
    }),
    response: withErr({ orders: z.array(boardRowSchema).optional(), more: z.boolean().optional() }),
  },
  'ship/order': {
    locId: undefined,
    auth: 'required',
    /** An order to pack: its staged stock and its packages. */
    body: callBase.extend(orderRef),
    response: withErr({
      order: orderHeaderSchema.optional(),
      staged: z.array(stagedSchema).optional(),
      packages: z.array(packageSchema).optional(),
    }),
  },
  'package/save': {
    locId: undefined,
    auth: 'required',
    /** A new package of the order (without packageId), or the fields of an open one. */
    body: callBase.extend({ orderId: idSchema, packageId: idSchema.optional(), ...packageFields }),
    response: withErr({ package: packageSchema.optional() }),
  },
  'package/pack': {
    locId: undefined,
    auth: 'required',
    /** A scanned stock label into the package: refused when of another order, not picked, or packed already. */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, packageId: idSchema, stockId: scanCode.max(40) }),
    response: withErr({ package: packageSchema.optional() }),
  },
  'package/unpack': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, packageId: idSchema, stockId: scanCode.max(40) }),
    response: withErr({ package: packageSchema.optional() }),
  },
  'ship/confirm': {
    locId: undefined,
    auth: 'required',
    /** Ships one package, or every open package of the order with something in it: the stock leaves the warehouse (ship movements). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, orderId: idSchema, packageId: idSchema.optional() }),
    response: withErr({
      packages: z.array(packageSchema).optional(),
      orderStatus: z.string().optional(),
      movementCount: z.number().int().optional(),
    }),
  },
  'package/packingList': {
    locId: undefined,
    auth: 'required',
    /**
     * The packing list of a package as a PDF (base64): the package's barcode (Code 128 of its number),
     * order, customer, ship-to address, package, and one row per order line in it (item, description,
     * quantity packed in this package and ordered, lots or serials). `records`: stock records packed;
     * `lines`: order lines (the table's rows).
     */
    body: callBase.extend({ packageId: idSchema }),
    response: withErr({
      pdf: z.string().optional(),
      fileName: z.string().optional(),
      records: z.number().int().optional(),
      lines: z.number().int().optional(),
    }),
  },
  'order/issue': {
    locId: undefined,
    auth: 'required',
    /** Work, manufacturing and routing orders: the picked stock goes to production (issue movements). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, orderId: idSchema }),
    response: withErr({ orderStatus: z.string().optional(), movementCount: z.number().int().optional() }),
  },
} as const;
