/*
 * The stock ledger's writes, the surface other modules change stock through (orders, picking,
 * shipping, counts): lock a record, change its quantity and place, append its movements. A record
 * and its movements change in one statement or not at all (docs/inventory.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { formatQty } from '@floorhand/contract/quantity';
import type { Tracking } from '@floorhand/contract/items';
import type { MovementType } from '@floorhand/contract/stock';
import type { AuditStamp } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { BATCH_ROWS, query } from '../../db/sql.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp } from '../../lib/audit.ts';
import { column } from './repository.ts';

/** What a change needs of a stock record, read with FOR UPDATE: concurrent changes of it wait here. */
export interface LockedStock {
  id: string;
  stock_id: string;
  rev: number;
  quantity: string;
  item_id: string;
  tracking: Tracking;
  uom: string;
  warehouse_id: string;
  location_id: string;
  condition_code: string | null;
  lot: string | null;
  serial: string | null;
  cert_source: string | null;
  received_date: string | null;
  audit: AuditStamp;
}

export async function lockStock(db: Db, orgId: string, stockId: string): Promise<LockedStock | undefined> {
  const [row] = await query<LockedStock>(
    db,
    sql`SELECT sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.item_id, i.tracking, i.uom, sr.warehouse_id, sr.location_id,
      sr.condition_code, sr.lot, sr.serial, sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, sr.audit
    FROM stock_records sr JOIN items i ON i.id = sr.item_id
    WHERE sr.org_id = ${orgId} AND sr.stock_id = ${stockId}
    FOR UPDATE OF sr`,
  );
  return row;
}

/** What a change sets on a locked record. */
export interface StockChangeSet {
  quantity: bigint;
  locationId?: string;
  warehouseId?: string;
  audit: AuditStamp;
}

/** New quantity (and place) of a locked record; its revision grows by one. */
export const stockUpdate = (id: string, set: StockChangeSet, also: SQL = sql`true`) =>
  sql`UPDATE stock_records SET quantity = ${formatQty(set.quantity)}::numeric,
      location_id = coalesce(${set.locationId ?? null}::text, location_id), warehouse_id = coalesce(${set.warehouseId ?? null}::text, warehouse_id),
      changed_at = now(), _rev = _rev + 1, audit = ${JSON.stringify(set.audit)}::jsonb
    WHERE id = ${id} AND ${also}`;

export interface NewMovement {
  stockRecordId: string;
  type: MovementType;
  qtyDelta: bigint;
  qtyAfter: bigint;
  fromLocationId: string | null;
  toLocationId: string | null;
  reason: string | null;
  relatedStockRecordId: string | null;
}

/** Who made a batch of changes: every row of it carries the same stamp. */
export interface Actor {
  orgId: string;
  siteId: string | null;
  accountId: string;
  audit: AuditStamp;
  idempotencyKey: string | null;
}

/**
 * The INSERT of a batch of movements (ids returned in the order given), for insertMovements and changeStock;
 * `also` is a condition every row must meet (a guard of the statement it is part of).
 */
export function movementInsert(actor: Actor, batch: readonly NewMovement[], also: SQL = sql`true`): SQL {
  // WITH ORDINALITY keeps the order of the arrays, so the ids come back in the order given.
  return sql`INSERT INTO movements (org_id, site_id, stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, related_stock_record_id, account_id, idempotency_key)
      SELECT ${actor.orgId}::text, ${actor.siteId}::text, u.stock_record_id, u.type, u.qty_delta, u.qty_after, u.from_location_id, u.to_location_id, u.reason, u.related,
        ${actor.accountId}::text, ${actor.idempotencyKey}::text
      FROM unnest(${column(batch, (r) => r.stockRecordId)}::text[], ${column(batch, (r) => r.type)}::text[], ${column(batch, (r) => formatQty(r.qtyDelta))}::numeric[],
        ${column(batch, (r) => formatQty(r.qtyAfter))}::numeric[], ${column(batch, (r) => r.fromLocationId)}::text[], ${column(batch, (r) => r.toLocationId)}::text[],
        ${column(batch, (r) => r.reason)}::text[], ${column(batch, (r) => r.relatedStockRecordId)}::text[])
        WITH ORDINALITY AS u(stock_record_id, type, qty_delta, qty_after, from_location_id, to_location_id, reason, related, n)
      WHERE ${also}
      ORDER BY u.n
      RETURNING id::text AS id`;
}

/** Appends movements; returns their ids in the order given. */
export async function insertMovements(db: Db, actor: Actor, rows: readonly NewMovement[]): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const inserted = await query<{ id: string }>(db, movementInsert(actor, rows.slice(at, at + BATCH_ROWS)));
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/**
 * A locked record's new quantity (and place) and the movements that say so, in one statement: the
 * UPDATE runs as a data-modifying WITH, which PostgreSQL always runs to completion, and the movements'
 * INSERT follows. One round trip instead of two on every change (docs/inventory.md, Benchmark).
 * Returns the movements' ids in the order given.
 */
export async function changeStock(
  db: Db,
  actor: Actor,
  id: string,
  set: StockChangeSet,
  movements: readonly NewMovement[],
): Promise<string[]> {
  const rows = await query<{ id: string }>(db, sql`WITH changed AS (${stockUpdate(id, set)}) ${movementInsert(actor, movements)}`);
  return rows.map((r) => r.id);
}

/** The actor of a call: who, where, and the call's idempotency key. */
export const actorOf = (auth: AuthContext, idempotencyKey?: string): Actor => ({
  orgId: auth.orgId,
  siteId: auth.siteId,
  accountId: auth.accountId,
  audit: auditStamp(auth.accountId),
  idempotencyKey: idempotencyKey ?? null,
});
