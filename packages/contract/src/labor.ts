import { z } from 'zod';
import { LABOR_DEFAULTS } from './constants.ts';
import {
  activeField,
  callBase,
  controlFields,
  idempotencyKeySchema,
  page,
  recordInputSchema,
  SCAN_CODE_REGEX,
  scanCode,
  withErr,
} from './common.ts';
import { isTimekeeper, type UserPerms } from './perms.ts';
import type { EntityDef } from './records/schema-model.ts';
import { tk } from './i18n.ts';

// Task labor (docs/labor.md): tasks (operations of work, manufacturing and routing orders, or
// indirect work), labor entries of single and batch task labor, the exact batch split and the
// reports. The split and the rounding are pure functions here, so the server books exactly what the
// worker's screen shows.

/** Operations of an order (work, manufacturing, routing) and the indirect kinds of work. */
export const OPERATION_KINDS = ['wos', 'mos', 'rst'] as const;
// Each is also a word on the screen: a catalogue key.
export const INDIRECT_KINDS = [tk('training'), tk('cleaning'), tk('meeting')] as const;
export const TASK_KINDS = [...OPERATION_KINDS, ...INDIRECT_KINDS] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
const operationKinds: ReadonlySet<string> = new Set(OPERATION_KINDS);
export const isOperationKind = (kind: string): boolean => operationKinds.has(kind);

export const LABOR_MODES = ['single', 'batch'] as const;
export type LaborMode = (typeof LABOR_MODES)[number];
/** The most tasks one worker runs at once in a batch. */
export const BATCH_MAX_TASKS = 20;

/**
 * A start or stop taken offline carries the device's time (issue 27): the server books it then, not
 * when the replay arrives. Bounded: a device time in the future is now; one older than this many
 * hours is refused (a wrong clock, or an outbox left too long); it never goes before the worker's
 * running (or last stopped) labor.
 */
export const LABOR_DEVICE_TIME_MAX_AGE_HOURS = 72;
/** The device time of a labor start or stop: an ISO time with its offset. */
const deviceTimeSchema = z.iso.datetime({ offset: true });

/** A task as typed, imported or sent by an ERP: upserted by its task code (the traveller label's barcode). */
export const taskEntity: EntityDef = {
  type: 'task',
  title: 'Task',
  idFieldName: 'taskCode',
  displayIdFieldName: 'description',
  fields: [
    { name: 'taskCode', label: tk('Task Code'), dataType: 'string', conditions: { required: true, max: 60, regex: SCAN_CODE_REGEX } },
    { name: 'kind', label: tk('Kind'), dataType: 'string', conditions: { required: true, valid: [...TASK_KINDS] } },
    { name: 'orderNumber', label: tk('Order Number'), dataType: 'string', conditions: { max: 60 } },
    { name: 'operationNumber', label: tk('Operation Number'), dataType: 'string', conditions: { max: 20 } },
    { name: 'description', label: tk('Description'), dataType: 'string', conditions: { required: true, max: 200 } },
    { name: 'workCentre', label: tk('Work Centre'), dataType: 'string', conditions: { max: 40 } },
    { name: 'plannedMinutes', label: tk('Planned Minutes'), dataType: 'numeric', conditions: { min: 0, max: 1_000_000 } },
    activeField,
  ],
};
/** CSV columns of tasks, in this order on export; the import needs the header and the required columns. */
export const TASK_CSV_COLUMNS: readonly string[] = taskEntity.fields.map((f) => f.name);

/** The messages of the rules the record engine cannot say: an operation needs its order and number; an indirect task has neither. */
export const TASK_RULE_MESSAGES = {
  orderNeeded: tk("'Order Number' must be provided for an operation of an order"),
  operationNeeded: tk("'Operation Number' must be provided for an operation of an order"),
  indirectHasOrder: tk('An indirect task (training, cleaning, meeting) has no order or operation'),
} as const;

/** The cross-field rules of a task, per field; empty when it passes. */
export function taskProblems(t: {
  kind: string;
  orderNumber?: string | null | undefined;
  operationNumber?: string | null | undefined;
}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (isOperationKind(t.kind)) {
    if (!t.orderNumber) out.orderNumber = [TASK_RULE_MESSAGES.orderNeeded];
    if (!t.operationNumber) out.operationNumber = [TASK_RULE_MESSAGES.operationNeeded];
  } else if (t.orderNumber || t.operationNumber) {
    out.orderNumber = [TASK_RULE_MESSAGES.indirectHasOrder];
  }
  return out;
}

export const taskSchema = z.object({
  ...controlFields,
  taskCode: z.string(),
  kind: z.enum(TASK_KINDS),
  /** Text: orders are their own area; a task names its order by number. */
  orderNumber: z.string().nullable(),
  operationNumber: z.string().nullable(),
  description: z.string(),
  workCentre: z.string().nullable(),
  plannedMinutes: z.number().nullable(),
  active: z.boolean(),
});
export type Task = z.infer<typeof taskSchema>;

// ---------------------------------------------------------------------------------------------
// The batch split: exact, in whole seconds.

/** One labor entry of a batch: booked from `from` (its counted start) to `to`, whole seconds (epoch). */
export interface BatchSpan {
  id: string;
  from: number;
  to: number;
}

/** When a task added to a batch counts from: the batch start within the grace time, else when it was added. */
export const countedFrom = (batchStart: number, addedAt: number, graceSecs: number): number =>
  addedAt - batchStart <= graceSecs ? Math.min(batchStart, addedAt) : addedAt;

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/**
 * Each span's share of the batch's seconds. Every second from the first start to the last end in
 * which at least one span runs is split evenly over the spans running in it; the exact (rational)
 * shares are then rounded to whole seconds by largest remainder (ties: the earlier start, then the
 * id), so the shares always add up to the seconds covered exactly and no second is booked twice.
 */
export function batchShares(spans: readonly BatchSpan[]): Map<string, number> {
  const out = new Map<string, number>();
  const live = spans.filter((s) => s.to > s.from);
  for (const s of spans) out.set(s.id, 0);
  if (live.length === 0) return out;
  const cuts = [...new Set(live.flatMap((s) => [s.from, s.to]))].sort((a, b) => a - b);
  // Segments [a, b) with the spans running in them.
  const segments: Array<{ secs: bigint; running: number[] }> = [];
  let denominator = 1n;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i]!;
    const b = cuts[i + 1]!;
    const running = live.flatMap((s, j) => (s.from <= a && s.to >= b ? [j] : []));
    if (running.length === 0) continue;
    const k = BigInt(running.length);
    denominator = (denominator / gcd(denominator, k)) * k;
    segments.push({ secs: BigInt(b - a), running });
  }
  const numerators = live.map(() => 0n);
  let total = 0n;
  for (const seg of segments) {
    total += seg.secs;
    const each = (seg.secs * denominator) / BigInt(seg.running.length);
    for (const j of seg.running) numerators[j]! += each;
  }
  const floors = numerators.map((n) => n / denominator);
  let left = Number(total - floors.reduce((a, b) => a + b, 0n));
  const order = live
    .map((s, j) => ({ j, rem: numerators[j]! % denominator, s }))
    .sort((x, y) => (x.rem === y.rem ? x.s.from - y.s.from || (x.s.id < y.s.id ? -1 : x.s.id > y.s.id ? 1 : 0) : x.rem > y.rem ? -1 : 1));
  const extra = live.map(() => 0);
  for (const o of order) {
    if (left <= 0) break;
    if (o.rem === 0n) continue;
    extra[o.j] = 1;
    left--;
  }
  live.forEach((s, j) => out.set(s.id, (out.get(s.id) ?? 0) + Number(floors[j]!) + extra[j]!));
  return out;
}

/** The seconds a batch covers: those in which at least one of its spans runs. */
export function coveredSeconds(spans: readonly BatchSpan[]): number {
  const sorted = spans.filter((s) => s.to > s.from).sort((a, b) => a.from - b.from);
  let total = 0;
  let end = -Infinity;
  for (const s of sorted) {
    if (s.to <= end) continue;
    total += s.to - Math.max(s.from, end);
    end = s.to;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// Settings, rounding and display.

export interface LaborSettings {
  displayScale: number;
  roundToMinutes: number;
  batchGraceTimeSecs: number;
  /** Labor may be booked by a worker who is not clocked in. */
  allowWithoutClockIn: boolean;
}
export const LABOR_SETTINGS_DEFAULTS: LaborSettings = { ...LABOR_DEFAULTS, allowWithoutClockIn: false };

const laborSettingsShape = z.object({
  displayScale: z.number().int().min(0).max(4).catch(LABOR_DEFAULTS.displayScale),
  roundToMinutes: z.number().int().min(0).max(60).catch(LABOR_DEFAULTS.roundToMinutes),
  batchGraceTimeSecs: z.number().int().min(0).max(3600).catch(LABOR_DEFAULTS.batchGraceTimeSecs),
  allowWithoutClockIn: z.boolean().catch(false),
});

/** The labor section of app settings (site data conf/app_settings), each value its default when missing or bad. */
export function readLaborSettings(appSettings: unknown): LaborSettings {
  const labor = typeof appSettings === 'object' && appSettings !== null ? (appSettings as { labor?: unknown }).labor : undefined;
  const src = typeof labor === 'object' && labor !== null ? labor : {};
  return laborSettingsShape.parse({ ...LABOR_SETTINGS_DEFAULTS, ...src });
}

/** A labor entry's total rounded once to the nearest `roundToMinutes` (0: not rounded), in seconds. */
export function roundSeconds(seconds: number, roundToMinutes: number): number {
  if (roundToMinutes <= 0) return seconds;
  const step = roundToMinutes * 60;
  return Math.round(seconds / step) * step;
}

/** Seconds as hours with `displayScale` decimals (1 → "0.1"). */
export const formatHours = (seconds: number, displayScale: number): string => (seconds / 3600).toFixed(displayScale);

/** Seconds as h:mm:ss for the live clock. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Who reads labor reports and exports: admins and time-clock administrators (supervisors). */
export const mayReadLaborReports = (perms: UserPerms): boolean => isTimekeeper(perms);

// ---------------------------------------------------------------------------------------------
// Answers and calls

export const laborEntrySchema = z.object({
  id: z.string(),
  /** The worker: the person signed in (account id) and their name. */
  accountId: z.string(),
  worker: z.string(),
  taskCode: z.string(),
  kind: z.enum(TASK_KINDS),
  description: z.string(),
  orderNumber: z.string().nullable(),
  operationNumber: z.string().nullable(),
  batchId: z.string(),
  mode: z.enum(LABOR_MODES),
  /** ISO times: when the task was started, the time it counts from (the batch start within grace), when it stopped. */
  startedAt: z.string(),
  countedFrom: z.string(),
  stoppedAt: z.string().nullable(),
  /** The entry's exact share of its batch, whole seconds (final once its batch has ended). */
  seconds: z.number().int(),
  /** seconds rounded once to roundToMinutes. */
  roundedSeconds: z.number().int(),
  qtyDone: z.number().nullable(),
  complete: z.boolean(),
  /**
   * Stopped at the worker's punch-out: the stop (or the next start) came after the worker had punched
   * out, and labor is booked only while clocked in, so the entry ends at the "out" (issue 26).
   */
  endedAtPunchOut: z.boolean(),
});
export type LaborEntry = z.infer<typeof laborEntrySchema>;

export const laborSettingsSchema = z.object({
  displayScale: z.number().int(),
  roundToMinutes: z.number().int(),
  batchGraceTimeSecs: z.number().int(),
  allowWithoutClockIn: z.boolean(),
});

/** What the worker runs now: the running entries (one batch), the server time, the settings. */
const current = {
  running: z.array(laborEntrySchema).optional(),
  /** Entries this call stopped (starting a single task stops the running ones). */
  stopped: z.array(laborEntrySchema).optional(),
  serverTime: z.string().optional(),
  settings: laborSettingsSchema.optional(),
};

/** `attendance`: one row per worker and day, attendance (from the time clock's punches), labor and unallocated time. */
export const REPORT_GROUPS = ['worker', 'task', 'order', 'day', 'operation', 'attendance'] as const;
/** Groups whose rows carry attendance and unallocated (indirect) time. */
export const ATTENDANCE_GROUPS: ReadonlySet<string> = new Set(['worker', 'day', 'attendance']);
export type ReportGroup = (typeof REPORT_GROUPS)[number];
/** The longest period a report covers. */
export const REPORT_MAX_DAYS = 366;
/** A YYYY-MM-DD that names a day of the calendar (not 2026-02-30). */
export function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().startsWith(d);
}
const isoDate = z
  .string()
  .regex(/^(19|20)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "must match pattern 'YYYY-MM-DD'")
  .refine(isCalendarDate, tk('is not a date of the calendar'));
const reportRange = {
  /** First and last day (YYYY-MM-DD, inclusive) of when entries started, in the caller's time zone. */
  from: isoDate,
  to: isoDate,
  /** Minutes east of UTC of the caller's days (the x-tz-offset of spec section 7, negated); 0 is UTC. */
  tzOffsetMinutes: z.number().int().min(-840).max(840).default(0),
};

export const reportRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  entries: z.number().int(),
  seconds: z.number().int(),
  roundedSeconds: z.number().int(),
  qtyDone: z.number(),
  /** operation rows: the task's planned minutes (null when it has none). */
  plannedMinutes: z.number().nullable().optional(),
  complete: z.boolean().optional(),
  /** worker, day and attendance rows: seconds clocked in (the punches that count, in pairs in → out). */
  attendanceSeconds: z.number().int().optional(),
  /** worker, day and attendance rows: attendance minus labor (exact seconds), never below 0. */
  unallocatedSeconds: z.number().int().optional(),
  /** attendance rows: the day (YYYY-MM-DD) and the worker's user name. */
  day: z.string().optional(),
  worker: z.string().optional(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

/** The columns of the labor entries CSV export. */
export const LABOR_CSV_COLUMNS = [
  'entryId',
  'worker',
  'taskCode',
  'kind',
  'orderNumber',
  'operationNumber',
  'description',
  'mode',
  'batchId',
  'startedAt',
  'countedFrom',
  'stoppedAt',
  'seconds',
  'roundedHours',
  'qtyDone',
  'complete',
] as const;

const importProblemSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export const taskImportReportSchema = z.object({
  rows: z.number().int(),
  imported: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  rejectedCount: z.number().int(),
  rejected: z.array(importProblemSchema),
});
export type TaskImportReport = z.infer<typeof taskImportReportSchema>;

const taskCodeInput = scanCode.max(60);
/** The body limit of task/import. */
export const TASK_IMPORT_MAX_BYTES = 8 * 1024 * 1024;

export const laborCalls = {
  'task/list': {
    locId: undefined,
    auth: 'required',
    /**
     * Ordered by task code; `search` matches the start of the code or order number, or any part of the
     * description; `orderNumber` is exact (the operations of one order, for its traveller labels).
     */
    body: callBase.extend({
      search: z.string().trim().max(100).optional(),
      kind: z.enum(TASK_KINDS).optional(),
      orderNumber: scanCode.max(60).optional(),
      active: z.boolean().optional(),
      ...page,
    }),
    response: withErr({ tasks: z.array(taskSchema).optional(), more: z.boolean().optional() }),
  },
  'task/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ taskCode: taskCodeInput }),
    response: withErr({ task: taskSchema.optional() }),
  },
  'task/upsert': {
    locId: undefined,
    auth: 'required',
    /** `record` as taskEntity, by task code: a new code is created, a known one updated (fields left out keep their values). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), record: recordInputSchema }),
    response: withErr({ task: taskSchema.optional(), created: z.boolean().optional() }),
  },
  'task/import': {
    locId: undefined,
    auth: 'required',
    /** CSV with a header of TASK_CSV_COLUMNS, upserted by task code; all or nothing (refused: 400 whose detail is the report). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), csv: z.string().min(1).max(TASK_IMPORT_MAX_BYTES) }),
    response: withErr({ report: taskImportReportSchema.optional() }),
  },
  'labor/current': {
    locId: undefined,
    auth: 'required',
    body: callBase,
    response: withErr(current),
  },
  'labor/start': {
    locId: undefined,
    auth: 'required',
    /** single: stops whatever the worker runs, then starts the task. batch: adds the task to the worker's running batch (or starts one). */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      taskCode: taskCodeInput,
      mode: z.enum(LABOR_MODES),
      /** When the worker started it on the device (a start queued offline); bounded, see LABOR_DEVICE_TIME_MAX_AGE_HOURS. */
      deviceTime: deviceTimeSchema.optional(),
    }),
    response: withErr(current),
  },
  'labor/stop': {
    locId: undefined,
    auth: 'required',
    /**
     * Stops one running entry of the caller with the quantity done and whether the task is complete:
     * the entry by its id, or (a task started offline, whose entry id the device does not know yet)
     * the caller's running entry of the task `taskCode`; one of the two.
     */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      entryId: z.string().min(1).max(40).optional(),
      taskCode: taskCodeInput.optional(),
      /** When the worker stopped it on the device (a stop queued offline); bounded as labor/start's. */
      deviceTime: deviceTimeSchema.optional(),
      qtyDone: z.number().min(0).max(1e9).optional(),
      complete: z.boolean().default(false),
    }),
    response: withErr(current),
  },
  'labor/report': {
    locId: undefined,
    auth: 'required',
    /** Labor per worker, task, order, day, or planned versus actual per operation (admins and timeclockAdmin). */
    body: callBase.extend({ ...reportRange, groupBy: z.enum(REPORT_GROUPS) }),
    response: withErr({ rows: z.array(reportRowSchema).optional(), settings: laborSettingsSchema.optional() }),
  },
  'labor/export': {
    locId: undefined,
    auth: 'required',
    /** Answers text/csv (LABOR_CSV_COLUMNS) of the entries started in the period (admins and timeclockAdmin). */
    body: callBase.extend({ ...reportRange }),
    response: withErr({}),
  },
} as const;
