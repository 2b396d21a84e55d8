/*
 * The CSV import runner: all or nothing. The file is read into rows (readSheet); the entity's plan,
 * which lives in the module that owns the entity (csv-plan.ts), checks every row first (the record
 * engine against the entity's EntityDef, then the single save's rules on references and duplicates,
 * in bulk); if any row is refused nothing is written and the answer is 400 with the report of every
 * problem (row, field, message). Otherwise the plan writes all rows in ONE transaction with batched
 * statements, as an idempotent write.
 *
 * An empty cell, or a column left out, keeps the stored value on update and takes the default on
 * insert. An array field (an item's barcodes) is one cell with '|' between the values.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { CsvError, parseCsv, restoreFormula } from '@floorhand/contract/csv';
import { BARCODE_SEPARATOR, CSV_COLUMNS, IMPORT_REPORT_MAX, INVENTORY_ENTITIES, type CsvEntity, type ImportReport } from '@floorhand/contract/csv-transfer';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import { RECORD_KEY, validateRecord } from '@floorhand/contract/records/validate';
import type { Db } from '../db/client.ts';
import type { AuthContext } from './auth-context.ts';
import type { Body } from './call-body.ts';
import type { Deps } from './calls.ts';
import { badInput } from './errors.ts';
import { idempotentWrite, type Changed } from './idempotent-write.ts';

export interface Problem {
  row: number;
  field: string;
  message: string;
}

/** A data row as a record: its columns' non-empty cells, and where it was in the file. */
export interface Row {
  row: number;
  record: Record<string, unknown>;
}

/** What a checked file will do once written. */
export interface Plan {
  problems: Problem[];
  rows: number;
  write(tx: Db): Promise<{ inserted: number; updated: number; changed?: Changed }>;
  /** Runs once the write has committed (events other than stockChanged, e.g. ordersChanged). */
  afterCommit?(deps: Deps): Promise<void>;
}

/** The file read: its header, its data rows and the problems found so far; `count` is every data row. */
export interface Sheet {
  header: string[];
  rows: Row[];
  problems: Problem[];
  count: number;
}

/** An entity's import plan: the sheet checked against the entity's rules, and how it will be written. */
export type Planner = (db: Db, auth: AuthContext, sheet: Sheet, idempotencyKey?: string) => Promise<Plan>;

/** The header (matched to the entity's columns, any case) and the rows as records; blank lines are skipped. */
function readSheet(entity: CsvEntity, csv: string): Sheet {
  return readSheetOf(CSV_COLUMNS[entity], INVENTORY_ENTITIES[entity], csv);
}

/** readSheet of any entity's columns (the imports that are calls of their own, e.g. task/import). */
export function readSheetOf(columns: readonly string[], def: EntityDef, csv: string): Sheet {
  const lists = new Set(def.fields.filter((f) => f.dataType === 'array').map((f) => f.name));
  const problems: Problem[] = [];
  const rows: Row[] = [];
  let header: string[] = [];
  let rowNumber = 0;
  let count = 0;
  try {
    for (const parsed of parseCsv(csv)) {
      // Cells our export neutralised against formula injection come back as they were.
      const fields = parsed.map(restoreFormula);
      rowNumber++;
      if (rowNumber === 1) {
        if (fields.every((f) => f.trim() === '')) {
          problems.push({ row: 1, field: RECORD_KEY, message: `The file has no header row; the columns are ${columns.join(', ')}` });
          break;
        }
        header = fields.map((name) => columns.find((c) => c.toLowerCase() === name.trim().toLowerCase()) ?? name.trim());
        header.forEach((name, i) => {
          if (!columns.includes(name)) problems.push({ row: 1, field: name, message: `Unknown column '${name}'; the columns are ${columns.join(', ')}` });
          else if (header.indexOf(name) !== i) problems.push({ row: 1, field: name, message: `The column '${name}' appears twice` });
        });
        for (const field of def.fields) {
          if (field.conditions?.required && !header.includes(field.name)) problems.push({ row: 1, field: field.name, message: `The required column '${field.name}' is missing` });
        }
        continue;
      }
      if (fields.every((f) => f.trim() === '')) continue;
      count++;
      if (fields.length !== header.length) {
        problems.push({ row: rowNumber, field: RECORD_KEY, message: `The row has ${fields.length} fields; the header has ${header.length}` });
        continue;
      }
      const record: Record<string, unknown> = {};
      fields.forEach((value, i) => {
        if (value.trim() === '') return;
        const name = header[i]!;
        record[name] = lists.has(name) ? value.split(BARCODE_SEPARATOR).map((b) => b.trim()).filter(Boolean) : value;
      });
      rows.push({ row: rowNumber, record });
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problems.push({ row: error.row, field: RECORD_KEY, message: error.message.replace(/^CSV row \d+: /, 'The file cannot be read: ') });
  }
  if (rowNumber === 0) problems.push({ row: 1, field: RECORD_KEY, message: 'The file is empty: it needs a header row' });
  return { header, rows, problems, count };
}

/** Each row checked against the entity by the record engine; rows that pass, converted. */
export function checkRows<T>(def: EntityDef, rows: Row[], problems: Problem[]): Array<{ row: number; value: T }> {
  const passed: Array<{ row: number; value: T }> = [];
  for (const { row, record } of rows) {
    const result = validateRecord(def, record);
    if (result.ok) passed.push({ row, value: result.value as T });
    else for (const [field, messages] of Object.entries(result.errors)) for (const message of messages) problems.push({ row, field, message });
  }
  return passed;
}

/** Rows whose key another row of the file has already: all but the first are refused. */
export function refuseRepeats<T>(rows: Array<{ row: number; value: T }>, keyOf: (v: T) => string | undefined, field: string, what: string, problems: Problem[]) {
  const first = new Map<string, number>();
  for (const { row, value } of rows) {
    const key = keyOf(value);
    if (key === undefined) continue;
    const seen = first.get(key);
    if (seen !== undefined) problems.push({ row, field, message: `${what} is in row ${seen} already` });
    else first.set(key, row);
  }
}

/** Reads the file, has the entity's planner check it, and writes it all or refuses it all. */
export async function importCsv(deps: Deps, auth: AuthContext, body: Body<'import/csv'>, planner: Planner): Promise<CallResponse<'import/csv'>> {
  const sheet = readSheet(body.entity, body.csv);
  const plan = await planner(deps.db, auth, sheet, body.idempotencyKey);
  const report: ImportReport = {
    entity: body.entity,
    rows: plan.rows,
    imported: 0,
    inserted: 0,
    updated: 0,
    rejectedCount: plan.problems.length,
    rejected: plan.problems.sort((a, b) => a.row - b.row).slice(0, IMPORT_REPORT_MAX),
  };
  if (plan.problems.length > 0) {
    const badRows = new Set(plan.problems.map((p) => p.row)).size;
    throw badInput(
      `${badRows} row${badRows === 1 ? '' : 's'} of the file ${badRows === 1 ? 'was' : 'were'} refused (${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'}); nothing was imported`,
      JSON.stringify(report),
    );
  }
  const answer = await idempotentWrite(deps, auth, 'import/csv', body, async (tx) => {
    const done = await plan.write(tx);
    return { response: { report: { ...report, imported: done.inserted + done.updated, inserted: done.inserted, updated: done.updated } }, changed: done.changed };
  });
  await plan.afterCommit?.(deps);
  return answer;
}
