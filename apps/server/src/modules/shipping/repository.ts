/*
 * SQL of shipping: packages and what is packed in them, the pack board, and the set-based ship or
 * issue of picked stock (lock the picks and their records in stock-record order, set the records to
 * zero, mark the picks, add to the lines shipped, settle the order's status).
 */
import { sql } from 'drizzle-orm';
import type { OrderType } from '@floorhand/contract/orders';
import type { Package } from '@floorhand/contract/shipping';
import type { Body } from '../../lib/call-body.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import { ORDER_SELECT, type OrderRow } from '../orders/queries.ts';
import { pickableCondition } from '../picking/queries.ts';

// ---------------------------------------------------------------------------------------------
// Packages

/** A package's measures and carrier as stored: the measures as decimal text; null where not given. */
export interface PackageMeasures {
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  carrier: string | null;
  service: string | null;
  tracking: string | null;
}

export interface PackageRow extends PackageMeasures {
  id: string;
  order_id: string;
  package_no: string;
  type: string;
  status: 'open' | 'shipped';
  shipped_at: string | null;
  rev: number;
  audit: Package['x$audit'];
  stock_ids: string[] | null;
}

const PACKAGE_SELECT = sql`SELECT pk.id, pk.order_id, pk.package_no, pk.type, pk.weight::text AS weight, pk.length::text AS length, pk.width::text AS width,
  pk.height::text AS height, pk.carrier, pk.service, pk.tracking, pk.status, ${isoSql(sql`pk.shipped_at`)} AS shipped_at, pk._rev AS rev, pk.audit,
  (SELECT array_agg(sr.stock_id ORDER BY sr.stock_id) FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id WHERE p.package_id = pk.id AND p.state <> 'unpicked') AS stock_ids
FROM packages pk`;

export async function packageRowsOf(db: Db, orderId: string): Promise<PackageRow[]> {
  return query<PackageRow>(db, sql`${PACKAGE_SELECT} WHERE pk.order_id = ${orderId} ORDER BY pk.package_no`);
}

/** A package of the organisation (another organisation's is not found), FOR UPDATE when asked. */
export async function packageRow(db: Db, orgId: string, id: string, lock = false): Promise<PackageRow | undefined> {
  const [row] = await query<PackageRow>(
    db,
    sql`${PACKAGE_SELECT} WHERE pk.org_id = ${orgId} AND pk.id = ${id} ${lock ? sql`FOR UPDATE OF pk` : sql``}`,
  );
  return row;
}

export async function packageCount(tx: Db, orderId: string): Promise<number> {
  const [{ n } = { n: 0 }] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM packages WHERE order_id = ${orderId}`);
  return n;
}

/** What a package save writes. */
export interface PackageFields extends PackageMeasures {
  type: string | null;
}

export async function insertPackage(
  tx: Db,
  pkg: PackageFields & { id: string; orgId: string; orderId: string; packageNo: string; type: string; audit: unknown },
): Promise<void> {
  await query(
    tx,
    sql`INSERT INTO packages (id, org_id, order_id, package_no, type, weight, length, width, height, carrier, service, tracking, audit)
        VALUES (${pkg.id}, ${pkg.orgId}, ${pkg.orderId}, ${pkg.packageNo}, ${pkg.type}, ${pkg.weight}::numeric, ${pkg.length}::numeric,
          ${pkg.width}::numeric, ${pkg.height}::numeric, ${pkg.carrier}, ${pkg.service}, ${pkg.tracking}, ${JSON.stringify(pkg.audit)}::jsonb)`,
  );
}

/** Changes what is given (a null keeps the package's value). */
export async function updatePackage(tx: Db, id: string, fields: PackageFields, audit: unknown): Promise<void> {
  await query(
    tx,
    sql`UPDATE packages SET type = coalesce(${fields.type}, type), weight = coalesce(${fields.weight}::numeric, weight),
          length = coalesce(${fields.length}::numeric, length), width = coalesce(${fields.width}::numeric, width), height = coalesce(${fields.height}::numeric, height),
          carrier = coalesce(${fields.carrier}, carrier), service = coalesce(${fields.service}, service), tracking = coalesce(${fields.tracking}, tracking),
          _rev = _rev + 1, audit = ${JSON.stringify(audit)}::jsonb WHERE id = ${id}`,
  );
}

export async function packageNoOf(tx: Db, id: string): Promise<string | undefined> {
  const [row] = await query<{ package_no: string }>(tx, sql`SELECT package_no FROM packages WHERE id = ${id}`);
  return row?.package_no;
}

export async function markPackagesShipped(tx: Db, ids: string[]): Promise<void> {
  await query(tx, sql`UPDATE packages SET status = 'shipped', shipped_at = now(), _rev = _rev + 1 WHERE id = ANY(${arrayParam(ids)})`);
}

// ---------------------------------------------------------------------------------------------
// Packing

export interface PickForPack {
  id: string;
  order_id: string;
  package_id: string | null;
  state: string;
  stock_record_id: string;
  location_id: string;
  quantity: string;
  number: string;
}

/** The active (or last) pick of a stock record, locked, with its order's number. */
export async function lockPickOfStock(tx: Db, orgId: string, stockId: string): Promise<PickForPack | undefined> {
  const [row] = await query<PickForPack>(
    tx,
    sql`SELECT p.id, p.order_id, p.package_id, p.state, p.stock_record_id, sr.location_id, sr.quantity::text AS quantity, o.number
    FROM stock_records sr JOIN order_picks p ON p.stock_record_id = sr.id JOIN orders o ON o.id = p.order_id
    WHERE sr.org_id = ${orgId} AND sr.stock_id = ${stockId}
    ORDER BY (p.state = 'picked') DESC, p.ts DESC LIMIT 1 FOR UPDATE OF p, sr`,
  );
  return row;
}

export async function packPick(tx: Db, pickId: string, packageId: string): Promise<void> {
  await query(tx, sql`UPDATE order_picks SET package_id = ${packageId} WHERE id = ${pickId}`);
}

export async function unpackPick(tx: Db, pickId: string): Promise<void> {
  await query(tx, sql`UPDATE order_picks SET package_id = NULL WHERE id = ${pickId}`);
}

// ---------------------------------------------------------------------------------------------
// The pack board

export interface BoardRow extends OrderRow {
  picked: 'all' | 'part' | 'none';
  package_count: number;
}

type BoardFilter = Pick<Body<'ship/board'>, 'warehouse' | 'department' | 'picked' | 'sort' | 'desc'>;

/**
 * Orders of the pickable statuses by type, filtered and sorted; `limit` rows at most. None picked: no
 * line has picked stock; all: every line is done (picked or shorted); part: the rest.
 */
export async function boardRows(
  db: Db,
  orgId: string,
  statusesByType: ReadonlyMap<OrderType, readonly string[]>,
  filter: BoardFilter,
  limit: number,
): Promise<BoardRow[]> {
  const direction = filter.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const sortBy = new Map([
    ['dueDate', [sql`b.due_date`]],
    ['priority', [sql`b.priority`]],
    ['number', [sql`b.number`]],
    ['picked', [sql`CASE b.picked WHEN 'none' THEN 0 WHEN 'part' THEN 1 ELSE 2 END`, sql`b.picked_share`]],
  ]).get(filter.sort)!;
  return query<BoardRow>(
    db,
    sql`SELECT b.*, (SELECT count(*)::int FROM packages pk WHERE pk.order_id = b.id) AS package_count FROM (
      SELECT q.*, s.picked_share, CASE WHEN s.picked_lines = 0 THEN 'none' WHEN q.done_count = q.line_count THEN 'all' ELSE 'part' END AS picked
      FROM (${ORDER_SELECT}
        WHERE o.org_id = ${orgId} AND (${pickableCondition(statusesByType)})
        ${filter.warehouse ? sql`AND w.code = ${filter.warehouse}` : sql``}
        ${filter.department ? sql`AND (o.department = ${filter.department} OR EXISTS (SELECT 1 FROM order_lines ol JOIN items i ON i.id = ol.item_id WHERE ol.order_id = o.id AND i.department = ${filter.department}))` : sql``}
      ) q
      CROSS JOIN LATERAL (
        SELECT (count(*) FILTER (WHERE ol.qty_picked > 0))::int AS picked_lines, coalesce(sum(ol.qty_picked) / nullif(sum(ol.qty), 0), 0) AS picked_share
        FROM order_lines ol WHERE ol.order_id = q.id
      ) s
    ) b
    ${filter.picked ? sql`WHERE b.picked = ${filter.picked}` : sql``}
    ORDER BY ${sql.join(
      sortBy.map((c) => sql`${c} ${direction}`),
      sql`, `,
    )}, b.priority DESC, b.number, b.type LIMIT ${limit}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Ship and issue

export interface Leaving {
  pick_id: string;
  line_id: string;
  stock_record_id: string;
  stock_id: string;
  quantity: string;
  location_id: string;
}

/** Which picked stock leaves: that packed in the packages, or all the order's. */
export type LeavingScope = { packageIds: string[] } | { orderId: string };

/** The picked picks of the scope and their stock records, locked in stock-record order. */
export async function lockLeaving(tx: Db, orgId: string, scope: LeavingScope): Promise<Leaving[]> {
  const where = 'packageIds' in scope ? sql`p.package_id = ANY(${arrayParam(scope.packageIds)})` : sql`p.order_id = ${scope.orderId}`;
  return query<Leaving>(
    tx,
    sql`SELECT p.id AS pick_id, p.line_id, sr.id AS stock_record_id, sr.stock_id, sr.quantity::text AS quantity, sr.location_id
    FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id
    WHERE p.org_id = ${orgId} AND p.state = 'picked' AND ${where} ORDER BY sr.id FOR UPDATE OF p, sr`,
  );
}

export async function zeroStockRecords(tx: Db, recordIds: string[], accountId: string): Promise<void> {
  await query(
    tx,
    sql`UPDATE stock_records SET quantity = 0, changed_at = now(), _rev = _rev + 1,
      audit = jsonb_set(audit, '{modify}', ${JSON.stringify({ user: accountId, ts: new Date().toISOString() })}::jsonb)
    WHERE id = ANY(${arrayParam(recordIds)})`,
  );
}

/** Marks the picks shipped or issued and adds their quantities to their lines' shipped. */
export async function markPicksLeft(tx: Db, pickIds: string[], state: 'shipped' | 'issued'): Promise<void> {
  await query(tx, sql`UPDATE order_picks SET state = ${state} WHERE id = ANY(${arrayParam(pickIds)})`);
  await query(
    tx,
    sql`UPDATE order_lines ol SET qty_shipped = ol.qty_shipped + s.total, _rev = ol._rev + 1
    FROM (SELECT line_id, sum(qty) AS total FROM order_picks WHERE id = ANY(${arrayParam(pickIds)}) GROUP BY line_id) s WHERE ol.id = s.line_id`,
  );
}

/** How many of the order's lines are open and how many of its picks are staged (picked, not gone). */
export async function openAndStaged(tx: Db, orderId: string): Promise<{ open: number; staged: number }> {
  const [row] = await query<{ open: number; staged: number }>(
    tx,
    sql`SELECT (SELECT count(*)::int FROM order_lines WHERE order_id = ${orderId} AND status = 'open') AS open,
      (SELECT count(*)::int FROM order_picks WHERE order_id = ${orderId} AND state = 'picked') AS staged`,
  );
  return row!;
}

export async function setOrderStatus(tx: Db, orderId: string, status: string): Promise<void> {
  await query(tx, sql`UPDATE orders SET status = ${status}, _rev = _rev + 1 WHERE id = ${orderId}`);
}

// ---------------------------------------------------------------------------------------------
// The packing list

/** What the packing list says of its package (a package row less its state of record). */
export type PackageHead = Omit<PackageRow, 'status' | 'shipped_at' | 'rev' | 'audit'> & { status: string };

export async function packageHead(db: Db, orgId: string, id: string): Promise<PackageHead | undefined> {
  const [pkg] = await query<PackageHead>(
    db,
    sql`SELECT id, order_id, package_no, type, weight::text AS weight, length::text AS length, width::text AS width, height::text AS height, carrier, service, tracking, status
    FROM packages WHERE org_id = ${orgId} AND id = ${id}`,
  );
  return pkg;
}

/** One order line of the package: what of it is packed here, summed over its stock records. */
export interface PackedLine {
  line_no: number;
  part_number: string;
  description: string;
  uom: string;
  ordered: string;
  qty: string;
  records: number;
  lots: string | null;
}

export async function packedLines(db: Db, packageId: string): Promise<PackedLine[]> {
  return query<PackedLine>(
    db,
    sql`SELECT ol.line_no, i.part_number, i.description, i.uom, ol.qty::text AS ordered, sum(p.qty)::text AS qty, count(*)::int AS records,
      string_agg(DISTINCT nullif(concat_ws(' / ', sr.lot, sr.serial), ''), ', ' ORDER BY nullif(concat_ws(' / ', sr.lot, sr.serial), '')) AS lots
    FROM order_picks p JOIN order_lines ol ON ol.id = p.line_id JOIN stock_records sr ON sr.id = p.stock_record_id JOIN items i ON i.id = ol.item_id
    WHERE p.package_id = ${packageId} AND p.state <> 'unpicked'
    GROUP BY ol.id, ol.line_no, i.part_number, i.description, i.uom, ol.qty ORDER BY ol.line_no`,
  );
}
