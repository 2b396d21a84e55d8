import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, date, foreignKey, index, integer, jsonb, numeric, pgSequence, pgTable, primaryKey, smallint, text, timestamp, unique, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

// Audit stamps (spec section 3): create {user, ts} and modify {user, ts}.
export interface AuditStamp {
  create: { user: string; ts: string };
  modify: { user: string; ts: string };
}

const audit = () => jsonb('audit').$type<AuditStamp>();

export const organisations = pgTable('organisations', {
  id: varchar('id', { length: 40 }).primaryKey(),
  name: text('name').notNull(),
  audit: audit(),
});

export const sites = pgTable('sites', {
  id: varchar('id', { length: 40 }).primaryKey(),
  orgId: varchar('org_id', { length: 40 })
    .notNull()
    .references(() => organisations.id),
  name: text('name').notNull(),
  /** Host name patterns that resolve to this site ('*' matches any run of characters). */
  hostPatterns: jsonb('host_patterns').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  trustedDomains: jsonb('trusted_domains').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  audit: audit(),
});

export const accounts = pgTable(
  'accounts',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: varchar('org_id', { length: 40 })
      .notNull()
      .references(() => organisations.id),
    userName: varchar('user_name', { length: 100 }).notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    surnames: text('surnames').notNull().default(''),
    email: text('email'),
    badgeCode: varchar('badge_code', { length: 64 }),
    active: boolean('active').notNull().default(true),
    /** Service accounts authenticate with an API key: only its hash is kept, its prefix identifies it. */
    apiKeyHash: text('api_key_hash'),
    apiKeyPrefix: varchar('api_key_prefix', { length: 16 }),
    apiKeyCreatedAt: timestamp('api_key_created_at', { withTimezone: true }),
    /** Set when an admin sets or resets the password: the account must choose its own at the next login. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    audit: audit(),
  },
  (t) => [
    uniqueIndex('accounts_api_key_prefix').on(t.apiKeyPrefix),
    uniqueIndex('accounts_org_user_name').on(t.orgId, sql`lower(${t.userName})`),
    uniqueIndex('accounts_org_badge').on(t.orgId, t.badgeCode),
  ],
);

export const roles = pgTable(
  'roles',
  {
    orgId: varchar('org_id', { length: 40 })
      .notNull()
      .references(() => organisations.id),
    name: varchar('name', { length: 40 }).notNull(),
    description: text('description').notNull().default(''),
    builtIn: boolean('built_in').notNull().default(false),
    audit: audit(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.name] })],
);

/** User permissions, keyed by site and app: roles and the account-type flags. */
export const accountPerms = pgTable(
  'account_perms',
  {
    accountId: varchar('account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    siteId: varchar('site_id', { length: 40 })
      .notNull()
      .references(() => sites.id),
    appId: varchar('app_id', { length: 40 }).notNull(),
    roles: jsonb('roles').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    kioskAcct: boolean('kiosk_acct').notNull().default(false),
    timeclockAcct: boolean('timeclock_acct').notNull().default(false),
    serviceAcct: boolean('service_acct').notNull().default(false),
    audit: audit(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.siteId, t.appId] })],
);

/** Feature access level per role: null default, 0 None, 1 Full. */
export const featureAccess = pgTable(
  'feature_access',
  {
    siteId: varchar('site_id', { length: 40 })
      .notNull()
      .references(() => sites.id),
    appId: varchar('app_id', { length: 40 }).notNull(),
    role: varchar('role', { length: 40 }).notNull(),
    feature: varchar('feature', { length: 80 }).notNull(),
    level: smallint('level'),
    audit: audit(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.appId, t.role, t.feature] })],
);

export const workstations = pgTable(
  'workstations',
  {
    siteId: varchar('site_id', { length: 40 })
      .notNull()
      .references(() => sites.id),
    id: varchar('id', { length: 40 }).notNull(),
    timeclock: boolean('timeclock').notNull().default(false),
    kiosk: boolean('kiosk').notNull().default(false),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
    lastAccountId: varchar('last_account_id', { length: 40 }),
    /** SHA-256 (hex) of the secret the device holds; without it the id is not authorised. */
    secretHash: varchar('secret_hash', { length: 64 }),
    /** A one-time pairing code the device shows, until it expires or is claimed. */
    pairCode: varchar('pair_code', { length: 8 }),
    pairExpires: timestamp('pair_expires', { withTimezone: true }),
    /** An admin entered the code: the device may claim its secret. */
    pairApproved: boolean('pair_approved').notNull().default(false),
    audit: audit(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.id] })],
);

export const siteData = pgTable(
  'site_data',
  {
    id: varchar('_id', { length: 40 }).primaryKey(),
    rev: integer('_rev').notNull().default(1),
    siteId: varchar('site_id', { length: 40 })
      .notNull()
      .references(() => sites.id),
    section: varchar('section', { length: 20 }).notNull(),
    dataId: varchar('data_id', { length: 35 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    audit: audit(),
  },
  (t) => [uniqueIndex('site_data_key').on(t.siteId, t.section, t.dataId)],
);

/** Per-user session with its persisted UI preferences, one per account, site and app. */
export const sessions = pgTable(
  'sessions',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    accountId: varchar('account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    appId: varchar('app_id', { length: 40 }).notNull(),
    prefs: jsonb('prefs').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    audit: audit(),
  },
  (t) => [uniqueIndex('sessions_account_site_app').on(t.accountId, t.siteId, t.appId)],
);

export const revokedTokens = pgTable('revoked_tokens', {
  jti: varchar('jti', { length: 40 }).primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Secrets shared by every server node (the token signing key). */
export const serverKeys = pgTable('server_keys', {
  id: varchar('id', { length: 40 }).primaryKey(),
  secret: text('secret').notNull(),
});

/** Admin changes: who, when, what, before, after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: varchar('org_id', { length: 40 }).notNull(),
    siteId: varchar('site_id', { length: 40 }),
    accountId: varchar('account_id', { length: 40 }).notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull().defaultNow(),
    action: varchar('action', { length: 80 }).notNull(),
    entity: varchar('entity', { length: 80 }).notNull(),
    entityId: varchar('entity_id', { length: 120 }).notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_log_org_ts').on(t.orgId, t.ts)],
);

/**
 * Generic records (spec section 3): entities registered with the record layer that need no table of
 * their own are stored here, one row per record, validated and audited by the record layer.
 */
export const records = pgTable(
  'records',
  {
    orgId: varchar('org_id', { length: 40 })
      .notNull()
      .references(() => organisations.id),
    type: varchar('type', { length: 60 }).notNull(),
    id: varchar('_id', { length: 120 }).notNull(),
    rev: integer('_rev').notNull().default(1),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    audit: audit().notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.type, t.id] })],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Uploaded pictures (brand logo and icons, photos taken at the time clock), served by media/pic. */
export const media = pgTable(
  'media',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: varchar('org_id', { length: 40 })
      .notNull()
      .references(() => organisations.id),
    siteId: varchar('site_id', { length: 40 }),
    contentType: varchar('content_type', { length: 80 }).notNull(),
    bytes: bytea('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    purpose: varchar('purpose', { length: 40 }).notNull().default('photo'),
    audit: audit().notNull(),
  },
  (t) => [index('media_org').on(t.orgId)],
);

// Inventory (docs/inventory.md). Everything is scoped by organisation; ids are server-made UUIDs,
// codes are what people scan and type. Lookups start at an org-scoped unique code and follow ids.

/** Exact decimals of four places; 15 significant digits read back exactly into a JavaScript number. */
const quantity = (name: string) => numeric(name, { precision: 15, scale: 4 });
const orgRef = () =>
  varchar('org_id', { length: 40 })
    .notNull()
    .references(() => organisations.id);

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
  (t) => [uniqueIndex('items_org_part_number').on(t.orgId, t.partNumber), check('items_tracking', sql`${t.tracking} in ('none', 'lot', 'serial')`)],
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
    foreignKey({ name: 'stock_records_location_fk', columns: [t.locationId, t.warehouseId], foreignColumns: [locations.id, locations.warehouseId] }),
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
