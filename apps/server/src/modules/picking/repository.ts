/*
 * The SQL of picking: the pick list, where a line's stock lies, the picks made, and the lookups of a
 * scan. Stock already picked for an order (an active order_picks row) is never offered again.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { OrderType } from '@floorhand/contract/orders';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import { lineSelectFrom, personName, type LineRow, type OrderRow } from '../orders/queries.ts';
import type { AuditStamp } from '../../db/schema.ts';
import type { LocationRef } from '../../lib/refs.ts';
import { movementInsert, stockUpdate, type Actor, type LockedStock, type NewMovement, type StockChangeSet } from '../stock/ledger.ts';
import type { PickRow } from './queries.ts';

export interface SourceRow {
  item_id: string;
  stock_id: string;
  location_id: string;
  location: string;
  quantity: string;
  lot: string | null;
  serial: string | null;
}

/** Stock of these items in a warehouse that can be picked: on hand, in an active location that is not a staging place, not picked already. */
export async function pickSources(db: Db, orgId: string, warehouseId: string, itemIds: string[]): Promise<SourceRow[]> {
  if (itemIds.length === 0) return [];
  return query<SourceRow>(
    db,
    sql`SELECT sr.item_id, sr.stock_id, sr.location_id, l.code AS location, sr.quantity::text AS quantity, sr.lot, sr.serial
    FROM stock_records sr JOIN locations l ON l.id = sr.location_id
    WHERE sr.org_id = ${orgId} AND sr.warehouse_id = ${warehouseId} AND sr.item_id = ANY(${arrayParam(itemIds)}) AND sr.quantity > 0
      AND l.active AND l.type <> 'staging'
      AND NOT EXISTS (SELECT 1 FROM order_picks p WHERE p.stock_record_id = sr.id AND p.state = 'picked')
    ORDER BY sr.received_date NULLS LAST, sr.stock_id`,
  );
}

export interface PickRef {
  id: string;
  order_id: string;
  line_id: string;
  stock_record_id: string;
  stock_id: string;
  qty: string;
  state: string;
}

export async function pickRefById(db: Db, orgId: string, id: string): Promise<PickRef | undefined> {
  const [row] = await query<PickRef>(
    db,
    sql`SELECT p.id, p.order_id, p.line_id, p.stock_record_id, sr.stock_id, p.qty::text AS qty, p.state
    FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id WHERE p.org_id = ${orgId} AND p.id = ${id}`,
  );
  return row;
}

/** The order a stock record is picked for at the moment, if any. */
export async function activePickOf(db: Db, stockRecordId: string): Promise<{ number: string } | undefined> {
  const [row] = await query<{ number: string }>(
    db,
    sql`SELECT o.number FROM order_picks p JOIN orders o ON o.id = p.order_id WHERE p.stock_record_id = ${stockRecordId} AND p.state = 'picked' LIMIT 1`,
  );
  return row;
}

/** Items a scan names by part number or barcode. */
export async function itemsByScan(db: Db, orgId: string, scan: string): Promise<Array<{ id: string; part_number: string }>> {
  return query<{ id: string; part_number: string }>(
    db,
    sql`SELECT id, part_number FROM items WHERE org_id = ${orgId} AND part_number = ${scan}
    UNION SELECT i.id, i.part_number FROM item_barcodes b JOIN items i ON i.id = b.item_id WHERE b.org_id = ${orgId} AND b.barcode = ${scan}`,
  );
}

/** The pickable records of an item in a location (for a scan of the item rather than its label). */
export async function recordsOfItemAt(db: Db, orgId: string, itemId: string, locationId: string): Promise<string[]> {
  const rows = await query<{ stock_id: string }>(
    db,
    sql`SELECT sr.stock_id FROM stock_records sr WHERE sr.org_id = ${orgId} AND sr.item_id = ${itemId} AND sr.location_id = ${locationId} AND sr.quantity > 0
      AND NOT EXISTS (SELECT 1 FROM order_picks p WHERE p.stock_record_id = sr.id AND p.state = 'picked') LIMIT 2`,
  );
  return rows.map((r) => r.stock_id);
}

/** An item's part number. */
export async function partNumberOf(db: Db, itemId: string): Promise<string | undefined> {
  return (await query<{ part_number: string }>(db, sql`SELECT part_number FROM items WHERE id = ${itemId}`))[0]?.part_number;
}

/** Whether a location holds no more stock (quantity above zero). */
export async function locationIsEmpty(db: Db, locationId: string): Promise<boolean> {
  const rows = await query<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM stock_records WHERE location_id = ${locationId} AND quantity > 0 LIMIT 1`,
  );
  return rows.length === 0;
}

// ---------------------------------------------------------------------------------------------
// pick/confirm in few round trips (docs/orders.md, "Pick confirm"): a read before the transaction,
// one statement locking and reading what the checks need, one statement writing the pick.

/** What a confirm reads before its transaction: the order's type and state, the line's, and the app settings. */
export interface ConfirmPreview {
  type: OrderType;
  status: string;
  order_claimed_by: string | null;
  line_claimed_by: string | null;
  line_status: string;
  open: string;
  settings: unknown;
}

export async function confirmPreview(db: Db, orgId: string, siteId: string, lineId: string): Promise<ConfirmPreview | undefined> {
  const [row] = await query<ConfirmPreview>(
    db,
    sql`SELECT o.type, o.status, o.claimed_by AS order_claimed_by, ol.claimed_by AS line_claimed_by, ol.status AS line_status,
      (ol.qty - ol.qty_picked - ol.qty_short)::text AS open,
      (SELECT d.data FROM site_data d WHERE d.site_id = ${siteId} AND d.section = 'conf' AND d.data_id = 'app_settings') AS settings
    FROM order_lines ol JOIN orders o ON o.id = ol.order_id WHERE ol.org_id = ${orgId} AND ol.id = ${lineId}`,
  );
  return row;
}

/** The order as a confirm needs it (no line counts: nothing answers them). */
export type ConfirmOrder = {
  [K in 'id' | 'type' | 'number' | 'status' | 'warehouse_id' | 'warehouse' | 'claimed_by' | 'claimed_name']: OrderRow[K];
};

export interface ConfirmLocked {
  order: ConfirmOrder | null;
  line: LineRow | null;
  /**
   * The record the scan names by its label, locked; null when the scan is no label of this organisation.
   * Whether it is picked already is read by confirmWriteSql, after the lock (stock/repository.ts pickedFor says why).
   */
  stock: (LockedStock & { part_number: string }) | null;
  place: LocationRef | null;
  staging: { id: string; code: string } | null;
}

/**
 * One statement: locks the order (FOR SHARE when the pick changes nothing of the order, else FOR UPDATE),
 * then the line, then the record the scan names by its label (FOR UPDATE), always in that order (each
 * CTE waits on the one before it), and reads the scanned location in the order's warehouse and the
 * staging place. Locked rows are read as they are after any wait (PostgreSQL re-reads a row it waited
 * for), so every check on them holds until commit.
 */
export async function lockForConfirm(
  db: Db,
  orgId: string,
  lineId: string,
  scan: string,
  location: string,
  orderLock: 'share' | 'update',
): Promise<ConfirmLocked> {
  const lock = orderLock === 'share' ? sql.raw('FOR SHARE OF o') : sql.raw('FOR UPDATE OF o');
  const [row] = await query<ConfirmLocked>(
    db,
    sql`WITH ord AS (
      SELECT o.id, o.type, o.number, o.status, o.warehouse_id, w.code AS warehouse, o.staging_location_id, o.claimed_by, ${personName('ca')} AS claimed_name
      FROM orders o JOIN warehouses w ON w.id = o.warehouse_id LEFT JOIN accounts ca ON ca.id = o.claimed_by
      WHERE o.org_id = ${orgId} AND o.id = (SELECT x.order_id FROM order_lines x WHERE x.org_id = ${orgId} AND x.id = ${lineId})
      ${lock}
    ), line AS (
      ${lineSelectFrom(sql`order_lines`)}
      WHERE ol.org_id = ${orgId} AND ol.id = ${lineId} AND ol.order_id = (SELECT id FROM ord)
      FOR UPDATE OF ol
    ), stock AS (
      SELECT sr.id, sr.stock_id, sr._rev AS rev, sr.quantity::text AS quantity, sr.item_id, i.part_number, i.tracking, i.uom, sr.warehouse_id, sr.location_id,
        sr.condition_code, sr.lot, sr.serial, sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, sr.audit
      FROM stock_records sr JOIN items i ON i.id = sr.item_id
      WHERE sr.org_id = ${orgId} AND sr.stock_id = ${scan} AND EXISTS (SELECT 1 FROM line)
      FOR UPDATE OF sr
    )
    SELECT (SELECT row_to_json(ord) FROM ord) AS "order",
      (SELECT row_to_json(line) FROM line) AS line,
      (SELECT row_to_json(stock) FROM stock) AS stock,
      (SELECT row_to_json(p) FROM (SELECT l.id, l.warehouse_id AS "warehouseId", w.code AS warehouse, l.code, l.active, w.active AS "warehouseActive"
        FROM ord JOIN warehouses w ON w.id = ord.warehouse_id JOIN locations l ON l.warehouse_id = w.id AND l.code = ${location}) p) AS place,
      (SELECT row_to_json(s) FROM (
        SELECT l.id, l.code FROM ord JOIN locations l ON l.id = ord.staging_location_id
        UNION ALL
        (SELECT l.id, l.code FROM ord JOIN locations l ON l.warehouse_id = ord.warehouse_id AND l.type = 'staging' AND l.active
          WHERE ord.staging_location_id IS NULL ORDER BY l.code LIMIT 1)
      ) s LIMIT 1) AS staging`,
  );
  return row!;
}

export interface ConfirmWrite {
  /** The order the record is picked for already (then nothing was written). */
  picked_for: string | null;
  /** The order's status after the pick, when the pick may change it. */
  order_status: string | null;
  line: LineRow | null;
  pick: PickRow | null;
  location_empty: boolean | null;
}

/** What a pick does to its stock record: all of it moves (the change), or a part is split off at the staging place. */
export interface ConfirmStock {
  record: LockedStock;
  change: StockChangeSet;
  movements: NewMovement[];
  /** The new record split off, when the pick takes part of the record. */
  split: { id: string; warehouseId: string; locationId: string; qty: string; orgId: string; audit: AuditStamp } | null;
}

type ConfirmWriteInput = Omit<Parameters<typeof confirmWriteSql>[0], 'split' | 'stockChange' | 'movements'>;

/** Writes a pick (confirmWriteSql) with its stock change and movements, all guarded by the statement's `go`. */
export async function writeConfirm(tx: Db, actor: Actor, stock: ConfirmStock, w: ConfirmWriteInput): Promise<ConfirmWrite> {
  const row = stock.record;
  const s = stock.split;
  const go = sql`EXISTS (SELECT 1 FROM go)`;
  const split = s
    ? {
        sql: sql`INSERT INTO stock_records (id, stock_id, item_id, warehouse_id, location_id, quantity, condition_code, lot, serial, cert_source, received_date, org_id, audit)
            SELECT ${s.id}, 'S' || lpad(nextval('stock_id_seq')::text, 9, '0'), ${row.item_id}, ${s.warehouseId}, ${s.locationId}, ${s.qty}::numeric,
              ${row.condition_code}, ${row.lot}, ${row.serial}, ${row.cert_source}, ${row.received_date}::date, ${s.orgId}, ${JSON.stringify(s.audit)}::jsonb
            FROM go RETURNING stock_id`,
      }
    : null;
  const statement = confirmWriteSql({
    ...w,
    split,
    stockChange: stockUpdate(row.id, stock.change, go),
    movements: movementInsert(actor, stock.movements, go),
  });
  const [written] = await query<ConfirmWrite>(tx, statement);
  return written!;
}

/**
 * One statement writing a pick, run after lockForConfirm: unless the record is picked already (read
 * here, after the record's lock was had, so a pick committed meanwhile is seen) or `proceed` is false
 * (a later check refused the pick), the part split off (or the whole record) moves to the staging
 * place with its pick movements, the pick row is inserted and the line counts it; answers the line
 * and the pick as `lineById` and `pickById` would read them afterwards, and whether the location the
 * stock came from holds nothing more.
 */
function confirmWriteSql(w: {
  proceed: boolean;
  recordId: string;
  split: { sql: SQL } | null;
  stockChange: SQL;
  movements: SQL;
  pick: {
    id: string;
    orgId: string;
    orderId: string;
    lineId: string;
    stockRecordId: string;
    stockId: string;
    qty: string;
    fromLocationId: string;
    fromCode: string;
    toLocationId: string;
    toCode: string;
    accountId: string;
  };
  lineStatus: 'open' | 'picked';
  /**
   * What the pick changes of the order (taken FOR UPDATE): its claim, and its status as claimOnFirstPick
   * then settleStatus (orders/service.ts) set it, counted with the line as this pick leaves it.
   */
  order: {
    claim: boolean;
    /** The status once claimed (`assign` when it was one of `include`). */
    claimedStatus: string;
    claimedStatusIsPicked: boolean;
    /** Whether that status is one of the type's `include` or `assign` statuses (only then does a finished order become `picked`). */
    claimedStatusPickable: boolean;
    assign: string;
    picked: string;
  } | null;
}): SQL {
  const p = w.pick;
  const o = w.order;
  return sql`WITH guard AS (
      SELECT (SELECT o.number FROM order_picks x JOIN orders o ON o.id = x.order_id WHERE x.stock_record_id = ${w.recordId} AND x.state = 'picked' LIMIT 1) AS picked_for
    ), go AS (SELECT 1 AS one FROM guard WHERE guard.picked_for IS NULL AND ${w.proceed}::boolean)
    ${w.split ? sql`, made AS (${w.split.sql})` : sql``}
    , changed AS (${w.stockChange})
    , moved AS (${w.movements})
    , pick AS (
      INSERT INTO order_picks (id, org_id, order_id, line_id, stock_record_id, qty, from_location_id, to_location_id, account_id)
      SELECT ${p.id}, ${p.orgId}, ${p.orderId}, ${p.lineId}, ${p.stockRecordId}, ${p.qty}::numeric, ${p.fromLocationId}, ${p.toLocationId}, ${p.accountId} FROM go
      RETURNING id, line_id, qty::text AS qty, account_id, ts
    ), line AS (
      UPDATE order_lines SET qty_picked = qty_picked + ${p.qty}::numeric, status = ${w.lineStatus}, _rev = _rev + 1
      WHERE id = ${p.lineId} AND EXISTS (SELECT 1 FROM go) RETURNING *
    )
    ${
      o
        ? sql`, counted AS (
      SELECT (count(*) FILTER (WHERE x.status = 'open' AND x.id <> ${p.lineId}))::int + ${w.lineStatus === 'open' ? 1 : 0}::int AS open,
        (count(*) FILTER (WHERE x.status <> 'cancelled'))::int AS lines
      FROM order_lines x WHERE x.order_id = ${p.orderId}
    ), settled AS (
      SELECT CASE WHEN counted.open = 0 AND counted.lines > 0 AND ${o.claimedStatusPickable}::boolean THEN ${o.picked}::text
        WHEN counted.open > 0 AND ${o.claimedStatusIsPicked}::boolean THEN ${o.assign}::text
        ELSE ${o.claimedStatus}::text END AS status
      FROM counted
    ), ordered AS (
      UPDATE orders SET claimed_by = CASE WHEN ${o.claim}::boolean THEN ${p.accountId}::text ELSE claimed_by END, status = settled.status,
        _rev = _rev + ${o.claim ? 1 : 0}::int + CASE WHEN settled.status <> ${o.claimedStatus}::text THEN 1 ELSE 0 END
      FROM settled WHERE orders.id = ${p.orderId} AND EXISTS (SELECT 1 FROM go) AND (${o.claim}::boolean OR settled.status <> orders.status)
      RETURNING orders.id
    )`
        : sql``
    }
    SELECT guard.picked_for, ${o ? sql`(SELECT status FROM settled)` : sql`NULL::text`} AS order_status,
      (SELECT row_to_json(l) FROM (${lineSelectFrom(sql`line`)}) l) AS line,
      (SELECT row_to_json(k) FROM (SELECT pick.id, pick.line_id, ${w.split ? sql`(SELECT stock_id FROM made)` : sql`${p.stockId}::text`} AS stock_id, pick.qty, ${p.fromCode}::text AS from_location, ${p.toCode}::text AS to_location,
        pick.account_id, ${personName('a')} AS account_name, ${isoSql(sql`pick.ts`)} AS ts FROM pick LEFT JOIN accounts a ON a.id = pick.account_id) k) AS pick,
      ${w.split ? sql`false` : sql`NOT EXISTS (SELECT 1 FROM stock_records r WHERE r.location_id = ${p.fromLocationId} AND r.quantity > 0 AND r.id <> ${w.recordId})`} AS location_empty
    FROM guard`;
}
