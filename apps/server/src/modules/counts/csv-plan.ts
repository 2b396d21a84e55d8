/*
 * Count sheets by CSV (counts/sheet/import): one sheet a row (warehouse; a list or a range of
 * locations, or all, or only those due by their count frequency; counters; blind). The file is read
 * by lib/csv-import.ts (readSheetOf, checkRows); each row is checked as counts/sheet/create checks a
 * body (planSheet), every problem of every row is reported at once, and nothing is created unless all
 * rows pass: then all the sheets are created in one transaction, as an idempotent write.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { COUNT_SHEET_CSV_COLUMNS, countSheetEntity, SHEET_IMPORT_ROWS_MAX, type SheetImportReport } from '@floorhand/contract/counts';
import { IMPORT_REPORT_MAX } from '@floorhand/contract/csv-transfer';
import { RECORD_KEY } from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { checkRows, readSheetOf, refusedFile, type Problem, type Row } from '../../lib/csv-import.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { sheetsByIds } from './sheet-repository.ts';
import { insertSheet, planSheet, type SheetPlan } from './service.ts';
import { tk } from '@floorhand/contract/i18n';

interface SheetRowInput {
  warehouse: string;
  locations?: string[];
  fromLocation?: string;
  toLocation?: string;
  counters?: string[];
  blind?: boolean;
  due?: boolean;
  description?: string;
}

/**
 * Each row checked by the record engine (checkRows). A row refused for some cells is still checked on
 * the others (`partial`: its plan is not kept), so the report names every problem of every row at once.
 */
function checkedRows(rows: Row[], problems: Problem[]): Array<{ row: number; value: SheetRowInput; partial: boolean }> {
  const out: Array<{ row: number; value: SheetRowInput; partial: boolean }> = [];
  for (const r of rows) {
    const own: Problem[] = [];
    const [passed] = checkRows<SheetRowInput>(countSheetEntity, [r], own);
    problems.push(...own);
    if (passed) {
      out.push({ ...passed, partial: false });
      continue;
    }
    const bad = new Set(own.map((p) => p.field));
    const rest = Object.fromEntries(Object.entries(r.record).filter(([field]) => !bad.has(field)));
    const [again] = checkRows<SheetRowInput>(countSheetEntity, [{ row: r.row, record: rest }], []);
    if (again) out.push({ ...again, partial: true });
  }
  return out;
}

/** planSheet's field names as the file's columns. */
const COLUMN_OF: ReadonlyMap<string, string> = new Map([['assignees', 'counters']]);

export async function importSheets(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/import'>,
): Promise<CallResponse<'counts/sheet/import'>> {
  const sheet = readSheetOf(COUNT_SHEET_CSV_COLUMNS, countSheetEntity, body.csv);
  const { problems } = sheet;
  if (sheet.count > SHEET_IMPORT_ROWS_MAX)
    problems.push({
      row: 1,
      field: RECORD_KEY,
      message: tk(`The file has ${sheet.count} sheets; an import creates at most ${SHEET_IMPORT_ROWS_MAX}`),
    });
  const rows = sheet.count > SHEET_IMPORT_ROWS_MAX ? [] : checkedRows(sheet.rows, problems);
  const plans: SheetPlan[] = [];
  for (const { row, value, partial } of rows) {
    const { plan, problems: found } = await planSheet(deps.db, auth, {
      warehouse: value.warehouse,
      description: value.description ?? '',
      locations: value.locations,
      fromLocation: value.fromLocation,
      toLocation: value.toLocation,
      assignees: value.counters ?? [],
      // A blind count unless the file says otherwise (the creator's syscm off is the screen's default too).
      blind: value.blind ?? true,
      due: value.due ?? false,
    });
    for (const p of found) problems.push({ row, field: COLUMN_OF.get(p.field) ?? p.field, message: p.message } satisfies Problem);
    if (plan && !partial) plans.push(plan);
  }
  if (sheet.count === 0 && problems.length === 0)
    problems.push({ row: 2, field: RECORD_KEY, message: tk('The file has no sheet: add a row under the header') });
  const report: SheetImportReport = {
    rows: sheet.count,
    created: 0,
    rejectedCount: problems.length,
    rejected: problems.sort((a, b) => a.row - b.row).slice(0, IMPORT_REPORT_MAX),
  };
  if (problems.length > 0) {
    throw refusedFile(report, problems, 'noSheet');
  }
  return idempotentWrite(deps, auth, 'counts/sheet/import', body, async (tx) => {
    const ids: string[] = [];
    for (const plan of plans) ids.push(await insertSheet(tx, auth, plan));
    const sheets = await sheetsByIds(tx, auth.orgId, ids);
    sheets.sort((a, b) => (a.code < b.code ? -1 : 1));
    return { response: { report: { ...report, created: ids.length }, sheets } };
  });
}
