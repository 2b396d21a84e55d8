/*
 * CSV import of warehouses, locations, items and stock: all or nothing. Every row is checked first
 * (the record engine against the entity's EntityDef, then references and duplicates in bulk); if any
 * row is refused nothing is written and the answer is 400 with the report of every problem (row,
 * field, message). Otherwise all rows are written in ONE transaction with batched statements.
 *
 * - Warehouses, locations and items are upserted by their code (part number; warehouse + code): a new
 *   code is inserted, a known one updated. An empty cell, or a column left out, keeps the stored value
 *   on update and takes the default on insert. The barcodes column replaces an item's aliases ('|'
 *   between them), when the column is there.
 * - Stock rows are receipts: each makes a new stock record with its first movement (receive). A stock
 *   id already in use is refused; a row without one gets a server-made id.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { CsvError, parseCsv, restoreFormula } from '@floorhand/contract/csv';
import { AppError, ERR } from '@floorhand/contract/errors';
import { BARCODE_SEPARATOR, CSV_COLUMNS, IMPORT_REPORT_MAX, INVENTORY_ENTITIES, type CsvEntity, type ImportReport } from '@floorhand/contract/csv-transfer';
import type { Tracking } from '@floorhand/contract/items';
import { RECORD_KEY, validateRecord } from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, BATCH_ROWS, query } from '../../db/sql.ts';
import { dup } from '../../lib/errors.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { type Body } from '../../lib/call-body.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { actorOf, loadReceiptRefs, resolveReceipt, writeReceipts, type ReceiptInput, type ResolvedReceipt } from './service.ts';
import { activeCodes, barcodeOwners, itemsByPartNumber, locationKey, locationsByCode, warehousesByCode } from './refs.ts';

interface Problem {
  row: number;
  field: string;
  message: string;
}

/** A data row as a record: its columns' non-empty cells, and where it was in the file. */
interface Row {
  row: number;
  record: Record<string, unknown>;
}

/** What a checked file will do once written. */
interface Plan {
  problems: Problem[];
  rows: number;
  write(tx: Db): Promise<{ inserted: number; updated: number; changed?: { stockIds: string[]; locationIds: string[] } }>;
}

type Sheet = { header: string[]; rows: Row[]; problems: Problem[]; count: number };

/** The header (matched to the entity's columns, any case) and the rows as records; blank lines are skipped. */
function readSheet(entity: CsvEntity, csv: string): Sheet {
  const columns = CSV_COLUMNS[entity];
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
        const def = INVENTORY_ENTITIES[entity];
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
        record[name] = name === 'barcodes' ? value.split(BARCODE_SEPARATOR).map((b) => b.trim()).filter(Boolean) : value;
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
function checkRows<T>(entity: CsvEntity, rows: Row[], problems: Problem[]): Array<{ row: number; value: T }> {
  const def = INVENTORY_ENTITIES[entity];
  const passed: Array<{ row: number; value: T }> = [];
  for (const { row, record } of rows) {
    const result = validateRecord(def, record);
    if (result.ok) passed.push({ row, value: result.value as T });
    else for (const [field, messages] of Object.entries(result.errors)) for (const message of messages) problems.push({ row, field, message });
  }
  return passed;
}

/** Rows whose key another row of the file has already: all but the first are refused. */
function refuseRepeats<T>(rows: Array<{ row: number; value: T }>, keyOf: (v: T) => string | undefined, field: string, what: string, problems: Problem[]) {
  const first = new Map<string, number>();
  for (const { row, value } of rows) {
    const key = keyOf(value);
    if (key === undefined) continue;
    const seen = first.get(key);
    if (seen !== undefined) problems.push({ row, field, message: `${what} is in row ${seen} already` });
    else first.set(key, row);
  }
}

/** Keys of the rows whose active cell turns off something that holds stock. */
async function holdingStock(db: Db, column: 'warehouse_id' | 'location_id', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT DISTINCT ${sql.raw(column)} AS id FROM stock_records WHERE ${sql.raw(column)} = ANY(${arrayParam(ids)}) AND quantity > 0`,
  );
  return new Set(rows.map((r) => r.id));
}

const col = <T, V>(rows: readonly T[], pick: (r: T) => V) => arrayParam(rows.map(pick));

async function batched<T>(rows: readonly T[], run: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < rows.length; at += BATCH_ROWS) await run(rows.slice(at, at + BATCH_ROWS));
}

// ---------------------------------------------------------------------------------------------

interface WarehouseIn {
  code: string;
  name: string;
  active?: boolean;
}

async function planWarehouses(db: Db, auth: AuthContext, sheet: Sheet): Promise<Plan> {
  const { problems } = sheet;
  const rows = checkRows<WarehouseIn>('warehouses', sheet.rows, problems);
  refuseRepeats(rows, (v) => v.code, 'code', 'This code', problems);
  const known = await warehousesByCode(db, auth.orgId, rows.map((r) => r.value.code));
  const offIds = rows.flatMap(({ value }) => (value.active === false && known.get(value.code)?.active ? [known.get(value.code)!.id] : []));
  const holding = await holdingStock(db, 'warehouse_id', offIds);
  for (const { row, value } of rows) {
    if (holding.has(known.get(value.code)?.id ?? '')) problems.push({ row, field: 'active', message: `The warehouse '${value.code}' holds stock and cannot be deactivated` });
  }
  const audit = JSON.stringify(auditStamp(auth.accountId));
  const fresh = rows.filter((r) => !known.has(r.value.code)).map((r) => r.value);
  const old = rows.filter((r) => known.has(r.value.code)).map((r) => ({ ...r.value, id: known.get(r.value.code)!.id }));
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await batched(fresh, (b) =>
        query(
          tx,
          sql`INSERT INTO warehouses (id, org_id, code, name, active, audit)
          SELECT u.id, ${auth.orgId}::text, u.code, u.name, coalesce(u.active, true), ${audit}::jsonb
          FROM unnest(${col(b, () => newId())}::text[], ${col(b, (r) => r.code)}::text[], ${col(b, (r) => r.name)}::text[], ${col(b, (r) => r.active ?? null)}::boolean[])
            AS u(id, code, name, active)`,
        ),
      );
      await batched(old, (b) =>
        query(
          tx,
          sql`UPDATE warehouses w SET name = u.name, active = coalesce(u.active, w.active), _rev = w._rev + 1,
            audit = jsonb_set(${audit}::jsonb, '{create}', w.audit->'create')
          FROM unnest(${col(b, (r) => r.id)}::text[], ${col(b, (r) => r.name)}::text[], ${col(b, (r) => r.active ?? null)}::boolean[]) AS u(id, name, active)
          WHERE w.id = u.id`,
        ),
      );
      return { inserted: fresh.length, updated: old.length };
    },
  };
}

interface LocationIn {
  warehouse: string;
  code: string;
  description?: string;
  type?: string;
  active?: boolean;
}

async function planLocations(db: Db, auth: AuthContext, sheet: Sheet): Promise<Plan> {
  const { problems } = sheet;
  const rows = checkRows<LocationIn>('locations', sheet.rows, problems);
  refuseRepeats(rows, (v) => locationKey(v.warehouse, v.code), 'code', 'This location', problems);
  const whs = await warehousesByCode(db, auth.orgId, rows.map((r) => r.value.warehouse));
  const known = await locationsByCode(db, auth.orgId, rows.map((r) => r.value));
  const holding = await holdingStock(
    db,
    'location_id',
    rows.flatMap(({ value }) => {
      const loc = known.get(locationKey(value.warehouse, value.code));
      return value.active === false && loc?.active ? [loc.id] : [];
    }),
  );
  const fresh: Array<LocationIn & { warehouseId: string }> = [];
  const old: Array<LocationIn & { id: string }> = [];
  for (const { row, value } of rows) {
    const wh = whs.get(value.warehouse);
    const loc = known.get(locationKey(value.warehouse, value.code));
    if (!wh) problems.push({ row, field: 'warehouse', message: `No warehouse '${value.warehouse}' exists` });
    else if (loc && holding.has(loc.id)) problems.push({ row, field: 'active', message: `The location '${value.code}' holds stock and cannot be deactivated` });
    else if (loc) old.push({ ...value, id: loc.id });
    else fresh.push({ ...value, warehouseId: wh.id });
  }
  const audit = JSON.stringify(auditStamp(auth.accountId));
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await batched(fresh, (b) =>
        query(
          tx,
          sql`INSERT INTO locations (id, org_id, warehouse_id, code, description, type, active, audit)
          SELECT u.id, ${auth.orgId}::text, u.warehouse_id, u.code, coalesce(u.description, ''), coalesce(u.type, 'bin'), coalesce(u.active, true), ${audit}::jsonb
          FROM unnest(${col(b, () => newId())}::text[], ${col(b, (r) => r.warehouseId)}::text[], ${col(b, (r) => r.code)}::text[],
            ${col(b, (r) => r.description ?? null)}::text[], ${col(b, (r) => r.type ?? null)}::text[], ${col(b, (r) => r.active ?? null)}::boolean[])
            AS u(id, warehouse_id, code, description, type, active)`,
        ),
      );
      await batched(old, (b) =>
        query(
          tx,
          sql`UPDATE locations l SET description = coalesce(u.description, l.description), type = coalesce(u.type, l.type), active = coalesce(u.active, l.active),
            _rev = l._rev + 1, audit = jsonb_set(${audit}::jsonb, '{create}', l.audit->'create')
          FROM unnest(${col(b, (r) => r.id)}::text[], ${col(b, (r) => r.description ?? null)}::text[], ${col(b, (r) => r.type ?? null)}::text[],
            ${col(b, (r) => r.active ?? null)}::boolean[]) AS u(id, description, type, active)
          WHERE l.id = u.id`,
        ),
      );
      return { inserted: fresh.length, updated: old.length, changed: { stockIds: [], locationIds: old.map((r) => r.id) } };
    },
  };
}

interface ItemIn {
  partNumber: string;
  description: string;
  uom?: string;
  department?: string;
  tracking?: Tracking;
  barcodes?: string[];
  active?: boolean;
}

async function planItems(db: Db, auth: AuthContext, sheet: Sheet): Promise<Plan> {
  const { problems } = sheet;
  const withBarcodes = sheet.header.includes('barcodes');
  const rows = checkRows<ItemIn>('items', sheet.rows, problems);
  refuseRepeats(rows, (v) => v.partNumber, 'partNumber', 'This part number', problems);
  const barcodeRows = rows.flatMap(({ row, value }) => [...new Set(value.barcodes ?? [])].map((barcode) => ({ row, value: { barcode, partNumber: value.partNumber } })));
  refuseRepeats(barcodeRows, (v) => v.barcode, 'barcodes', 'This barcode', problems);
  const known = await itemsByPartNumber(db, auth.orgId, rows.map((r) => r.value.partNumber));
  const departments = await activeCodes(db, auth.orgId, 'department', rows.flatMap((r) => (r.value.department ? [r.value.department] : [])));
  // A barcode may move between items of this file: it is free when its owner is here and lets it go.
  const newCodes = new Map(rows.map((r) => [r.value.partNumber, new Set(r.value.barcodes ?? [])]));
  const owners = await barcodeOwners(db, auth.orgId, barcodeRows.map((r) => r.value.barcode));
  for (const { row, value } of barcodeRows) {
    const owner = owners.get(value.barcode);
    const released = owner !== undefined && withBarcodes && newCodes.has(owner) && !newCodes.get(owner)!.has(value.barcode);
    if (owner !== undefined && owner !== value.partNumber && !released) {
      problems.push({ row, field: 'barcodes', message: `The barcode '${value.barcode}' already names the item '${owner}'` });
    }
  }
  const changing = rows.filter(({ value }) => {
    const item = known.get(value.partNumber);
    return item && value.tracking && value.tracking !== item.tracking;
  });
  const stocked = new Set(
    changing.length === 0
      ? []
      : (
          await query<{ id: string }>(
            db,
            sql`SELECT DISTINCT item_id AS id FROM stock_records WHERE item_id = ANY(${arrayParam(changing.map((r) => known.get(r.value.partNumber)!.id))}) AND quantity > 0`,
          )
        ).map((r) => r.id),
  );
  for (const { row, value } of rows) {
    if (value.department && !departments.has(value.department)) problems.push({ row, field: 'department', message: `No active department '${value.department}' exists` });
    const item = known.get(value.partNumber);
    if (item && stocked.has(item.id)) problems.push({ row, field: 'tracking', message: `The tracking of '${value.partNumber}' cannot change while it has stock on hand` });
  }
  const audit = JSON.stringify(auditStamp(auth.accountId));
  const all = rows.map((r) => ({ ...r.value, id: known.get(r.value.partNumber)?.id ?? newId(), fresh: !known.has(r.value.partNumber) }));
  const fresh = all.filter((r) => r.fresh);
  const old = all.filter((r) => !r.fresh);
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await batched(fresh, (b) =>
        query(
          tx,
          sql`INSERT INTO items (id, org_id, part_number, description, uom, department, tracking, active, audit)
          SELECT u.id, ${auth.orgId}::text, u.part_number, u.description, coalesce(u.uom, 'EA'), u.department, coalesce(u.tracking, 'none'), coalesce(u.active, true), ${audit}::jsonb
          FROM unnest(${col(b, (r) => r.id)}::text[], ${col(b, (r) => r.partNumber)}::text[], ${col(b, (r) => r.description)}::text[], ${col(b, (r) => r.uom ?? null)}::text[],
            ${col(b, (r) => r.department ?? null)}::text[], ${col(b, (r) => r.tracking ?? null)}::text[], ${col(b, (r) => r.active ?? null)}::boolean[])
            AS u(id, part_number, description, uom, department, tracking, active)`,
        ),
      );
      await batched(old, (b) =>
        query(
          tx,
          sql`UPDATE items i SET description = u.description, uom = coalesce(u.uom, i.uom), department = coalesce(u.department, i.department),
            tracking = coalesce(u.tracking, i.tracking), active = coalesce(u.active, i.active), _rev = i._rev + 1,
            audit = jsonb_set(${audit}::jsonb, '{create}', i.audit->'create')
          FROM unnest(${col(b, (r) => r.id)}::text[], ${col(b, (r) => r.description)}::text[], ${col(b, (r) => r.uom ?? null)}::text[],
            ${col(b, (r) => r.department ?? null)}::text[], ${col(b, (r) => r.tracking ?? null)}::text[], ${col(b, (r) => r.active ?? null)}::boolean[])
            AS u(id, description, uom, department, tracking, active)
          WHERE i.id = u.id`,
        ),
      );
      if (withBarcodes) {
        await batched(old, (b) => query(tx, sql`DELETE FROM item_barcodes WHERE item_id = ANY(${col(b, (r) => r.id)})`));
        const codes = all.flatMap((r) => [...new Set(r.barcodes ?? [])].map((barcode) => ({ barcode, itemId: r.id })));
        await mapDuplicates(
          () =>
            batched(codes, (b) =>
              query(
                tx,
                sql`INSERT INTO item_barcodes (org_id, barcode, item_id)
                SELECT ${auth.orgId}::text, u.barcode, u.item_id FROM unnest(${col(b, (r) => r.barcode)}::text[], ${col(b, (r) => r.itemId)}::text[]) AS u(barcode, item_id)`,
              ),
            ),
          { item_barcodes_org_barcode: () => dup('Barcode', '(one of the file)', 'Another item took one of these barcodes meanwhile; import again') },
        );
      }
      return { inserted: fresh.length, updated: old.length };
    },
  };
}

async function planStock(db: Db, auth: AuthContext, sheet: Sheet, idempotencyKey?: string): Promise<Plan> {
  const { problems } = sheet;
  const rows = checkRows<ReceiptInput>('stock', sheet.rows, problems);
  refuseRepeats(rows, (v) => v.stockId, 'stockId', 'This stock id', problems);
  refuseRepeats(rows, (v) => (v.serial ? `${v.partNumber}\u0000${v.serial}` : undefined), 'serial', 'This serial of the part', problems);
  const refs = await loadReceiptRefs(db, auth.orgId, rows.map((r) => r.value));
  const taken = new Set(
    (
      await query<{ stock_id: string }>(
        db,
        sql`SELECT stock_id FROM stock_records WHERE org_id = ${auth.orgId} AND stock_id = ANY(${arrayParam(rows.flatMap((r) => (r.value.stockId ? [r.value.stockId] : [])))})`,
      )
    ).map((r) => r.stock_id),
  );
  const serialRows = rows.filter((r) => r.value.serial && refs.items.has(r.value.partNumber));
  const onHand = new Set(
    serialRows.length === 0
      ? []
      : (
          await query<{ item_id: string; serial: string }>(
            db,
            sql`SELECT s.item_id, s.serial FROM stock_records s
            JOIN unnest(${col(serialRows, (r) => refs.items.get(r.value.partNumber)!.id)}::text[], ${col(serialRows, (r) => r.value.serial)}::text[]) AS u(item_id, serial)
              ON s.item_id = u.item_id AND s.serial = u.serial
            WHERE s.quantity > 0`,
          )
        ).map((r) => `${r.item_id}\u0000${r.serial}`),
  );
  const receipts: ResolvedReceipt[] = [];
  for (const { row, value } of rows) {
    if (value.stockId && taken.has(value.stockId)) problems.push({ row, field: 'stockId', message: `A Stock Record with id '${value.stockId}' already exists.` });
    const item = refs.items.get(value.partNumber);
    if (item && value.serial && onHand.has(`${item.id}\u0000${value.serial}`)) {
      problems.push({ row, field: 'serial', message: `The serial '${value.serial}' of '${value.partNumber}' is on hand already` });
    }
    const resolved = resolveReceipt(value, refs);
    if ('errors' in resolved) for (const [field, messages] of Object.entries(resolved.errors)) for (const message of messages) problems.push({ row, field, message });
    else receipts.push(resolved.stock);
  }
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      const actor = actorOf(auth, idempotencyKey);
      await mapDuplicates(() => writeReceipts(tx, actor, receipts), {
        stock_records_org_stock_id: () => dup('Stock Record', '(one of the file)', 'A stock id of the file was taken meanwhile; import again'),
        stock_records_item_serial: () => dup('Serial', '(one of the file)', 'A serial of the file came on hand meanwhile; import again'),
      });
      return { inserted: receipts.length, updated: 0, changed: { stockIds: [], locationIds: [...new Set(receipts.map((r) => r.locationId))] } };
    },
  };
}

const PLANNERS = { warehouses: planWarehouses, locations: planLocations, items: planItems, stock: planStock } as const;

export async function importCsv(deps: Deps, auth: AuthContext, body: Body<'import/csv'>): Promise<CallResponse<'import/csv'>> {
  const sheet = readSheet(body.entity, body.csv);
  const plan = await PLANNERS[body.entity](deps.db, auth, sheet, body.idempotencyKey);
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
    throw new AppError(400, {
      code: ERR.badInput,
      message: `${badRows} row${badRows === 1 ? '' : 's'} of the file ${badRows === 1 ? 'was' : 'were'} refused (${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'}); nothing was imported`,
      detail: JSON.stringify(report),
    });
  }
  return idempotentWrite(deps, auth, 'import/csv', body, async (tx) => {
    const done = await plan.write(tx);
    return { response: { report: { ...report, imported: done.inserted + done.updated, inserted: done.inserted, updated: done.updated } }, changed: done.changed };
  });
}
