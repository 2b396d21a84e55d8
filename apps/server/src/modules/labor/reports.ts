/*
 * Labor reports and the CSV export of labor entries (admins and time-clock administrators): totals
 * per worker, task, order and day, planned versus actual per operation. Rounded totals are sums of
 * each entry's total rounded once (contract roundSeconds), as booked.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { csvLine } from '@floorhand/contract/csv';
import { formatHours, LABOR_CSV_COLUMNS } from '@floorhand/contract/labor';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { exportEntries, reportRows } from './repository.ts';
import { checkPeriod, laborSettings, requireReportRights } from './service.ts';

export async function laborReport(deps: Deps, auth: AuthContext, body: Body<'labor/report'>): Promise<CallResponse<'labor/report'>> {
  requireReportRights(auth);
  checkPeriod(body.from, body.to);
  const settings = await laborSettings(deps.db, auth.siteId);
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
      ...(body.groupBy === 'operation' ? { plannedMinutes: r.planned_minutes === null ? null : Number(r.planned_minutes), complete: !!r.complete } : {}),
    })),
  };
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
