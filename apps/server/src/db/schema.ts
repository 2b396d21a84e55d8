import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
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
  unique,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

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
  hostPatterns: jsonb('host_patterns')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  trustedDomains: jsonb('trusted_domains')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
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
    roles: jsonb('roles')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
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
    prefs: jsonb('prefs')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
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

// ── labor ──

/**
 * Tasks of task labor (docs/labor.md): an operation of a work, manufacturing or routing order (its
 * order by number, as text: orders are their own area) or indirect work. The task code is the
 * traveller label's barcode, unique in the organisation; upserts and imports go by it.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    taskCode: varchar('task_code', { length: 60 }).notNull(),
    kind: varchar('kind', { length: 10 }).notNull(),
    orderNumber: varchar('order_number', { length: 60 }),
    operationNumber: varchar('operation_number', { length: 20 }),
    description: text('description').notNull(),
    workCentre: varchar('work_centre', { length: 40 }),
    plannedMinutes: numeric('planned_minutes', { precision: 12, scale: 2 }),
    active: boolean('active').notNull().default(true),
    rev: integer('_rev').notNull().default(1),
    audit: audit().notNull(),
  },
  (t) => [
    uniqueIndex('tasks_org_task_code').on(t.orgId, t.taskCode),
    index('tasks_org_order').on(t.orgId, t.orderNumber),
    check('tasks_kind', sql`${t.kind} in ('wos', 'mos', 'rst', 'training', 'cleaning', 'meeting')`),
  ],
);

/**
 * Labor entries: one worker on one task from a start to a stop. Every entry belongs to a batch (a
 * single task is a batch of one); a batch's entries share its seconds exactly (contract/labor.ts
 * batchShares), recomputed in the transaction of every start and stop of the batch.
 */
export const laborEntries = pgTable(
  'labor_entries',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }),
    /** The worker: the person signed in, from the token. */
    accountId: varchar('account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    taskId: varchar('task_id', { length: 40 })
      .notNull()
      .references(() => tasks.id),
    batchId: varchar('batch_id', { length: 40 }).notNull(),
    mode: varchar('mode', { length: 10 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'string' }).notNull(),
    /** The batch start for a task added within batchGraceTimeSecs, else startedAt. */
    countedFrom: timestamp('counted_from', { withTimezone: true, mode: 'string' }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true, mode: 'string' }),
    seconds: integer('seconds').notNull().default(0),
    roundedSeconds: integer('rounded_seconds').notNull().default(0),
    qtyDone: quantity('qty_done'),
    complete: boolean('complete').notNull().default(false),
    /** Stopped at the worker's punch-out, which came before the stop (labor is bounded by attendance). */
    endedAtOut: boolean('ended_at_out').notNull().default(false),
    audit: audit().notNull(),
  },
  (t) => [
    index('labor_entries_running')
      .on(t.orgId, t.accountId)
      .where(sql`${t.stoppedAt} is null`),
    index('labor_entries_batch').on(t.batchId),
    index('labor_entries_org_started').on(t.orgId, t.startedAt),
    index('labor_entries_task').on(t.taskId),
    check('labor_entries_mode', sql`${t.mode} in ('single', 'batch')`),
    check('labor_entries_seconds', sql`${t.seconds} >= 0 and ${t.roundedSeconds} >= 0`),
  ],
);

// ── labels ──

/** Label templates: every save is a new row (version); the newest version of an id is the template. */
export const labelTemplates = pgTable(
  'label_templates',
  {
    orgId: orgRef(),
    id: varchar('id', { length: 100 }).notNull(),
    version: integer('version').notNull(),
    kind: varchar('kind', { length: 20 }).notNull(),
    name: text('name').notNull(),
    zpl: text('zpl').notNull(),
    widthMm: doublePrecision('width_mm').notNull(),
    heightMm: doublePrecision('height_mm').notNull(),
    dpi: smallint('dpi').notNull(),
    /** The template printed for its kind when none is named. */
    isDefault: boolean('is_default').notNull().default(false),
    savedBy: varchar('saved_by', { length: 100 }).notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'label_templates_pk', columns: [t.orgId, t.id, t.version] }),
    index('label_templates_kind').on(t.orgId, t.kind),
  ],
);

/** Print jobs: the id is the client's idempotency key; the ZPL is kept so a reprint is the same bytes. */
export const labelJobs = pgTable(
  'label_jobs',
  {
    orgId: orgRef(),
    id: varchar('id', { length: 100 }).notNull(),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    kind: varchar('kind', { length: 20 }).notNull(),
    templateId: varchar('template_id', { length: 100 }).notNull(),
    templateVersion: integer('template_version').notNull(),
    printerId: varchar('printer_id', { length: 200 }).notNull(),
    agentId: varchar('agent_id', { length: 100 }).notNull(),
    copies: integer('copies').notNull(),
    labels: integer('labels').notNull(),
    zpl: text('zpl').notNull(),
    state: varchar('state', { length: 10 }).notNull(),
    reason: text('reason'),
    /** Labels the printer reported printed (its ~HS counters); null: not known (no status, or not yet). */
    printed: integer('printed'),
    /** The job that prints the rest of this interrupted one (label/job/printRest), once asked. */
    restJob: varchar('rest_job', { length: 100 }),
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    requestedBy: varchar('requested_by', { length: 40 }).notNull(),
    requestedByName: varchar('requested_by_name', { length: 100 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'label_jobs_pk', columns: [t.orgId, t.id] }),
    index('label_jobs_site_created').on(t.orgId, t.siteId, t.createdAt),
    index('label_jobs_agent_state').on(t.orgId, t.siteId, t.agentId, t.state),
    check('label_jobs_state', sql`${t.state} in ('queued', 'sent', 'printed', 'held', 'failed')`),
  ],
);

/** Print agents of a site as last heard from: their printers and states. */
export const labelAgents = pgTable(
  'label_agents',
  {
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    id: varchar('id', { length: 100 }).notNull(),
    name: text('name').notNull(),
    accountId: varchar('account_id', { length: 40 }).notNull(),
    connected: boolean('connected').notNull().default(false),
    printers: jsonb('printers')
      .$type<Array<{ id: string; name: string; state: string; detail?: string }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    lastSeen: timestamp('last_seen', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    /** The socket id of the agent's live connection (the newest hello wins); jobs go to it only. */
    socketId: varchar('socket_id', { length: 60 }),
    /** What the Label Printers page says about the connection (took over from an older one, …). */
    note: text('note'),
  },
  (t) => [primaryKey({ name: 'label_agents_pk', columns: [t.orgId, t.siteId, t.id] })],
);

/**
 * A print agent's own credential (docs/labels.md, Agent credentials): one agent id of one site, a
 * random secret (`agk_…`) of which only the SHA-256 is kept. It speaks only the agent protocol.
 * Revoking deletes the row (the audit log keeps who and when).
 */
export const labelAgentCredentials = pgTable(
  'label_agent_credentials',
  {
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    agentId: varchar('agent_id', { length: 100 }).notNull(),
    name: text('name').notNull(),
    secretHash: varchar('secret_hash', { length: 64 }).notNull(),
    createdBy: varchar('created_by', { length: 40 }).notNull(),
    createdByName: text('created_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'label_agent_credentials_pk', columns: [t.orgId, t.siteId, t.agentId] }),
    uniqueIndex('label_agent_credentials_secret').on(t.secretHash),
  ],
);

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

// ── timeclock ──

/**
 * Punches (docs/timeclock.md): append-only. A correction is a new row that replaces another
 * (replaces_id, at most one replacement per row); a missed punch the worker states at the next scan
 * is a pending row until a timeclockAdmin replaces it with an approved one.
 */
export const punches = pgTable(
  'punches',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    /** The worker. */
    accountId: varchar('account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    kind: varchar('kind', { length: 5 }).notNull(),
    /** When it counts. */
    at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull(),
    serverTs: timestamp('server_ts', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    clientTs: timestamp('client_ts', { withTimezone: true, mode: 'string' }),
    /** The workstation of the clock, and the time-clock account signed in on it. */
    deviceId: varchar('device_id', { length: 40 }),
    clockAccountId: varchar('clock_account_id', { length: 40 }),
    photoMediaId: varchar('photo_media_id', { length: 40 }).references(() => media.id),
    source: varchar('source', { length: 12 }).notNull(),
    status: varchar('status', { length: 8 }).notNull().default('valid'),
    replacesId: varchar('replaces_id', { length: 40 }),
    reason: text('reason'),
    approvedBy: varchar('approved_by', { length: 40 }),
    audit: audit().notNull(),
  },
  (t) => [
    index('punches_org_account_at').on(t.orgId, t.accountId, t.at),
    index('punches_org_at').on(t.orgId, t.at),
    uniqueIndex('punches_replaces').on(t.replacesId),
    foreignKey({ name: 'punches_replaces_fk', columns: [t.replacesId], foreignColumns: [t.id] }),
    check('punches_kind', sql`${t.kind} in ('in', 'out', 'void')`),
    check('punches_source', sql`${t.source} in ('clock', 'missed', 'correction', 'offline')`),
    check('punches_status', sql`${t.status} in ('valid', 'pending')`),
  ],
);

/** The last punch per worker: a second scan within the debounce window finds its row locked or recent, and never punches. */
export const punchGuards = pgTable('punch_guards', {
  accountId: varchar('account_id', { length: 40 })
    .primaryKey()
    .references(() => accounts.id),
  orgId: orgRef(),
  lastPunchAt: timestamp('last_punch_at', { withTimezone: true, mode: 'string' }).notNull(),
  /** The device clock's time of that punch, when trusted (within CLIENT_TIME_TRUST_SECS of the server's), and its device. */
  lastClientTs: timestamp('last_client_ts', { withTimezone: true, mode: 'string' }),
  lastDeviceId: varchar('last_device_id', { length: 40 }),
});

/** Badge PINs (hash only), for typed badges at the clock and the kiosk. */
export const badgePins = pgTable('badge_pins', {
  accountId: varchar('account_id', { length: 40 })
    .primaryKey()
    .references(() => accounts.id),
  orgId: orgRef(),
  pinHash: text('pin_hash').notNull(),
  audit: audit().notNull(),
});

// ── kiosk ──

/** A person's session on a kiosk: the human token (its hash), until done, timed out or revoked. */
export const kioskSessions = pgTable(
  'kiosk_sessions',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    orgId: orgRef(),
    siteId: varchar('site_id', { length: 40 }).notNull(),
    kioskAccountId: varchar('kiosk_account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    accountId: varchar('account_id', { length: 40 })
      .notNull()
      .references(() => accounts.id),
    deviceId: varchar('device_id', { length: 40 }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    timeoutSecs: integer('timeout_secs').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'string' }),
    endReason: varchar('end_reason', { length: 12 }),
  },
  (t) => [uniqueIndex('kiosk_sessions_token').on(t.tokenHash), index('kiosk_sessions_kiosk').on(t.kioskAccountId)],
);

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
