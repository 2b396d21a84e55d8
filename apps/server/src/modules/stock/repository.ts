/*
 * SQL of stock records and the movement ledger. Writes of many rows go through unnest() of one array
 * per column: one statement and a handful of parameters whatever the batch size, which is what
 * lets an import of 100,000 rows or a seed of 1,000,000 run in seconds.
 */
import { sql } from 'drizzle-orm';
import { formatQty } from '@floorhand/contract/quantity';
import type { Tracking } from '@floorhand/contract/items';
import type { LookupGroup, LookupRecord, Movement, MovementType, StockRecord } from '@floorhand/contract/stock';
import type { AuditStamp } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, insertRows, isoSql, query } from '../../db/sql.ts';
import type { Actor } from './ledger.ts';

export interface StockRow {
  id: string;
  stock_id: string;
  rev: number;
  quantity: string;
  condition_code: string | null;
  lot: string | null;
  serial: string | null;
  cert_source: string | null;
  received_date: string | null;
  changed_at: string;
  audit: AuditStamp;
  item_id: string;
  part_number: string;
  description: string;
  uom: string;
  department: string | null;
  tracking: Tracking;
  warehouse_id: string;
  warehouse: string;
  location_id: string;
  location: string;
}

/** A stock record with its item and place, without the audit (lookup lists). */
const LISTED_STOCK_COLUMNS = sql`sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.condition_code, sr.lot, sr.serial,
  sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, ${isoSql(sql`sr.changed_at`)} AS changed_at,
  i.id AS item_id, i.part_number, i.description, i.uom, i.department, i.tracking,
  w.id AS warehouse_id, w.code AS warehouse, l.id AS location_id, l.code AS location`;
export const STOCK_COLUMNS = sql`${LISTED_STOCK_COLUMNS}, sr.audit`;
// Item, location and warehouse by primary key per stock row. LIMIT 1 keeps each lateral from being
// pulled up into a plain join: PostgreSQL cannot know how few ids a lookup binds, estimates hundreds
// of rows and would hash-join a sequential scan of every location (milliseconds on 15,000); this way
// each is an index probe per row returned.
export const STOCK_FROM = sql`FROM stock_records sr
CROSS JOIN LATERAL (SELECT id, part_number, description, uom, department, tracking FROM items WHERE id = sr.item_id LIMIT 1) i
CROSS JOIN LATERAL (SELECT id, code FROM locations WHERE id = sr.location_id LIMIT 1) l
CROSS JOIN LATERAL (SELECT id, code FROM warehouses WHERE id = sr.warehouse_id LIMIT 1) w`;

/** What a stock record says of itself (a lookup group says the rest). */
const toLookupRecord = (r: Omit<StockRow, 'audit'>): LookupRecord => ({
  _id: r.id,
  _rev: r.rev,
  stockId: r.stock_id,
  quantity: Number(r.quantity),
  conditionCode: r.condition_code,
  lot: r.lot,
  serial: r.serial,
  certSource: r.cert_source,
  receivedDate: r.received_date,
  changedAt: r.changed_at,
});

/** A stock row's item and place (what a lookup group says of all its records). */
const toPlacedItem = (r: Omit<StockRow, 'audit'>): Omit<LookupGroup, 'quantity' | 'records'> => ({
  itemId: r.item_id,
  partNumber: r.part_number,
  description: r.description,
  uom: r.uom,
  tracking: r.tracking,
  department: r.department,
  warehouseId: r.warehouse_id,
  warehouse: r.warehouse,
  locationId: r.location_id,
  location: r.location,
});

export const toStockRecord = (r: StockRow): StockRecord => ({ ...toLookupRecord(r), x$audit: r.audit, ...toPlacedItem(r) });

/**
 * The number of the order a record is picked for and not yet shipped or issued (one active pick per
 * record, a unique partial index), read after the record's lock: a statement's subqueries see the
 * snapshot it started with, so read within lockStock a pick committed while it waited for the lock
 * would not be seen.
 */
export async function pickedFor(db: Db, stockRecordId: string): Promise<string | null> {
  const [row] = await query<{ number: string }>(
    db,
    sql`SELECT o.number FROM order_picks op JOIN orders o ON o.id = op.order_id WHERE op.stock_record_id = ${stockRecordId} AND op.state = 'picked'`,
  );
  return row?.number ?? null;
}

/** Stock ids made by the server: 'S' and nine digits from a sequence shared by every node. */
export async function nextStockIds(db: Db, count: number): Promise<string[]> {
  if (count === 0) return [];
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT 'S' || lpad(nextval('stock_id_seq')::text, 9, '0') AS id FROM generate_series(1, ${count}::int)`,
  );
  return rows.map((r) => r.id);
}

export interface NewStock {
  id: string;
  stockId: string;
  itemId: string;
  warehouseId: string;
  locationId: string;
  quantity: bigint;
  conditionCode: string | null;
  lot: string | null;
  serial: string | null;
  certSource: string | null;
  receivedDate: string | null;
}

/** One column of a batch of rows, as an array parameter. */
export const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => arrayParam(rows.map(pick));

export async function insertStock(db: Db, actor: Actor, rows: readonly NewStock[]): Promise<void> {
  await insertRows(
    db,
    'stock_records',
    {
      id: 'text',
      stockId: 'text',
      itemId: 'text',
      warehouseId: 'text',
      locationId: 'text',
      quantity: 'numeric',
      conditionCode: 'text',
      lot: 'text',
      serial: 'text',
      certSource: 'text',
      receivedDate: 'date',
    },
    rows.map((r) => ({ ...r, quantity: formatQty(r.quantity) })),
    { org_id: sql`${actor.orgId}::text`, audit: sql`${JSON.stringify(actor.audit)}::jsonb` },
  );
}

interface MovementRow {
  id: string;
  type: MovementType;
  stock_id: string;
  qty_delta: string;
  qty_after: string;
  from_warehouse: string | null;
  from_location: string | null;
  to_warehouse: string | null;
  to_location: string | null;
  reason: string | null;
  related_stock_id: string | null;
  account_id: string;
  user_name: string | null;
  ts: string;
}

const MOVEMENT_SELECT = sql`SELECT m.id::text AS id, m.type, sr.stock_id, m.qty_delta::text AS qty_delta, m.qty_after::text AS qty_after,
  fw.code AS from_warehouse, fl.code AS from_location, tw.code AS to_warehouse, tl.code AS to_location, m.reason, rs.stock_id AS related_stock_id,
  m.account_id, a.user_name, ${isoSql(sql`m.ts`)} AS ts
FROM movements m
JOIN stock_records sr ON sr.id = m.stock_record_id
LEFT JOIN locations fl ON fl.id = m.from_location_id LEFT JOIN warehouses fw ON fw.id = fl.warehouse_id
LEFT JOIN locations tl ON tl.id = m.to_location_id LEFT JOIN warehouses tw ON tw.id = tl.warehouse_id
LEFT JOIN stock_records rs ON rs.id = m.related_stock_record_id
LEFT JOIN accounts a ON a.id = m.account_id`;

const toMovement = (r: MovementRow): Movement => ({
  id: r.id,
  type: r.type,
  stockId: r.stock_id,
  qtyDelta: Number(r.qty_delta),
  qtyAfter: Number(r.qty_after),
  fromWarehouse: r.from_warehouse,
  fromLocation: r.from_location,
  toWarehouse: r.to_warehouse,
  toLocation: r.to_location,
  reason: r.reason,
  relatedStockId: r.related_stock_id,
  user: r.account_id,
  userName: r.user_name,
  ts: r.ts,
});

/** Movements of one stock record, newest first. */
export async function movementsOf(db: Db, stockRecordId: string, limit: number): Promise<Movement[]> {
  return (
    await query<MovementRow>(db, sql`${MOVEMENT_SELECT} WHERE m.stock_record_id = ${stockRecordId} ORDER BY m.id DESC LIMIT ${limit}`)
  ).map(toMovement);
}

/**
 * Stock records and movements by id in one round trip (the answer of every change): each list as a
 * JSON array of the same rows stockByIds and movementsByIds read, mapped the same way.
 */
export async function stockAndMovementsByIds(
  db: Db,
  orgId: string,
  stockIds: string[],
  movementIds: string[],
): Promise<{ stock: StockRecord[]; movements: Movement[] }> {
  const [row] = await query<{ stock: StockRow[] | null; movements: MovementRow[] | null }>(
    db,
    sql`SELECT (SELECT json_agg(s) FROM (SELECT ${STOCK_COLUMNS} ${STOCK_FROM} WHERE sr.org_id = ${orgId} AND sr.id = ANY(${arrayParam(stockIds)})) s) AS stock,
      (SELECT json_agg(mv ORDER BY mv.id::bigint) FROM (${MOVEMENT_SELECT} WHERE m.id = ANY(${arrayParam(movementIds)}::bigint[])) mv) AS movements`,
  );
  const found = (row?.stock ?? []).map(toStockRecord);
  return {
    stock: stockIds.map((id) => found.find((r) => r._id === id)).filter((r): r is StockRecord => r !== undefined),
    movements: (row?.movements ?? []).map(toMovement),
  };
}

export async function movementsByIds(db: Db, ids: string[]): Promise<Movement[]> {
  const rows = (await query<MovementRow>(db, sql`${MOVEMENT_SELECT} WHERE m.id = ANY(${arrayParam(ids)}::bigint[]) ORDER BY m.id`)).map(
    toMovement,
  );
  return rows;
}

/** Of these stock ids, the ones an organisation's records use already. */
export async function takenStockIds(db: Db, orgId: string, stockIds: string[]): Promise<Set<string>> {
  const rows = await query<{ stock_id: string }>(
    db,
    sql`SELECT stock_id FROM stock_records WHERE org_id = ${orgId} AND stock_id = ANY(${arrayParam(stockIds)})`,
  );
  return new Set(rows.map((r) => r.stock_id));
}

/** Of these (item, serial) pairs, the ones on hand (a quantity above zero), as `itemId \0 serial`. */
export async function serialsOnHand(db: Db, pairs: ReadonlyArray<{ itemId: string; serial: string }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await query<{ item_id: string; serial: string }>(
    db,
    sql`SELECT s.item_id, s.serial FROM stock_records s
    JOIN unnest(${column(pairs, (p) => p.itemId)}::text[], ${column(pairs, (p) => p.serial)}::text[]) AS u(item_id, serial)
      ON s.item_id = u.item_id AND s.serial = u.serial
    WHERE s.quantity > 0`,
  );
  return new Set(rows.map((r) => `${r.item_id}\u0000${r.serial}`));
}

/** Holds a location (FOR SHARE) until commit; whether it and its warehouse are active. */
export async function holdLocation(db: Db, locationId: string): Promise<boolean> {
  const [row] = await query<{ active: boolean }>(
    db,
    sql`SELECT l.active AND w.active AS active FROM locations l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.id = ${locationId} FOR SHARE OF l`,
  );
  return !!row?.active;
}

/** The location of the organisation's stock record of that stock id (none or one). */
export async function locationsOfStockId(db: Db, orgId: string, stockId: string): Promise<string[]> {
  const rows = await query<{ location_id: string }>(
    db,
    sql`SELECT location_id FROM stock_records WHERE org_id = ${orgId} AND stock_id = ${stockId}`,
  );
  return rows.map((r) => r.location_id);
}
