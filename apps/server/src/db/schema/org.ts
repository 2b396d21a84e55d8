// Organisations, sites, accounts, roles, feature access, workstations, sessions, keys and the audit log.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { audit } from './columns.ts';

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

/** The organisation a row belongs to. */
export const orgRef = () =>
  varchar('org_id', { length: 40 })
    .notNull()
    .references(() => organisations.id);
