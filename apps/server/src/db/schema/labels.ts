// Labels: templates, print jobs, print agents and their credentials (docs/labels.md).
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { orgRef } from './org.ts';

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
