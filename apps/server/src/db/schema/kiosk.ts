// Kiosk sessions (docs/kiosk.md).
import { index, integer, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { accounts, orgRef } from './org.ts';

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
