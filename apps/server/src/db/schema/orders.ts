// Orders, their lines, picks, packages and backorders (docs/orders.md).
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { audit, quantity } from './columns.ts';
import { orgRef } from './org.ts';
import { items, locations, stockRecords, warehouses } from './stock.ts';

// ── orders ──

/** Orders of the spec's types (sos, sms, rst, wos, mos): one per type and number in an organisation. */
export const orders = pgTable(
  'orders',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    type: varchar('type', { length: 3 }).notNull(),
    number: varchar('number', { length: 60 }).notNull(),
    status: varchar('status', { length: 40 }).notNull(),
    warehouseId: varchar('warehouse_id', { length: 40 })
      .notNull()
      .references(() => warehouses.id),
    customer: text('customer'),
    /** The ship-to address, lines separated by newlines (printed on the packing list). */
    shipTo: text('ship_to'),
    dueDate: date('due_date', { mode: 'string' }),
    priority: integer('priority').notNull().default(0),
    notes: text('notes'),
    /** Where picked stock goes; the warehouse's first staging location when null. */
    stagingLocationId: varchar('staging_location_id', { length: 40 }).references(() => locations.id),
    department: varchar('department', { length: 20 }),
    /** The person who took the order (pick/claim). */
    claimedBy: varchar('claimed_by', { length: 40 }),
    /**
     * The aisles of the pick's walk as it began (contract/walk-order.ts `walkAisles`), kept from the
     * first pick list on: each aisle's way is decided once per order (issue 25 item 7).
     */
    walkAisles: integer('walk_aisles').array(),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('orders_org_type_number').on(t.orgId, t.type, t.number),
    index('orders_org_number').on(t.orgId, t.number),
    index('orders_org_status').on(t.orgId, t.status),
    check('orders_type', sql`${t.type} in ('sos', 'sms', 'rst', 'wos', 'mos')`),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    orderId: varchar('order_id', { length: 40 })
      .notNull()
      .references(() => orders.id),
    lineNo: integer('line_no').notNull(),
    itemId: varchar('item_id', { length: 40 })
      .notNull()
      .references(() => items.id),
    qty: quantity('qty').notNull(),
    qtyPicked: quantity('qty_picked').notNull().default('0'),
    qtyShort: quantity('qty_short').notNull().default('0'),
    qtyShipped: quantity('qty_shipped').notNull().default('0'),
    status: varchar('status', { length: 10 }).notNull().default('open'),
    shortReason: text('short_reason'),
    claimedBy: varchar('claimed_by', { length: 40 }),
    skipSeq: integer('skip_seq').notNull().default(0),
    rev: integer('_rev').notNull().default(1),
  },
  (t) => [
    uniqueIndex('order_lines_order_line_no').on(t.orderId, t.lineNo),
    index('order_lines_item').on(t.itemId),
    check('order_lines_status', sql`${t.status} in ('open', 'picked', 'short', 'cancelled')`),
    check('order_lines_qty', sql`${t.qty} > 0`),
    // Never over-picked: what is picked and closed short never exceeds what is wanted.
    check('order_lines_not_over', sql`${t.qtyPicked} >= 0 and ${t.qtyShort} >= 0 and ${t.qtyPicked} + ${t.qtyShort} <= ${t.qty}`),
  ],
);

/** Stock records picked for an order line: the record now at the staging place, until unpicked or shipped. */
export const orderPicks = pgTable(
  'order_picks',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    orderId: varchar('order_id', { length: 40 })
      .notNull()
      .references(() => orders.id),
    lineId: varchar('line_id', { length: 40 })
      .notNull()
      .references(() => orderLines.id),
    stockRecordId: varchar('stock_record_id', { length: 40 })
      .notNull()
      .references(() => stockRecords.id),
    qty: quantity('qty').notNull(),
    fromLocationId: varchar('from_location_id', { length: 40 })
      .notNull()
      .references(() => locations.id),
    toLocationId: varchar('to_location_id', { length: 40 })
      .notNull()
      .references(() => locations.id),
    /** picked, unpicked (returned), shipped or issued. */
    state: varchar('state', { length: 10 }).notNull().default('picked'),
    /** The package it is packed in (shipping), until shipped with it or unpacked. */
    packageId: varchar('package_id', { length: 40 }),
    accountId: varchar('account_id', { length: 40 }).notNull(),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    index('order_picks_line').on(t.lineId),
    index('order_picks_order').on(t.orderId),
    // A stock record is picked for one line at a time.
    uniqueIndex('order_picks_stock_active')
      .on(t.stockRecordId)
      .where(sql`${t.state} = 'picked'`),
    check('order_picks_state', sql`${t.state} in ('picked', 'unpicked', 'shipped', 'issued')`),
  ],
);

/** Packages of an order (shipping): a container with its own id and label, shipped one by one. */
export const packages = pgTable(
  'packages',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    orderId: varchar('order_id', { length: 40 })
      .notNull()
      .references(() => orders.id),
    /** Printed on the package label: the order number and a sequence. */
    packageNo: varchar('package_no', { length: 80 }).notNull(),
    type: varchar('type', { length: 40 }).notNull().default('box'),
    weight: quantity('weight'),
    length: quantity('length'),
    width: quantity('width'),
    height: quantity('height'),
    carrier: varchar('carrier', { length: 60 }),
    service: varchar('service', { length: 60 }),
    tracking: varchar('tracking', { length: 100 }),
    /** open or shipped. */
    status: varchar('status', { length: 10 }).notNull().default('open'),
    shippedAt: timestamp('shipped_at', { withTimezone: true, mode: 'string' }),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('packages_org_package_no').on(t.orgId, t.packageNo),
    index('packages_order').on(t.orderId),
    check('packages_status', sql`${t.status} in ('open', 'shipped')`),
    check(
      'packages_measures',
      sql`coalesce(${t.weight}, 0) >= 0 and coalesce(${t.length}, 0) >= 0 and coalesce(${t.width}, 0) >= 0 and coalesce(${t.height}, 0) >= 0`,
    ),
  ],
);

// ── backorders (docs/orders.md, "Short picks and backorders") ──

/** A line closed short whose rest went on a backorder: the backorder's line that holds it. */
export const orderBackorders = pgTable(
  'order_backorders',
  {
    lineId: varchar('line_id', { length: 40 })
      .primaryKey()
      .references(() => orderLines.id),
    orgId: orgRef(),
    backorderLineId: varchar('backorder_line_id', { length: 40 })
      .notNull()
      .references(() => orderLines.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [index('order_backorders_backorder_line').on(t.backorderLineId)],
);
