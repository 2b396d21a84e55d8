/*
 * Task labor (docs/labor.md): tasks upserted by code, and labor entries. Every entry belongs to a
 * batch (a single task is a batch of one); each start and stop recomputes the batch's shares with the
 * contract's batchShares in its own transaction, so the shares always add up to the seconds the
 * worker ran the batch. The worker is the person of the token (auth.accountId).
 */
import type { CallResponse } from '@floorhand/contract/api';
import {
  batchShares,
  countedFrom,
  isOperationKind,
  mayReadLaborReports,
  readLaborSettings,
  roundSeconds,
  taskEntity,
  taskProblems,
  BATCH_MAX_TASKS,
  LABOR_DEVICE_TIME_MAX_AGE_HOURS,
  type LaborEntry,
  type LaborSettings,
  type TaskKind,
} from '@floorhand/contract/labor';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { checked } from '../../lib/checked-record.ts';
import { badInput, conflict, dup, forbidden, invalidRecord, notFound, checkRev } from '../../lib/errors.ts';
import { requireFeatures } from '../../lib/features.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { guarded, mapDuplicates } from '../../db/errors.ts';
import { findSiteData } from '../../lib/site-data.ts';
import {
  insertLaborEntry,
  insertTasks,
  stopRunningEntries,
  updateTask,
  batchEntries,
  entriesByIds,
  lastStopped,
  lockWorker,
  runningEntries,
  setShares,
  taskByCode,
  taskById,
  taskPage,
  toTask,
} from './repository.ts';
import { isClockedIn, punchedOutBetween } from '../timeclock/service.ts';
import { tk } from '@floorhand/contract/i18n';

/** A task as typed, imported or sent, once the record engine passed it. */
export interface TaskInput {
  taskCode: string;
  kind: TaskKind;
  orderNumber?: string;
  operationNumber?: string;
  description: string;
  workCentre?: string;
  plannedMinutes?: number;
  active?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Hooks: the clock, and whether a worker is clocked in.

/** Whether the worker is clocked in at `at`; the time clock (modules/timeclock) provides it. */
export type ClockedInCheck = (db: Db, orgId: string, accountId: string, at: Date) => Promise<boolean>;

/** Whether the worker's last punch that counts is an "in": the time clock's own answer. */
let clockedIn: ClockedInCheck = isClockedIn;
/** Tests put another check in; without an argument, back to the time clock's. */
export function setClockedInCheck(check: ClockedInCheck = isClockedIn): void {
  clockedIn = check;
}

let clock: () => number = () => Date.now();
/** The labor clock (ms), for tests; without an argument, the real one. */
export function setLaborClock(now: () => number = () => Date.now()): void {
  clock = now;
}
const nowSecs = () => Math.floor(clock() / 1000);
const epochOf = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

export const NOT_CLOCKED_IN = tk('You are not clocked in: clock in at the time clock before booking labor');

export async function laborSettings(db: Db, siteId: string): Promise<LaborSettings> {
  const row = await findSiteData(db, siteId, 'conf', 'app_settings');
  return readLaborSettings(row?.data);
}

// ---------------------------------------------------------------------------------------------
// Tasks

export async function listTasks(db: Db, auth: AuthContext, body: Body<'task/list'>): Promise<CallResponse<'task/list'>> {
  const rows = await taskPage(db, auth.orgId, body);
  return { tasks: rows.slice(0, body.limit).map(toTask), more: rows.length > body.limit };
}

const noTask = (code: string) => notFound(`No task with code '${code}' exists`);

export async function getTask(db: Db, auth: AuthContext, body: Body<'task/get'>): Promise<CallResponse<'task/get'>> {
  const row = await taskByCode(db, auth.orgId, body.taskCode);
  if (!row) throw noTask(body.taskCode);
  return { task: toTask(row) };
}

/** A task merged with what is stored: a field left out keeps its stored value on update. */
export function mergedTask(
  input: TaskInput,
  stored?: {
    order_number: string | null;
    operation_number: string | null;
    work_centre: string | null;
    planned_minutes: string | null;
    active: boolean;
  },
) {
  const keep = <T>(v: T | undefined, old: T): T => (v === undefined ? old : v);
  const indirect = !isOperationKind(input.kind);
  return {
    taskCode: input.taskCode,
    kind: input.kind,
    orderNumber: indirect ? (input.orderNumber ?? null) : keep<string | null>(input.orderNumber, stored?.order_number ?? null),
    operationNumber: indirect
      ? (input.operationNumber ?? null)
      : keep<string | null>(input.operationNumber, stored?.operation_number ?? null),
    description: input.description,
    workCentre: keep<string | null>(input.workCentre, stored?.work_centre ?? null),
    plannedMinutes: input.plannedMinutes === undefined ? (stored?.planned_minutes ?? null) : String(input.plannedMinutes),
    active: keep(input.active, stored?.active ?? true),
  };
}

export async function upsertTask(deps: Deps, auth: AuthContext, body: Body<'task/upsert'>): Promise<CallResponse<'task/upsert'>> {
  const input = checked<TaskInput>(taskEntity, body.record);
  return idempotentWrite(deps, auth, 'task/upsert', body, async (tx) => {
    const stored = await taskByCode(tx, auth.orgId, input.taskCode, true);
    if (stored && input._rev !== undefined) checkRev('The task', stored.rev, input._rev);
    const task = mergedTask(input, stored);
    const problems = taskProblems(task);
    if (Object.keys(problems).length > 0) throw invalidRecord(problems);
    let id: string;
    if (!stored) {
      id = newId();
      await mapDuplicates(() => insertTasks(tx, [{ id, orgId: auth.orgId, ...task, audit: auditStamp(auth.accountId) }]), {
        tasks_org_task_code: () => dup('Task', input.taskCode),
      });
    } else {
      id = stored.id;
      await guarded(() => updateTask(tx, id, task, auditStamp(auth.accountId, stored.audit)));
    }
    const saved = await taskById(tx, id);
    return { response: { task: toTask(saved!), created: !stored } };
  });
}

// ---------------------------------------------------------------------------------------------
// Labor

/** Recomputes the shares of a batch at `now` (running entries count up to now) and stores them. */
async function resplit(tx: Db, batchId: string, now: number, settings: LaborSettings): Promise<void> {
  const entries = await batchEntries(tx, batchId);
  const shares = batchShares(entries.map((e) => ({ id: e.id, from: e.from, to: e.to ?? Math.max(now, e.from) })));
  await setShares(
    tx,
    entries.map((e) => {
      const seconds = shares.get(e.id) ?? 0;
      return { id: e.id, seconds, rounded: roundSeconds(seconds, settings.roundToMinutes) };
    }),
  );
}

async function currentOf(db: Db, auth: AuthContext, settings: LaborSettings, now: number) {
  return { running: await runningEntries(db, auth.orgId, auth.accountId), serverTime: new Date(now * 1000).toISOString(), settings };
}

export async function currentLabor(deps: Deps, auth: AuthContext): Promise<CallResponse<'labor/current'>> {
  const settings = await laborSettings(deps.db, auth.siteId);
  return currentOf(deps.db, auth, settings, nowSecs());
}

/**
 * When the worker's running entries end: now, or (labor is bounded by attendance) the worker's first
 * punch-out after the earliest of them started, when the stop or the next start comes after it.
 */
async function endOfRunning(
  tx: Db,
  auth: AuthContext,
  running: readonly LaborEntry[],
  now: number,
  settings: LaborSettings,
): Promise<{ at: number; atOut: boolean }> {
  if (settings.allowWithoutClockIn || running.length === 0) return { at: now, atOut: false };
  const since = Math.min(...running.map((e) => Date.parse(e.startedAt)));
  const out = await punchedOutBetween(tx, auth.orgId, auth.accountId, new Date(since), new Date(now * 1000));
  return out ? { at: Math.floor(out.getTime() / 1000), atOut: true } : { at: now, atOut: false };
}

/** Stops entries at `now` (their batch re-split); answers their ids. `atOut`: `now` is the worker's punch-out. */
async function stopEntries(
  tx: Db,
  auth: AuthContext,
  ids: readonly string[],
  now: number,
  settings: LaborSettings,
  qty?: { qtyDone?: number | undefined; complete: boolean },
  atOut = false,
) {
  if (ids.length === 0) return;
  await stopRunningEntries(tx, ids, now, {
    atOut,
    qtyDone: qty?.qtyDone === undefined ? null : String(qty.qtyDone),
    complete: qty?.complete ?? false,
    modify: auditStamp(auth.accountId).modify,
  });
}

/**
 * When a start or stop is booked (epoch seconds): now, or the device's time of a start or stop taken
 * offline (issue 27): a device time in the future is now (a device clock a little ahead), one more than
 * LABOR_DEVICE_TIME_MAX_AGE_HOURS old is refused; the caller keeps it from going before running labor.
 */
export function bookedAt(deviceTime: string | undefined, now: number): number {
  if (deviceTime === undefined) return now;
  const at = Math.floor(Date.parse(deviceTime) / 1000);
  if (!Number.isFinite(at)) throw badInput(`The device time '${deviceTime}' is not a time`);
  if (at < now - LABOR_DEVICE_TIME_MAX_AGE_HOURS * 3600) {
    throw badInput(
      `The device time ${deviceTime} is more than ${LABOR_DEVICE_TIME_MAX_AGE_HOURS} hours ago: labor is booked within ${LABOR_DEVICE_TIME_MAX_AGE_HOURS} hours (check the device's clock, or ask a supervisor to book it)`,
    );
  }
  return Math.min(at, now);
}

export async function startLabor(deps: Deps, auth: AuthContext, body: Body<'labor/start'>): Promise<CallResponse<'labor/start'>> {
  await requireFeatures(deps, auth, body.mode === 'batch' ? 'batchTask' : 'singleTask');
  const settings = await laborSettings(deps.db, auth.siteId);
  const task = await taskByCode(deps.db, auth.orgId, body.taskCode);
  if (!task) throw noTask(body.taskCode);
  if (!task.active) throw conflict(`The task '${body.taskCode}' is not active`);
  // Clocked in when the worker started it: a start queued offline is asked at its device time.
  const asked = bookedAt(body.deviceTime, nowSecs());
  if (
    !settings.allowWithoutClockIn &&
    !(await clockedIn(deps.db, auth.orgId, auth.accountId, new Date(body.deviceTime === undefined ? clock() : asked * 1000)))
  )
    throw conflict(NOT_CLOCKED_IN);
  return idempotentWrite(deps, auth, 'labor/start', body, async (tx) => {
    await lockWorker(tx, auth.accountId);
    const serverNow = nowSecs();
    const running = await runningEntries(tx, auth.orgId, auth.accountId);
    // A device time never goes before what the worker runs or last stopped: no second is booked twice.
    let now = bookedAt(body.deviceTime, serverNow);
    if (body.deviceTime !== undefined) {
      const floor = Math.max(...running.map((e) => epochOf(e.startedAt)), (await lastStopped(tx, auth.orgId, auth.accountId)) ?? 0);
      now = Math.max(now, Math.min(floor, serverNow));
    }
    let stopped: string[] = [];
    let batchId = newId();
    let from = now;
    // Entries still running from before a punch-out (the worker punched out and in again) end at the out.
    const end = await endOfRunning(tx, auth, running, now, settings);
    if (end.atOut) {
      stopped = running.map((e) => e.id);
      await stopEntries(tx, auth, stopped, end.at, settings, undefined, true);
      for (const b of new Set(running.map((e) => e.batchId))) await resplit(tx, b, end.at, settings);
    } else if (body.mode === 'single' || running.length === 0) {
      stopped = running.map((e) => e.id);
      await stopEntries(tx, auth, stopped, now, settings);
      for (const b of new Set(running.map((e) => e.batchId))) await resplit(tx, b, now, settings);
    } else {
      if (running.some((e) => e.taskCode === task.task_code))
        throw conflict(`The task '${task.task_code}' is running in your batch already`);
      if (running.length >= BATCH_MAX_TASKS) throw conflict(`A batch runs at most ${BATCH_MAX_TASKS} tasks at once`);
      batchId = running[0]!.batchId;
      const entries = await batchEntries(tx, batchId);
      const batchStart = Math.min(...entries.map((e) => e.started));
      from = countedFrom(batchStart, now, settings.batchGraceTimeSecs);
    }
    await guarded(() =>
      insertLaborEntry(tx, {
        id: newId(),
        orgId: auth.orgId,
        siteId: auth.siteId,
        accountId: auth.accountId,
        taskId: task.id,
        batchId,
        mode: body.mode,
        startedAt: new Date(now * 1000).toISOString(),
        countedFrom: new Date(from * 1000).toISOString(),
        audit: auditStamp(auth.accountId, null, new Date(now * 1000)),
      }),
    );
    await resplit(tx, batchId, serverNow, settings);
    return { response: { ...(await currentOf(tx, auth, settings, serverNow)), stopped: await entriesByIds(tx, stopped) } };
  });
}

export async function stopLabor(deps: Deps, auth: AuthContext, body: Body<'labor/stop'>): Promise<CallResponse<'labor/stop'>> {
  const settings = await laborSettings(deps.db, auth.siteId);
  if (body.entryId === undefined && body.taskCode === undefined)
    throw badInput("Give the labor entry ('entryId') or the task ('taskCode') to stop");
  if (body.entryId !== undefined && body.taskCode !== undefined)
    throw badInput("Give the labor entry ('entryId') or the task ('taskCode') to stop, not both");
  bookedAt(body.deviceTime, nowSecs());
  return idempotentWrite(deps, auth, 'labor/stop', body, async (tx) => {
    await lockWorker(tx, auth.accountId);
    const serverNow = nowSecs();
    const running = await runningEntries(tx, auth.orgId, auth.accountId);
    let entry: LaborEntry | undefined;
    if (body.entryId !== undefined) {
      [entry] = await entriesByIds(tx, [body.entryId]);
      // Another worker's entry, or another organisation's, is not there for this caller.
      if (!entry || entry.accountId !== auth.accountId) throw notFound(`No labor entry '${body.entryId}' of yours exists`);
      if (entry.stoppedAt !== null) throw conflict(`The task '${entry.taskCode}' was stopped already`);
    } else {
      // A task started offline: its entry is the caller's running one of that task (a batch runs a task once).
      entry = running.find((e) => e.taskCode === body.taskCode);
      if (!entry) throw conflict(`The task '${body.taskCode}' is not running for you: it was stopped already, or its start was refused`);
    }
    // Never before the entry started (stopEntries keeps it at or after its counted start too).
    const now = body.deviceTime === undefined ? serverNow : Math.max(bookedAt(body.deviceTime, serverNow), epochOf(entry.startedAt));
    const qty = { qtyDone: body.qtyDone, complete: body.complete };
    // Stopped after the worker punched out: every running entry ends at the out, flagged, this one with its quantity.
    const end = await endOfRunning(tx, auth, running, now, settings);
    if (end.atOut) {
      const others = running.filter((e) => e.id !== entry.id).map((e) => e.id);
      await stopEntries(tx, auth, [entry.id], end.at, settings, qty, true);
      await stopEntries(tx, auth, others, end.at, settings, undefined, true);
      for (const b of new Set(running.map((e) => e.batchId))) await resplit(tx, b, end.at, settings);
      return { response: { ...(await currentOf(tx, auth, settings, serverNow)), stopped: await entriesByIds(tx, [entry.id, ...others]) } };
    }
    await stopEntries(tx, auth, [entry.id], now, settings, qty);
    await resplit(tx, entry.batchId, serverNow, settings);
    return { response: { ...(await currentOf(tx, auth, settings, serverNow)), stopped: await entriesByIds(tx, [entry.id]) } };
  });
}

/** Reports and exports: admins and time-clock administrators only. */
export function requireReportRights(auth: AuthContext): void {
  if (!mayReadLaborReports(auth.perms)) throw forbidden('Labor reports are for administrators and time-clock administrators');
}

export function checkPeriod(from: string, to: string): void {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (!Number.isFinite(days)) throw badInput('The period is not a valid pair of dates');
  if (days < 0) throw badInput("'From' must not be after 'To'");
  if (days > 366) throw badInput('A report covers at most 366 days');
}
