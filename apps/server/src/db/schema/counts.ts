// Physical counts: sheets, their locations, lines, entries, thresholds and cycle frequencies.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { audit, quantity } from './columns.ts';
import { orgRef } from './org.ts';
import { items, locations, stockRecords, warehouses } from './stock.ts';

// ── counts ──
// Physical inventory (docs/physical-inventory.md): count sheets, their locations, count lines
// anchored to the ledger (the stock record's last movement at the scan) and every count entered.

/** Sheet codes: 'CS' and a number from a sequence shared by every node. */
export const countSheetSeq = pgSequence('count_sheet_seq');

export const countSheets = pgTable(
  'count_sheets',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    code: varchar('code', { length: 20 }).notNull(),
    warehouseId: varchar('warehouse_id', { length: 40 })
      .notNull()
      .references(() => warehouses.id),
    description: text('description').notNull().default(''),
    state: varchar('state', { length: 10 }).notNull().default('open'),
    blind: boolean('blind').notNull().default(true),
    /** Account ids of the counters; empty: anyone with the work area. */
    assignees: jsonb('assignees')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdBy: varchar('created_by', { length: 40 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    postedAt: timestamp('posted_at', { withTimezone: true, mode: 'string' }),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('count_sheets_org_code').on(t.orgId, t.code),
    index('count_sheets_org_created').on(t.orgId, t.createdAt),
    /** The blind sheets in progress of an organisation (counts/blind.ts asks on every stock read, cached 2 s). */
    index('count_sheets_blind_active')
      .on(t.orgId)
      .where(sql`${t.blind} and ${t.state} in ('open', 'counting', 'review')`),
    check('count_sheets_state', sql`${t.state} in ('open', 'counting', 'review', 'posted', 'cancelled')`),
  ],
);

export const countSheetLocations = pgTable(
  'count_sheet_locations',
  {
    orgId: orgRef(),
    sheetId: varchar('sheet_id', { length: 40 })
      .notNull()
      .references(() => countSheets.id),
    locationId: varchar('location_id', { length: 40 })
      .notNull()
      .references(() => locations.id),
    /** The newest movement of the organisation when the location was first scanned; null until then. */
    visitedMovementId: bigint('visited_movement_id', { mode: 'number' }),
    visitedBy: varchar('visited_by', { length: 40 }),
  },
  (t) => [primaryKey({ name: 'count_sheet_locations_pk', columns: [t.sheetId, t.locationId] })],
);

export const countLines = pgTable(
  'count_lines',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    sheetId: varchar('sheet_id', { length: 40 })
      .notNull()
      .references(() => countSheets.id),
    /** Where it was counted. */
    locationId: varchar('location_id', { length: 40 })
      .notNull()
      .references(() => locations.id),
    /** The stock record counted; null for found stock with an unknown label until the post creates it. */
    stockRecordId: varchar('stock_record_id', { length: 40 }).references(() => stockRecords.id),
    itemId: varchar('item_id', { length: 40 })
      .notNull()
      .references(() => items.id),
    /** The scanned label of found stock (a new record takes it), or the record's stock id. */
    stockLabel: varchar('stock_label', { length: 40 }),
    lot: varchar('lot', { length: 60 }),
    serial: varchar('serial', { length: 60 }),
    found: boolean('found').notNull().default(false),
    notFound: boolean('not_found').notNull().default(false),
    /** The stock record's last movement at the scan (the anchor) and its quantity then. */
    anchorMovementId: bigint('anchor_movement_id', { mode: 'number' }),
    systemQty: quantity('system_qty').notNull().default('0'),
    counted: quantity('counted').notNull().default('0'),
    status: varchar('status', { length: 10 }).notNull().default('counted'),
    round: smallint('round').notNull().default(1),
    disputed: boolean('disputed').notNull().default(false),
    serialOver1: boolean('serial_over_1').notNull().default(false),
    overThreshold: boolean('over_threshold').notNull().default(false),
    countedBy: varchar('counted_by', { length: 40 }),
    /** Who counted the round before a recount: the recount must be someone else. */
    previousCounter: varchar('previous_counter', { length: 40 }),
    countedAt: timestamp('counted_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    postedMovementId: bigint('posted_movement_id', { mode: 'number' }),
  },
  (t) => [
    index('count_lines_sheet').on(t.sheetId, t.locationId),
    uniqueIndex('count_lines_sheet_record')
      .on(t.sheetId, t.stockRecordId)
      .where(sql`${t.stockRecordId} is not null`),
    uniqueIndex('count_lines_sheet_label')
      .on(t.sheetId, t.stockLabel)
      .where(sql`${t.stockRecordId} is null and ${t.stockLabel} is not null`),
    uniqueIndex('count_lines_sheet_serial')
      .on(t.sheetId, t.itemId, t.serial)
      .where(sql`${t.serial} is not null`),
    check('count_lines_status', sql`${t.status} in ('counted', 'recount', 'accepted', 'excluded', 'posted')`),
    check('count_lines_counted', sql`${t.counted} >= 0`),
  ],
);

/** Every count entered, by whom, in which round: several counters merge without loss. */
export const countEntries = pgTable(
  'count_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orgId: orgRef(),
    lineId: varchar('line_id', { length: 40 })
      .notNull()
      .references(() => countLines.id),
    accountId: varchar('account_id', { length: 40 }).notNull(),
    qty: quantity('qty').notNull(),
    round: smallint('round').notNull(),
    ts: timestamp('ts', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    index('count_entries_line').on(t.lineId),
    /** Whether an account has counted on a sheet (counts/blind.ts: a counter of a sheet that names none). */
    index('count_entries_account').on(t.accountId, t.lineId),
  ],
);

/** Variance thresholds per warehouse: a line over either goes to a blind recount at submit. */
export const countThresholds = pgTable('count_thresholds', {
  orgId: orgRef(),
  warehouseId: varchar('warehouse_id', { length: 40 })
    .primaryKey()
    .references(() => warehouses.id),
  maxQty: quantity('max_qty'),
  maxPct: numeric('max_pct', { precision: 10, scale: 2 }),
  audit: audit().notNull(),
});

// ── counts: cycle frequencies (issue 13) ──

/**
 * Days between counts of a warehouse (location_id null) or of one location (wins over its warehouse's).
 * Keyed by the scope's id: the warehouse's or the location's.
 */
export const countFrequencies = pgTable(
  'count_frequencies',
  {
    scopeId: varchar('scope_id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    warehouseId: varchar('warehouse_id', { length: 40 })
      .notNull()
      .references(() => warehouses.id),
    locationId: varchar('location_id', { length: 40 }).references(() => locations.id),
    days: integer('days').notNull(),
    audit: audit().notNull(),
  },
  (t) => [index('count_frequencies_warehouse').on(t.warehouseId), check('count_frequencies_days', sql`${t.days} > 0`)],
);
