// The time clock: punches, punch guards and badge PINs (docs/timeclock.md).
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { audit } from './columns.ts';
import { accounts, orgRef } from './org.ts';
import { media } from './records.ts';

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
