// Warehouses, locations, items, stock records, the movement ledger and idempotency keys.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { audit, quantity } from './columns.ts';
import { orgRef } from './org.ts';

// Inventory (docs/inventory.md). Everything is scoped by organisation; ids are server-made UUIDs,
// codes are what people scan and type. Lookups start at an org-scoped unique code and follow ids.

export const warehouses = pgTable(
  'warehouses',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    code: varchar('code', { length: 20 }).notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [uniqueIndex('warehouses_org_code').on(t.orgId, t.code)],
);

export const locations = pgTable(
  'locations',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    warehouseId: varchar('warehouse_id', { length: 40 })
      .notNull()
      .references(() => warehouses.id),
    code: varchar('code', { length: 40 }).notNull(),
    description: text('description').notNull().default(''),
    type: varchar('type', { length: 20 }).notNull().default('bin'),
    active: boolean('active').notNull().default(true),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('locations_warehouse_code').on(t.warehouseId, t.code),
    // A scanned location code is looked up in every warehouse of the organisation.
    index('locations_org_code').on(t.orgId, t.code),
    // Target of stock_records' (location, warehouse) reference: a record's warehouse is its location's.
    unique('locations_id_warehouse').on(t.id, t.warehouseId),
    // A warehouse's staging places, in code order: every pick confirm of an order without its own
    // staging place takes the first (without it, a scan of all the warehouse's locations per pick).
    index('locations_staging')
      .on(t.warehouseId, t.code)
      .where(sql`${t.type} = 'staging'`),
  ],
);

export const items = pgTable(
  'items',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    partNumber: varchar('part_number', { length: 60 }).notNull(),
    description: text('description').notNull(),
    uom: varchar('uom', { length: 10 }).notNull().default('EA'),
    /** Code of a department record (record layer). */
    department: varchar('department', { length: 20 }),
    tracking: varchar('tracking', { length: 10 }).notNull().default('none'),
    active: boolean('active').notNull().default(true),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('items_org_part_number').on(t.orgId, t.partNumber),
    check('items_tracking', sql`${t.tracking} in ('none', 'lot', 'serial')`),
  ],
);

/** Barcode aliases of items: one alias names one item in an organisation. */
export const itemBarcodes = pgTable(
  'item_barcodes',
  {
    orgId: orgRef(),
    barcode: varchar('barcode', { length: 100 }).notNull(),
    itemId: varchar('item_id', { length: 40 })
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'item_barcodes_org_barcode', columns: [t.orgId, t.barcode] }), index('item_barcodes_item').on(t.itemId)],
);

/** Server-made stock ids: 'S' and this number, zero-padded. */
export const stockIdSeq = pgSequence('stock_id_seq');

export const stockRecords = pgTable(
  'stock_records',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    /** Printed on the stock label. */
    stockId: varchar('stock_id', { length: 40 }).notNull(),
    itemId: varchar('item_id', { length: 40 })
      .notNull()
      .references(() => items.id),
    warehouseId: varchar('warehouse_id', { length: 40 }).notNull(),
    locationId: varchar('location_id', { length: 40 }).notNull(),
    quantity: quantity('quantity').notNull(),
    conditionCode: varchar('condition_code', { length: 20 }),
    lot: varchar('lot', { length: 60 }),
    serial: varchar('serial', { length: 60 }),
    certSource: varchar('cert_source', { length: 100 }),
    receivedDate: date('received_date', { mode: 'string' }),
    /** Last change of quantity or place: the zeroQtyMonths filter. */
    changedAt: timestamp('changed_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('stock_records_org_stock_id').on(t.orgId, t.stockId),
    index('stock_records_item').on(t.itemId),
    index('stock_records_location').on(t.locationId),
    // One unit per serial on hand; a serial shipped (quantity 0) may come back as a new record.
    uniqueIndex('stock_records_item_serial')
      .on(t.itemId, t.serial)
      .where(sql`${t.serial} is not null and ${t.quantity} > 0`),
    foreignKey({
      name: 'stock_records_location_fk',
      columns: [t.locationId, t.warehouseId],
      foreignColumns: [locations.id, locations.warehouseId],
    }),
    check('stock_records_quantity', sql`${t.quantity} >= 0`),
    check('stock_records_serial_quantity', sql`${t.serial} is null or ${t.quantity} <= 1`),
  ],
);

/**
 * The movement ledger: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), one row per change
 * of a stock record, written in the transaction of the change. Per record, qty_delta sums to quantity.
 */
export const movements = pgTable(
  'movements',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }),
    stockRecordId: varchar('stock_record_id', { length: 40 })
      .notNull()
      .references(() => stockRecords.id),
    type: varchar('type', { length: 10 }).notNull(),
    qtyDelta: quantity('qty_delta').notNull(),
    qtyAfter: quantity('qty_after').notNull(),
    fromLocationId: varchar('from_location_id', { length: 40 }).references(() => locations.id),
    toLocationId: varchar('to_location_id', { length: 40 }).references(() => locations.id),
    reason: text('reason'),
    relatedStockRecordId: varchar('related_stock_record_id', { length: 40 }),
    /** The person (account id from the token), or 'system' for seeded data. */
    accountId: varchar('account_id', { length: 40 }).notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 100 }),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    index('movements_stock_record').on(t.stockRecordId, t.id),
    index('movements_org_ts').on(t.orgId, t.ts),
    check('movements_type', sql`${t.type} in ('receive', 'adjust', 'move', 'split', 'pick', 'unpick', 'pack', 'ship', 'issue', 'count')`),
    check('movements_qty_after', sql`${t.qtyAfter} >= 0`),
  ],
);

/** Answers of writes by idempotency key: a retry with the same key gets the first answer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    orgId: orgRef(),
    key: varchar('key', { length: 100 }).notNull(),
    call: varchar('call', { length: 60 }).notNull(),
    /** SHA-256 of the call and its body: the same key with another request is refused. */
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    response: jsonb('response').notNull(),
    accountId: varchar('account_id', { length: 40 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_org_key', columns: [t.orgId, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);
