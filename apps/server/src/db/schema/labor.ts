// Task labor: tasks and labor entries (docs/labor.md).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { audit, quantity } from './columns.ts';
import { accounts, orgRef } from './org.ts';

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
