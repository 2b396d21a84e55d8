/*
 * The CSV import runner: all or nothing. The file is read and each row checked by the record engine
 * in one pass that pauses now and then for other requests (readCheckedSheet, lib/pace.ts); the entity's plan,
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
import {
  BARCODE_SEPARATOR,
  CSV_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_REPORT_MAX,
  INVENTORY_ENTITIES,
  type CsvEntity,
  type ImportReport,
} from '@floorhand/contract/csv-transfer';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import { RECORD_KEY, validateRecord } from '@floorhand/contract/records/validate';
import type { Db } from '../db/client.ts';
import type { AuthContext } from './auth-context.ts';
import type { Body } from './call-body.ts';
import type { Deps } from './calls.ts';
import { badInput } from './errors.ts';
import { idempotentWrite, requestHashPaced, type Changed } from './idempotent-write.ts';
import { pacer } from './pace.ts';
import { tk } from '@floorhand/contract/i18n';

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

/** A row that passed the record engine: its converted value, and where it was in the file. */
export interface Checked<T> {
  row: number;
  value: T;
}

/** An import/csv file read and checked row by row (readCheckedSheet): the rows that passed, and the problems. */
export interface CheckedSheet {
  header: string[];
  checked: Array<Checked<unknown>>;
  problems: Problem[];
  count: number;
}

/** An entity's import plan: the checked sheet checked further against the entity's rules, and how it will be written. */
export type Planner = (db: Db, auth: AuthContext, sheet: CheckedSheet, idempotencyKey?: string) => Promise<Plan>;

/** What reading a file found besides its rows: the header, the problems so far, and `count`, every data row. */
interface SheetHead {
  header: string[];
  problems: Problem[];
  count: number;
}

/**
 * The data rows of a file as records, one at a time (the header matched to the entity's columns, any
 * case; blank lines skipped); the header, the count and the problems go into `head` as they are read.
 * Parsed `chunkSize` characters at a time, so a caller can pause between rows.
 */
function* sheetRows(columns: readonly string[], def: EntityDef, csv: string, head: SheetHead, chunkSize?: number): Generator<Row> {
  const lists = new Set(def.fields.filter((f) => f.dataType === 'array').map((f) => f.name));
  const { problems } = head;
  let header: string[] = [];
  let rowNumber = 0;
  try {
    for (const parsed of parseCsv(csv, chunkSize)) {
      // Cells our export neutralised against formula injection come back as they were.
      const fields = parsed.map(restoreFormula);
      rowNumber++;
      if (rowNumber === 1) {
        if (fields.every((f) => f.trim() === '')) {
          problems.push({ row: 1, field: RECORD_KEY, message: tk(`The file has no header row; the columns are ${columns.join(', ')}`) });
          break;
        }
        header = fields.map((name) => columns.find((c) => c.toLowerCase() === name.trim().toLowerCase()) ?? name.trim());
        head.header = header;
        header.forEach((name, i) => {
          if (!columns.includes(name))
            problems.push({ row: 1, field: name, message: tk(`Unknown column '${name}'; the columns are ${columns.join(', ')}`) });
          else if (header.indexOf(name) !== i) problems.push({ row: 1, field: name, message: tk(`The column '${name}' appears twice`) });
        });
        for (const field of def.fields) {
          if (field.conditions?.required && !header.includes(field.name))
            problems.push({ row: 1, field: field.name, message: tk(`The required column '${field.name}' is missing`) });
        }
        continue;
      }
      if (fields.every((f) => f.trim() === '')) continue;
      head.count++;
      if (fields.length !== header.length) {
        problems.push({
          row: rowNumber,
          field: RECORD_KEY,
          message: tk(`The row has ${fields.length} fields; the header has ${header.length}`),
        });
        continue;
      }
      const record: Record<string, unknown> = {};
      fields.forEach((value, i) => {
        if (value.trim() === '') return;
        const name = header[i]!;
        record[name] = lists.has(name)
          ? value
              .split(BARCODE_SEPARATOR)
              .map((b) => b.trim())
              .filter(Boolean)
          : value;
      });
      yield { row: rowNumber, record };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problems.push({
      row: error.row,
      field: RECORD_KEY,
      message: tk(`The file cannot be read: ${error.message.replace(/^CSV row \d+: /, '')}`),
    });
  }
  if (rowNumber === 0) problems.push({ row: 1, field: RECORD_KEY, message: tk('The file is empty: it needs a header row') });
}

/** readSheet of any entity's columns (the imports that are calls of their own, e.g. task/import). */
export function readSheetOf(columns: readonly string[], def: EntityDef, csv: string): Sheet {
  const head: SheetHead = { header: [], problems: [], count: 0 };
  const rows = [...sheetRows(columns, def, csv, head)];
  return { ...head, rows };
}

/** Characters parsed at a time by import/csv: about 2,500 rows between two chances to pause. */
const IMPORT_CHUNK_CHARS = 64 * 1024;

/**
 * import/csv's file read and each row checked by the record engine in one pass, pausing now and
 * then (lib/pace.ts) so that other requests are served meanwhile; the rows that passed go to
 * `onChunk` `chunkRows` at a time (a row's record is dropped once checked). A file of more than
 * IMPORT_MAX_ROWS data rows is read no further, and its problems are only that.
 */
async function readChecked(
  entity: CsvEntity,
  csv: string,
  chunkRows: number,
  onChunk: (rows: Array<Checked<unknown>>, problems: Problem[]) => Promise<void>,
): Promise<SheetHead> {
  const def = INVENTORY_ENTITIES[entity];
  const head: SheetHead = { header: [], problems: [], count: 0 };
  const pace = pacer();
  let chunk: Array<Checked<unknown>> = [];
  let n = 0;
  for (const { row, record } of sheetRows(CSV_COLUMNS[entity], def, csv, head, IMPORT_CHUNK_CHARS)) {
    if (head.count > IMPORT_MAX_ROWS) {
      // Read no further: the report says the file is too long, and nothing else.
      head.problems = [
        {
          row: 1,
          field: RECORD_KEY,
          message: tk(
            `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en')} data rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en')}: split it into several files`,
          ),
        },
      ];
      head.count = IMPORT_MAX_ROWS + 1;
      return head;
    }
    checkRow(def, row, record, chunk, head.problems);
    if (chunk.length >= chunkRows) {
      await onChunk(chunk, head.problems);
      chunk = [];
    }
    if ((++n & 255) === 0) await pace();
  }
  if (chunk.length > 0) await onChunk(chunk, head.problems);
  return head;
}

/** The whole file read and checked (readChecked) for a planner that needs every row at once. */
export async function readCheckedSheet(entity: CsvEntity, csv: string): Promise<CheckedSheet> {
  let checked: Array<Checked<unknown>> = [];
  // One chunk: the whole file.
  const head = await readChecked(entity, csv, Number.POSITIVE_INFINITY, async (rows) => {
    checked = rows;
  });
  return { ...head, checked: head.count > IMPORT_MAX_ROWS ? [] : checked };
}

/** One row checked by the record engine: its value added to `passed`, or its problems to `problems`. */
function checkRow<T>(def: EntityDef, row: number, record: Record<string, unknown>, passed: Array<Checked<T>>, problems: Problem[]): void {
  const result = validateRecord(def, record);
  if (result.ok) passed.push({ row, value: result.value as T });
  else
    for (const [field, messages] of Object.entries(result.errors)) for (const message of messages) problems.push({ row, field, message });
}

/** Each row checked against the entity by the record engine; rows that pass, converted. */
export function checkRows<T>(def: EntityDef, rows: Row[], problems: Problem[]): Array<Checked<T>> {
  const passed: Array<Checked<T>> = [];
  for (const { row, record } of rows) checkRow(def, row, record, passed, problems);
  return passed;
}

/** The rows of a checked sheet that passed the record engine, as the entity's input type. */
export const checkedOf = <T>(sheet: CheckedSheet): Array<Checked<T>> => sheet.checked as Array<Checked<T>>;

/** Rows whose key another row of the file has already: all but the first are refused. */
export async function refuseRepeats<T>(
  rows: Array<Checked<T>>,
  keyOf: (v: T) => string | undefined,
  field: string,
  what: string,
  problems: Problem[],
): Promise<void> {
  const first = new Map<string, number>();
  const pace = pacer();
  for (let i = 0; i < rows.length; i++) {
    if ((i & 1023) === 1023) await pace();
    const { row, value } = rows[i]!;
    const key = keyOf(value);
    if (key === undefined) continue;
    const seen = first.get(key);
    if (seen !== undefined) problems.push({ row, field, message: tk(`${what} is in row ${seen} already`) });
    else first.set(key, row);
  }
}

/**
 * The 400 of a refused file, with its report as the detail: how many rows were refused and for how many
 * problems, and that nothing was written (`noSheet`: the count sheet import, which makes sheets).
 * Worded without English plurals, so that a catalogue can translate it (packages/contract/src/i18n.ts).
 */
export function refusedFile(report: unknown, problems: readonly Pick<Problem, 'row'>[], outcome: 'nothing' | 'noSheet' = 'nothing'): Error {
  const badRows = new Set(problems.map((p) => p.row)).size;
  const detail = JSON.stringify(report);
  return outcome === 'noSheet'
    ? badInput(`The file was refused: rows with problems ${badRows}, problems ${problems.length}; no sheet was created`, detail)
    : badInput(`The file was refused: rows with problems ${badRows}, problems ${problems.length}; nothing was imported`, detail);
}

const refused = (report: ImportReport, problems: Problem[] = report.rejected): Error => refusedFile(report, problems);

/** The report of an import before its write: every row counted, the first problems in row order. */
function reportOf(entity: CsvEntity, rows: number, problems: Problem[]): ImportReport {
  return {
    entity,
    rows,
    imported: 0,
    inserted: 0,
    updated: 0,
    rejectedCount: problems.length,
    rejected: problems.sort((a, b) => a.row - b.row).slice(0, IMPORT_REPORT_MAX),
  };
}

/** A file's write as an idempotent write with the report of what it did; the file's hash worked out in slices. */
async function writeImport(
  deps: Deps,
  auth: AuthContext,
  body: Body<'import/csv'>,
  report: ImportReport,
  write: (tx: Db) => Promise<{ inserted: number; updated: number; changed?: Changed }>,
): Promise<CallResponse<'import/csv'>> {
  // The file's hash for the idempotency key in slices too: the same hash requestHash gives.
  const hash = body.idempotencyKey ? await requestHashPaced('import/csv', body, 'csv') : undefined;
  return idempotentWrite(
    deps,
    auth,
    'import/csv',
    body,
    async (tx) => {
      const done = await write(tx);
      return {
        response: { report: { ...report, imported: done.inserted + done.updated, inserted: done.inserted, updated: done.updated } },
        changed: done.changed,
      };
    },
    hash,
  );
}

/** Reads the file, has the entity's planner check it, and writes it all or refuses it all. */
export async function importCsv(
  deps: Deps,
  auth: AuthContext,
  body: Body<'import/csv'>,
  planner: Planner,
): Promise<CallResponse<'import/csv'>> {
  const sheet = await readCheckedSheet(body.entity, body.csv);
  if (sheet.count > IMPORT_MAX_ROWS) throw refused(reportOf(body.entity, sheet.count, sheet.problems));
  const plan = await planner(deps.db, auth, sheet, body.idempotencyKey);
  // The plan keeps what it writes; the checked rows can go.
  sheet.checked = [];
  const report = reportOf(body.entity, plan.rows, plan.problems);
  if (plan.problems.length > 0) throw refused(report, plan.problems);
  const answer = await writeImport(deps, auth, body, report, (tx) => plan.write(tx));
  await plan.afterCommit?.(deps);
  return answer;
}

/**
 * An entity's import a chunk at a time, for a file of any length in bounded memory. Pass 1 reads the
 * file and checks it chunk by chunk (`check`: against the database, and against what the plan keeps
 * of the rows before, such as their keys); when every row passed, pass 2 reads the file again and
 * writes it chunk by chunk (`write`, which looks up what it needs in the transaction) in one
 * transaction. No chunk outlives its turn, so memory does not grow with the file but for what
 * `check` keeps.
 */
export interface ChunkPlan<T> {
  check(db: Db, rows: ReadonlyArray<Checked<T>>, problems: Problem[]): Promise<void>;
  write(tx: Db, rows: ReadonlyArray<Checked<T>>): Promise<{ inserted: number; updated: number; locationIds?: readonly string[] }>;
}

/** A new chunk plan for each import (its state is that import's). */
export type ChunkPlanner = (auth: AuthContext) => ChunkPlan<unknown>;

/** Rows checked, and then written, at a time by a chunk plan. */
export const IMPORT_CHUNK_ROWS = 1000;

/** importCsv for an entity planned a chunk at a time (ChunkPlan): the same answers, the same report. */
export async function importCsvInChunks(
  deps: Deps,
  auth: AuthContext,
  body: Body<'import/csv'>,
  planner: ChunkPlanner,
): Promise<CallResponse<'import/csv'>> {
  const plan = planner(auth);
  const head = await readChecked(body.entity, body.csv, IMPORT_CHUNK_ROWS, (rows, problems) => plan.check(deps.db, rows, problems));
  const report = reportOf(body.entity, head.count, head.problems);
  if (head.problems.length > 0) throw refused(report, head.problems);
  return writeImport(deps, auth, body, report, async (tx) => {
    let inserted = 0;
    let updated = 0;
    const locationIds: string[] = [];
    const again = await readChecked(body.entity, body.csv, IMPORT_CHUNK_ROWS, async (rows) => {
      const done = await plan.write(tx, rows);
      inserted += done.inserted;
      updated += done.updated;
      for (const id of done.locationIds ?? []) locationIds.push(id);
    });
    // The record engine gives the same answers twice; should it not, nothing is written.
    if (again.problems.length > 0) throw refused(reportOf(body.entity, again.count, again.problems));
    return { inserted, updated, changed: { stockIds: [], locationIds } };
  });
}
