// Records (spec section 3) and media.
import { index, integer, jsonb, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { audit, bytea } from './columns.ts';
import { organisations } from './org.ts';

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
