/*
 * Labor reports and the CSV export of labor entries (admins and time-clock administrators): totals
 * per worker, task, order and day, planned versus actual per operation. Rounded totals are sums of
 * each entry's total rounded once (contract roundSeconds), as booked.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { csvLine } from '@floorhand/contract/csv';
import { ATTENDANCE_GROUPS, formatHours, LABOR_CSV_COLUMNS, type ReportRow } from '@floorhand/contract/labor';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { readTimeclockSettings } from '@floorhand/contract/timeclock';
import { findSiteData } from '../../lib/site-data.ts';
import { attendanceByDay } from './attendance.ts';
import { attendancePunches, exportEntries, laborByWorkerDay, reportRows, type Period, type WorkerName } from './repository.ts';
import { checkPeriod, laborSettings, requireReportRights } from './service.ts';

export async function laborReport(deps: Deps, auth: AuthContext, body: Body<'labor/report'>): Promise<CallResponse<'labor/report'>> {
  requireReportRights(auth);
  checkPeriod(body.from, body.to);
  const settings = await laborSettings(deps.db, auth.siteId);
  if (ATTENDANCE_GROUPS.has(body.groupBy))
    return { settings, rows: await attendanceRows(deps, auth, body, body.groupBy as 'worker' | 'day' | 'attendance') };
  const rows = await reportRows(deps.db, auth.orgId, body, body.groupBy);
  return {
    settings,
    rows: rows.map((r) => ({
      key: r.key ?? '',
      label: r.label ?? '',
      entries: r.entries,
      seconds: Number(r.seconds),
      roundedSeconds: Number(r.rounded_seconds),
      qtyDone: Number(r.qty_done ?? 0),
      ...(body.groupBy === 'operation'
        ? { plannedMinutes: r.planned_minutes === null ? null : Number(r.planned_minutes), complete: !!r.complete }
        : {}),
    })),
  };
}

interface Cell extends WorkerName {
  day: string;
  entries: number;
  seconds: number;
  roundedSeconds: number;
  qtyDone: number;
  attendanceSeconds: number;
}

/**
 * Labor beside attendance, per worker and day (then summed per worker or per day): attendance from
 * the punches that count (attendance.ts), labor the exact seconds booked (a batch's shares add up to
 * the seconds covered, so no second counts twice), unallocated (indirect) time the difference, never
 * below 0. A worker with punches and no labor shows with all of their attendance unallocated.
 */
async function attendanceRows(deps: Deps, auth: AuthContext, p: Period, groupBy: 'worker' | 'day' | 'attendance'): Promise<ReportRow[]> {
  const [labor, punches] = await Promise.all([laborByWorkerDay(deps.db, auth.orgId, p), attendancePunches(deps.db, auth.orgId, p)]);
  const cells = new Map<string, Cell>();
  const cell = (w: WorkerName, day: string): Cell => {
    const key = `${w.accountId}\u0000${day}`;
    let c = cells.get(key);
    if (!c)
      cells.set(
        key,
        (c = {
          accountId: w.accountId,
          userName: w.userName,
          label: w.label,
          day,
          entries: 0,
          seconds: 0,
          roundedSeconds: 0,
          qtyDone: 0,
          attendanceSeconds: 0,
        }),
      );
    return c;
  };
  for (const l of labor) {
    const c = cell(l, l.day);
    c.entries += l.entries;
    c.seconds += Number(l.seconds);
    c.roundedSeconds += Number(l.rounded_seconds);
    c.qtyDone += Number(l.qty_done ?? 0);
  }
  const names = new Map(punches.map((x) => [x.accountId, x]));
  // An open in counts at most the time clock's maximum shift (after it the clock asks when they left).
  const { maxShiftHours } = readTimeclockSettings((await findSiteData(deps.db, auth.siteId, 'conf', 'app_settings'))?.data);
  const attendance = attendanceByDay(
    punches.map((x) => ({ accountId: x.accountId, kind: x.kind, at: Date.parse(x.at) })),
    p,
    Date.now(),
    maxShiftHours,
  );
  for (const [accountId, days] of attendance)
    for (const [day, seconds] of days) cell(names.get(accountId)!, day).attendanceSeconds += seconds;

  const groups = new Map<string, ReportRow>();
  for (const c of cells.values()) {
    const [key, label] =
      groupBy === 'worker'
        ? [c.userName, c.label]
        : groupBy === 'day'
          ? [c.day, c.day]
          : [`${c.userName} ${c.day}`, `${c.label} · ${c.day}`];
    let r = groups.get(key);
    if (!r) {
      r = {
        key,
        label,
        entries: 0,
        seconds: 0,
        roundedSeconds: 0,
        qtyDone: 0,
        attendanceSeconds: 0,
        unallocatedSeconds: 0,
        ...(groupBy === 'attendance' ? { day: c.day, worker: c.userName } : {}),
      };
      groups.set(key, r);
    }
    r.entries += c.entries;
    r.seconds += c.seconds;
    r.roundedSeconds += c.roundedSeconds;
    r.qtyDone += c.qtyDone;
    r.attendanceSeconds! += c.attendanceSeconds;
    // Per worker and day, then summed: a day with labor outside attendance does not hide another day's unallocated time.
    r.unallocatedSeconds! += Math.max(0, c.attendanceSeconds - c.seconds);
  }
  const rows = [...groups.values()];
  return groupBy === 'day'
    ? rows.sort((a, b) => a.key.localeCompare(b.key))
    : groupBy === 'worker'
      ? rows.sort((a, b) => a.label.localeCompare(b.label))
      : rows.sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || a.label.localeCompare(b.label));
}

/** The labor entries of the period as CSV text (LABOR_CSV_COLUMNS). */
export async function laborCsv(deps: Deps, auth: AuthContext, body: Body<'labor/export'>): Promise<string> {
  requireReportRights(auth);
  checkPeriod(body.from, body.to);
  const settings = await laborSettings(deps.db, auth.siteId);
  const entries = await exportEntries(deps.db, auth.orgId, body);
  let out = csvLine(LABOR_CSV_COLUMNS);
  for (const e of entries) {
    out += csvLine([
      e.id,
      e.worker,
      e.taskCode,
      e.kind,
      e.orderNumber,
      e.operationNumber,
      e.description,
      e.mode,
      e.batchId,
      e.startedAt,
      e.countedFrom,
      e.stoppedAt ?? '',
      e.seconds,
      formatHours(e.roundedSeconds, settings.displayScale),
      e.qtyDone ?? '',
      e.complete,
    ]);
  }
  return out;
}
