/*
 * References by code, resolved many at a time: what a form, a receipt or a CSV file names
 * (warehouse, location, part number, condition code, department) to the rows it means.
 */
import { sql } from 'drizzle-orm';
import type { Tracking } from '@floorhand/contract/items';
import type { Db } from '../db/client.ts';
import { arrayParam, query } from '../db/sql.ts';
import { pacer } from './pace.ts';

/** Values per `= ANY(…)` parameter. */
const CHUNK = 10_000;

async function inChunks<T, R>(values: readonly T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < values.length; at += CHUNK) out.push(...(await run(values.slice(at, at + CHUNK))));
  return out;
}

/** The values without repeats, in order; a CSV import passes a million, so it pauses now and then (lib/pace.ts). */
async function distinct<T>(values: Iterable<T>): Promise<T[]> {
  const seen = new Set<T>();
  const pace = pacer();
  let n = 0;
  for (const value of values) {
    seen.add(value);
    if ((++n & 1023) === 0) await pace();
  }
  return [...seen];
}

/** A Map of rows by their key, built with pauses (a re-import finds a million known rows). */
async function byKey<R>(rows: readonly R[], keyOf: (row: R) => string): Promise<Map<string, R>> {
  const map = new Map<string, R>();
  const pace = pacer();
  for (let i = 0; i < rows.length; i++) {
    map.set(keyOf(rows[i]!), rows[i]!);
    if ((i & 1023) === 1023) await pace();
  }
  return map;
}

export interface WarehouseRef {
  id: string;
  code: string;
  active: boolean;
}

export async function warehousesByCode(db: Db, orgId: string, codes: Iterable<string>): Promise<Map<string, WarehouseRef>> {
  const rows = await inChunks(await distinct(codes), (chunk) =>
    query<WarehouseRef>(db, sql`SELECT id, code, active FROM warehouses WHERE org_id = ${orgId} AND code = ANY(${arrayParam(chunk)})`),
  );
  return byKey(rows, (r) => r.code);
}

export interface LocationRef {
  id: string;
  warehouseId: string;
  warehouse: string;
  code: string;
  active: boolean;
  warehouseActive: boolean;
}

export const locationKey = (warehouse: string, code: string) => `${warehouse}\u0000${code}`;

/** Locations by warehouse code and location code, keyed by locationKey. */
export async function locationsByCode(
  db: Db,
  orgId: string,
  pairs: Iterable<{ warehouse: string; code: string }>,
): Promise<Map<string, LocationRef>> {
  const keys = await distinct(
    (function* () {
      for (const p of pairs) yield locationKey(p.warehouse, p.code);
    })(),
  );
  const rows = await inChunks(keys, (chunk) => {
    const split = chunk.map((k) => k.split('\u0000') as [string, string]);
    return query<LocationRef>(
      db,
      sql`SELECT l.id, l.warehouse_id AS "warehouseId", w.code AS warehouse, l.code, l.active, w.active AS "warehouseActive"
      FROM unnest(${arrayParam(split.map((s) => s[0]))}::text[], ${arrayParam(split.map((s) => s[1]))}::text[]) AS u(w, c)
      JOIN warehouses w ON w.org_id = ${orgId} AND w.code = u.w
      JOIN locations l ON l.warehouse_id = w.id AND l.code = u.c`,
    );
  });
  return byKey(rows, (r) => locationKey(r.warehouse, r.code));
}

export interface ItemRef {
  id: string;
  partNumber: string;
  tracking: Tracking;
  uom: string;
  active: boolean;
}

export async function itemsByPartNumber(db: Db, orgId: string, partNumbers: Iterable<string>): Promise<Map<string, ItemRef>> {
  const rows = await inChunks(await distinct(partNumbers), (chunk) =>
    query<ItemRef>(
      db,
      sql`SELECT id, part_number AS "partNumber", tracking, uom, active FROM items WHERE org_id = ${orgId} AND part_number = ANY(${arrayParam(chunk)})`,
    ),
  );
  return byKey(rows, (r) => r.partNumber);
}

/** Codes of active condition codes or departments (record layer entities in the records table). */
export async function activeCodes(
  db: Db,
  orgId: string,
  type: 'conditionCode' | 'department',
  codes: Iterable<string>,
): Promise<Set<string>> {
  const rows = await inChunks(await distinct(codes), (chunk) =>
    query<{ id: string }>(
      db,
      sql`SELECT _id AS id FROM records WHERE org_id = ${orgId} AND type = ${type} AND _id = ANY(${arrayParam(chunk)}) AND (data->>'active')::boolean IS TRUE`,
    ),
  );
  return new Set(rows.map((r) => r.id));
}

/** Barcodes among these that already name an item other than `exceptItemId`, with that item's part number. */
export async function barcodeOwners(
  db: Db,
  orgId: string,
  barcodes: Iterable<string>,
  exceptItemId?: string,
): Promise<Map<string, string>> {
  const rows = await inChunks(await distinct(barcodes), (chunk) =>
    query<{ barcode: string; part_number: string }>(
      db,
      sql`SELECT b.barcode, i.part_number FROM item_barcodes b JOIN items i ON i.id = b.item_id
      WHERE b.org_id = ${orgId} AND b.barcode = ANY(${arrayParam(chunk)}) AND b.item_id <> ${exceptItemId ?? ''}`,
    ),
  );
  return new Map(rows.map((r) => [r.barcode, r.part_number]));
}
