/*
 * The SQL of task labor: tasks by code, labor entries with their task and worker, batches, reports.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { LaborEntry, LaborMode, ReportGroup, Task, TaskKind } from '@floorhand/contract/labor';
import type { Db } from '../../db/client.ts';
import { laborEntries, tasks, type AuditStamp } from '../../db/schema.ts';
import { arrayParam, isoSql, likeEscape, query } from '../../db/sql.ts';

export interface TaskRow {
  id: string;
  rev: number;
  audit: AuditStamp;
  task_code: string;
  kind: TaskKind;
  order_number: string | null;
  operation_number: string | null;
  description: string;
  work_centre: string | null;
  planned_minutes: string | null;
  active: boolean;
}

export const toTask = (r: TaskRow): Task => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  taskCode: r.task_code,
  kind: r.kind,
  orderNumber: r.order_number,
  operationNumber: r.operation_number,
  description: r.description,
  workCentre: r.work_centre,
  plannedMinutes: r.planned_minutes === null ? null : Number(r.planned_minutes),
  active: r.active,
});

const TASK_SELECT = sql`SELECT t.id, t._rev AS rev, t.audit, t.task_code, t.kind, t.order_number, t.operation_number, t.description, t.work_centre,
  t.planned_minutes::text AS planned_minutes, t.active FROM tasks t`;

export async function taskByCode(db: Db, orgId: string, taskCode: string, lock = false): Promise<TaskRow | undefined> {
  const [row] = await query<TaskRow>(
    db,
    sql`${TASK_SELECT} WHERE t.org_id = ${orgId} AND t.task_code = ${taskCode}${lock ? sql` FOR UPDATE` : sql``}`,
  );
  return row;
}

export async function taskById(db: Db, id: string): Promise<TaskRow | undefined> {
  const [row] = await query<TaskRow>(db, sql`${TASK_SELECT} WHERE t.id = ${id}`);
  return row;
}

/** Tasks of these codes, by code. */
export async function tasksByCode(db: Db, orgId: string, codes: readonly string[]): Promise<Map<string, TaskRow>> {
  if (codes.length === 0) return new Map();
  const rows = await query<TaskRow>(
    db,
    sql`${TASK_SELECT} WHERE t.org_id = ${orgId} AND t.task_code = ANY(${arrayParam([...new Set(codes)])})`,
  );
  return new Map(rows.map((r) => [r.task_code, r]));
}

export async function taskPage(
  db: Db,
  orgId: string,
  f: {
    search?: string | undefined;
    kind?: TaskKind | undefined;
    orderNumber?: string | undefined;
    active?: boolean | undefined;
    offset: number;
    limit: number;
  },
): Promise<TaskRow[]> {
  const where: SQL[] = [sql`t.org_id = ${orgId}`];
  if (f.kind) where.push(sql`t.kind = ${f.kind}`);
  if (f.orderNumber) where.push(sql`t.order_number = ${f.orderNumber}`);
  if (f.active !== undefined) where.push(sql`t.active = ${f.active}`);
  if (f.search) {
    const start = `${likeEscape(f.search)}%`;
    where.push(sql`(t.task_code LIKE ${start} OR t.order_number LIKE ${start} OR t.description ILIKE ${`%${likeEscape(f.search)}%`})`);
  }
  return query<TaskRow>(
    db,
    sql`${TASK_SELECT} WHERE ${sql.join(where, sql` AND `)} ORDER BY t.task_code OFFSET ${f.offset} LIMIT ${f.limit + 1}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Labor entries

interface EntryRow {
  id: string;
  account_id: string;
  worker: string;
  task_code: string;
  kind: TaskKind;
  description: string;
  order_number: string | null;
  operation_number: string | null;
  batch_id: string;
  mode: LaborMode;
  started_at: string;
  counted_from: string;
  stopped_at: string | null;
  seconds: number;
  rounded_seconds: number;
  qty_done: string | null;
  complete: boolean;
  ended_at_out: boolean;
}

export const toEntry = (r: EntryRow): LaborEntry => ({
  id: r.id,
  accountId: r.account_id,
  worker: r.worker,
  taskCode: r.task_code,
  kind: r.kind,
  description: r.description,
  orderNumber: r.order_number,
  operationNumber: r.operation_number,
  batchId: r.batch_id,
  mode: r.mode,
  startedAt: r.started_at,
  countedFrom: r.counted_from,
  stoppedAt: r.stopped_at,
  seconds: r.seconds,
  roundedSeconds: r.rounded_seconds,
  qtyDone: r.qty_done === null ? null : Number(r.qty_done),
  complete: r.complete,
  endedAtPunchOut: r.ended_at_out,
});

const ENTRY_SELECT = sql`SELECT e.id, e.account_id, coalesce(nullif(trim(a.first_name || ' ' || a.surnames), ''), a.user_name) AS worker,
  t.task_code, t.kind, t.description, t.order_number, t.operation_number, e.batch_id, e.mode,
  ${isoSql(sql`e.started_at`)} AS started_at, ${isoSql(sql`e.counted_from`)} AS counted_from,
  CASE WHEN e.stopped_at IS NULL THEN NULL ELSE ${isoSql(sql`e.stopped_at`)} END AS stopped_at,
  e.seconds, e.rounded_seconds, e.qty_done::text AS qty_done, e.complete, e.ended_at_out
FROM labor_entries e JOIN tasks t ON t.id = e.task_id JOIN accounts a ON a.id = e.account_id`;

/** The entries the worker runs now, oldest first. */
export async function runningEntries(db: Db, orgId: string, accountId: string): Promise<LaborEntry[]> {
  const rows = await query<EntryRow>(
    db,
    sql`${ENTRY_SELECT} WHERE e.org_id = ${orgId} AND e.account_id = ${accountId} AND e.stopped_at IS NULL ORDER BY e.started_at, e.id`,
  );
  return rows.map(toEntry);
}

/** When the worker's labor last stopped (epoch seconds), or null: a start with a device time never goes before it. */
export async function lastStopped(db: Db, orgId: string, accountId: string): Promise<number | null> {
  const [row] = await query<{ at: string | null }>(
    db,
    sql`SELECT ${epoch(sql`max(stopped_at)`)}::text AS at FROM labor_entries WHERE org_id = ${orgId} AND account_id = ${accountId}`,
  );
  return row?.at == null ? null : Number(row.at);
}

export async function entriesByIds(db: Db, ids: readonly string[]): Promise<LaborEntry[]> {
  if (ids.length === 0) return [];
  const rows = await query<EntryRow>(db, sql`${ENTRY_SELECT} WHERE e.id = ANY(${arrayParam([...ids])}) ORDER BY e.started_at, e.id`);
  return rows.map(toEntry);
}

export interface BatchEntry {
  id: string;
  started: number;
  from: number;
  to: number | null;
}

const epoch = (column: SQL) => sql`floor(extract(epoch from ${column}))::bigint`;

/** The entries of a batch, with their times as whole epoch seconds. */
export async function batchEntries(db: Db, batchId: string): Promise<BatchEntry[]> {
  const rows = await query<{ id: string; started: string; from: string; to: string | null }>(
    db,
    sql`SELECT id, ${epoch(sql`started_at`)}::text AS started, ${epoch(sql`counted_from`)}::text AS "from",
      CASE WHEN stopped_at IS NULL THEN NULL ELSE ${epoch(sql`stopped_at`)}::text END AS "to"
    FROM labor_entries WHERE batch_id = ${batchId} ORDER BY started_at, id`,
  );
  return rows.map((r) => ({ id: r.id, started: Number(r.started), from: Number(r.from), to: r.to === null ? null : Number(r.to) }));
}

/** Sets the shares of a batch's entries. */
export async function setShares(db: Db, shares: ReadonlyArray<{ id: string; seconds: number; rounded: number }>): Promise<void> {
  if (shares.length === 0) return;
  await query(
    db,
    sql`UPDATE labor_entries e SET seconds = u.seconds, rounded_seconds = u.rounded
    FROM unnest(${arrayParam(shares.map((s) => s.id))}::text[], ${arrayParam(shares.map((s) => s.seconds))}::int[], ${arrayParam(shares.map((s) => s.rounded))}::int[]) AS u(id, seconds, rounded)
    WHERE e.id = u.id`,
  );
}

/** Serialises the labor writes of one worker (two starts at once from two devices). */
export async function lockWorker(db: Db, accountId: string): Promise<void> {
  await query(db, sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`);
}

/** The SQL time of a whole epoch second. */
export const atSecond = (secs: number) => sql`to_timestamp(${secs})`;

// ---------------------------------------------------------------------------------------------
// Reports

export interface Period {
  from: string;
  to: string;
  tzOffsetMinutes: number;
}

/** Entries started within the period's days, in the caller's time zone. */
const inPeriod = (orgId: string, p: Period) => {
  const shift = sql`make_interval(mins => ${p.tzOffsetMinutes})`;
  return sql`e.org_id = ${orgId} AND (e.started_at + ${shift}) >= ${p.from}::timestamp AT TIME ZONE 'UTC' AND (e.started_at + ${shift}) < (${p.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
};

interface ReportSqlRow {
  key: string | null;
  label: string | null;
  entries: number;
  seconds: string;
  rounded_seconds: string;
  qty_done: string | null;
  planned_minutes: string | null;
  complete: boolean | null;
}

export async function reportRows(db: Db, orgId: string, p: Period, groupBy: ReportGroup): Promise<ReportSqlRow[]> {
  const totals = sql`count(*)::int AS entries, coalesce(sum(e.seconds), 0)::text AS seconds, coalesce(sum(e.rounded_seconds), 0)::text AS rounded_seconds,
    coalesce(sum(e.qty_done), 0)::text AS qty_done`;
  const from = sql`FROM labor_entries e JOIN tasks t ON t.id = e.task_id JOIN accounts a ON a.id = e.account_id WHERE ${inPeriod(orgId, p)}`;
  switch (groupBy) {
    case 'worker':
      return query<ReportSqlRow>(
        db,
        sql`SELECT a.user_name AS key, coalesce(nullif(trim(a.first_name || ' ' || a.surnames), ''), a.user_name) AS label, ${totals}, NULL AS planned_minutes, NULL AS complete
        ${from} GROUP BY a.user_name, a.first_name, a.surnames ORDER BY label`,
      );
    case 'task':
      return query<ReportSqlRow>(
        db,
        sql`SELECT t.task_code AS key, t.description AS label, ${totals}, NULL AS planned_minutes, NULL AS complete ${from} GROUP BY t.task_code, t.description ORDER BY t.task_code`,
      );
    case 'order':
      return query<ReportSqlRow>(
        db,
        sql`SELECT coalesce(t.order_number, '') AS key, coalesce(t.order_number, 'Indirect: ' || t.kind) AS label, ${totals}, NULL AS planned_minutes, NULL AS complete
        ${from} GROUP BY t.order_number, CASE WHEN t.order_number IS NULL THEN t.kind END, t.kind ORDER BY key, label`,
      );
    case 'day': {
      const day = sql`to_char((e.started_at + make_interval(mins => ${p.tzOffsetMinutes})) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      return query<ReportSqlRow>(
        db,
        sql`SELECT ${day} AS key, ${day} AS label, ${totals}, NULL AS planned_minutes, NULL AS complete ${from} GROUP BY 1, 2 ORDER BY 1`,
      );
    }
    case 'operation':
      return query<ReportSqlRow>(
        db,
        sql`SELECT t.task_code AS key, t.order_number || ' / ' || t.operation_number || ' ' || t.description AS label, ${totals},
          t.planned_minutes::text AS planned_minutes, bool_or(e.complete) AS complete
        ${from} AND t.order_number IS NOT NULL GROUP BY t.task_code, t.order_number, t.operation_number, t.description, t.planned_minutes ORDER BY t.order_number, t.operation_number`,
      );
    case 'attendance':
      // Labor beside attendance is built per worker and day in reports.ts.
      return [];
  }
}

/** Every entry started in the period, oldest first, for the CSV export. */
export async function exportEntries(db: Db, orgId: string, p: Period): Promise<LaborEntry[]> {
  const rows = await query<EntryRow>(db, sql`${ENTRY_SELECT} WHERE ${inPeriod(orgId, p)} ORDER BY e.started_at, e.id`);
  return rows.map(toEntry);
}

// ---------------------------------------------------------------------------------------------
// Attendance (the time clock's punches) beside labor

export interface WorkerName {
  accountId: string;
  userName: string;
  label: string;
}

/**
 * The punches that count (valid, in or out, not replaced) of the org from a day before the period
 * (a shift that began the evening before) to its end, sorted by worker then time, with the names.
 */
export async function attendancePunches(db: Db, orgId: string, p: Period): Promise<Array<WorkerName & { kind: 'in' | 'out'; at: string }>> {
  const shift = sql`make_interval(mins => ${p.tzOffsetMinutes})`;
  return query(
    db,
    sql`SELECT p.account_id AS "accountId", a.user_name AS "userName", coalesce(nullif(trim(a.first_name || ' ' || a.surnames), ''), a.user_name) AS label,
        p.kind, ${isoSql(sql`p.at`)} AS at
      FROM punches p JOIN accounts a ON a.id = p.account_id
      WHERE p.org_id = ${orgId} AND p.status = 'valid' AND p.kind IN ('in', 'out') AND NOT EXISTS (SELECT 1 FROM punches r WHERE r.replaces_id = p.id)
        AND (p.at + ${shift}) >= (${p.from}::date - 1)::timestamp AT TIME ZONE 'UTC' AND (p.at + ${shift}) < (${p.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
      ORDER BY p.account_id, p.at, p.server_ts`,
  );
}

export interface WorkerDayLabor extends WorkerName {
  day: string;
  entries: number;
  seconds: string;
  rounded_seconds: string;
  qty_done: string | null;
}

/** Labor per worker and day (the day the entry started, in the caller's time zone). */
export async function laborByWorkerDay(db: Db, orgId: string, p: Period): Promise<WorkerDayLabor[]> {
  const day = sql`to_char((e.started_at + make_interval(mins => ${p.tzOffsetMinutes})) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  return query<WorkerDayLabor>(
    db,
    sql`SELECT a.id AS "accountId", a.user_name AS "userName", coalesce(nullif(trim(a.first_name || ' ' || a.surnames), ''), a.user_name) AS label, ${day} AS day,
        count(*)::int AS entries, coalesce(sum(e.seconds), 0)::text AS seconds, coalesce(sum(e.rounded_seconds), 0)::text AS rounded_seconds, coalesce(sum(e.qty_done), 0)::text AS qty_done
      FROM labor_entries e JOIN accounts a ON a.id = e.account_id WHERE ${inPeriod(orgId, p)}
      GROUP BY a.id, a.user_name, a.first_name, a.surnames, 4`,
  );
}

/** A task's fields as saved (the service merges them with what is stored). */
export interface TaskFields {
  kind: string;
  orderNumber: string | null;
  operationNumber: string | null;
  description: string;
  workCentre: string | null;
  plannedMinutes: string | null;
  active: boolean;
}

export async function insertTasks(db: Db, rows: (typeof tasks.$inferInsert)[]): Promise<void> {
  await db.insert(tasks).values(rows);
}

/** Saves a stored task's fields with its new audit stamp. */
export async function updateTask(db: Db, id: string, task: TaskFields, audit: AuditStamp): Promise<void> {
  await query(
    db,
    sql`UPDATE tasks SET kind = ${task.kind}, order_number = ${task.orderNumber}, operation_number = ${task.operationNumber}, description = ${task.description},
          work_centre = ${task.workCentre}, planned_minutes = ${task.plannedMinutes}, active = ${task.active}, _rev = _rev + 1,
          audit = ${JSON.stringify(audit)}::jsonb WHERE id = ${id}`,
  );
}

/** Saves a stored task's fields from an import: the import's stamp, the task's own creation kept. */
export async function updateImportedTask(db: Db, id: string, t: TaskFields, audit: AuditStamp): Promise<void> {
  await query(
    db,
    sql`UPDATE tasks SET kind = ${t.kind}, order_number = ${t.orderNumber}, operation_number = ${t.operationNumber}, description = ${t.description},
          work_centre = ${t.workCentre}, planned_minutes = ${t.plannedMinutes}, active = ${t.active}, _rev = _rev + 1,
          audit = jsonb_set(${JSON.stringify(audit)}::jsonb, '{create}', audit->'create') WHERE id = ${id}`,
  );
}

/** Stops the running entries of `ids` at `now` (epoch seconds; never before they count from). */
export async function stopRunningEntries(
  db: Db,
  ids: readonly string[],
  now: number,
  stop: { atOut: boolean; qtyDone: string | null; complete: boolean; modify: AuditStamp['modify'] },
): Promise<void> {
  await query(
    db,
    sql`UPDATE labor_entries SET stopped_at = greatest(${atSecond(now)}, counted_from), ended_at_out = ${stop.atOut},
      qty_done = ${stop.qtyDone}, complete = ${stop.complete},
      audit = jsonb_set(audit, '{modify}', ${JSON.stringify(stop.modify)}::jsonb)
    WHERE id = ANY(${arrayParam([...ids])}) AND stopped_at IS NULL`,
  );
}

export async function insertLaborEntry(db: Db, values: typeof laborEntries.$inferInsert): Promise<void> {
  await db.insert(laborEntries).values(values);
}
