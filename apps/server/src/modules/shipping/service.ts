/*
 * Shipping (docs/orders.md): packages of an order, packed by scanning picked stock into them, shipped
 * one by one or all at once; and the issue of production orders' picked stock. Shipping and issuing
 * are set-based (a 5,000-line order is a handful of statements, not 5,000 round trips): the picks and
 * their stock records are locked in one SELECT … FOR UPDATE (in stock-record order), the records set
 * to zero with one UPDATE, the ship or issue movements appended in one batch.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { PRODUCTION_ORDER_TYPES, type OrderType } from '@floorhand/contract/orders';
import {
  MEASURE_NEGATIVE,
  ORDER_ISSUED,
  ORDER_PART_ISSUED,
  ORDER_PART_SHIPPED,
  ORDER_SHIPPED,
  shipProblem,
  type Package,
} from '@floorhand/contract/shipping';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, isoSql, query } from '../../db/sql.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { insertMovements } from '../stock/ledger.ts';
import { actorOf } from '../stock/ledger.ts';
import { ORDER_SELECT, orderById, toHeader, type OrderRow } from '../orders/queries.ts';
import { emitOrdersChanged, findOrder } from '../orders/service.ts';
import { pickableCondition, stagedPicks } from '../picking/queries.ts';
import { readPickStatuses } from '@floorhand/contract/orders';

const SHIPPED_TYPES: readonly OrderType[] = ORDER_TYPES.filter((t) => !PRODUCTION_ORDER_TYPES.has(t));

// ---------------------------------------------------------------------------------------------
// Reads

export interface PackageRow {
  id: string;
  order_id: string;
  package_no: string;
  type: string;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  carrier: string | null;
  service: string | null;
  tracking: string | null;
  status: 'open' | 'shipped';
  shipped_at: string | null;
  rev: number;
  audit: Package['x$audit'];
  stock_ids: string[] | null;
}

const num = (v: string | null) => (v === null ? null : Number(v));
const toPackage = (r: PackageRow): Package => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  orderId: r.order_id,
  packageNo: r.package_no,
  type: r.type,
  weight: num(r.weight),
  length: num(r.length),
  width: num(r.width),
  height: num(r.height),
  carrier: r.carrier,
  service: r.service,
  tracking: r.tracking,
  status: r.status,
  shippedAt: r.shipped_at,
  stockIds: r.stock_ids ?? [],
});

const PACKAGE_SELECT = sql`SELECT pk.id, pk.order_id, pk.package_no, pk.type, pk.weight::text AS weight, pk.length::text AS length, pk.width::text AS width,
  pk.height::text AS height, pk.carrier, pk.service, pk.tracking, pk.status, ${isoSql(sql`pk.shipped_at`)} AS shipped_at, pk._rev AS rev, pk.audit,
  (SELECT array_agg(sr.stock_id ORDER BY sr.stock_id) FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id WHERE p.package_id = pk.id AND p.state <> 'unpicked') AS stock_ids
FROM packages pk`;

async function packagesOf(db: Db, orderId: string): Promise<Package[]> {
  return (await query<PackageRow>(db, sql`${PACKAGE_SELECT} WHERE pk.order_id = ${orderId} ORDER BY pk.package_no`)).map(toPackage);
}

async function packageById(db: Db, orgId: string, id: string, lock = false): Promise<Package | undefined> {
  const [row] = await query<PackageRow>(
    db,
    sql`${PACKAGE_SELECT} WHERE pk.org_id = ${orgId} AND pk.id = ${id} ${lock ? sql`FOR UPDATE OF pk` : sql``}`,
  );
  return row ? toPackage(row) : undefined;
}

interface BoardSqlRow extends OrderRow {
  picked: 'all' | 'part' | 'none';
  package_count: number;
}

/**
 * The pack board, filtered and sorted by the server (the stockPack preferences): how much is picked is
 * worked out in SQL, so the filter on it and the sort by it hold before `maxRows`, not in the browser.
 * None picked: no line has picked stock; all: every line is done (picked or shorted); part: the rest.
 */
export async function shipBoard(db: Db, auth: AuthContext, body: Body<'ship/board'>): Promise<CallResponse<'ship/board'>> {
  const settings = (await findSiteData(db, auth.siteId, 'conf', 'app_settings'))?.data;
  const types: readonly OrderType[] = body.type ? [body.type] : SHIPPED_TYPES;
  const byType = new Map(
    types.map((type) => {
      const s = readPickStatuses(settings, type);
      return [type, [...s.include, ...s.assign, ...s.picked, ORDER_PART_SHIPPED]] as const;
    }),
  );
  const direction = body.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const sortBy = new Map([
    ['dueDate', [sql`b.due_date`]],
    ['priority', [sql`b.priority`]],
    ['number', [sql`b.number`]],
    ['picked', [sql`CASE b.picked WHEN 'none' THEN 0 WHEN 'part' THEN 1 ELSE 2 END`, sql`b.picked_share`]],
  ]).get(body.sort)!;
  const rows = await query<BoardSqlRow>(
    db,
    sql`SELECT b.*, (SELECT count(*)::int FROM packages pk WHERE pk.order_id = b.id) AS package_count FROM (
      SELECT q.*, s.picked_share, CASE WHEN s.picked_lines = 0 THEN 'none' WHEN q.done_count = q.line_count THEN 'all' ELSE 'part' END AS picked
      FROM (${ORDER_SELECT}
        WHERE o.org_id = ${auth.orgId} AND (${pickableCondition(byType)})
        ${body.warehouse ? sql`AND w.code = ${body.warehouse}` : sql``}
        ${body.department ? sql`AND (o.department = ${body.department} OR EXISTS (SELECT 1 FROM order_lines ol JOIN items i ON i.id = ol.item_id WHERE ol.order_id = o.id AND i.department = ${body.department}))` : sql``}
      ) q
      CROSS JOIN LATERAL (
        SELECT (count(*) FILTER (WHERE ol.qty_picked > 0))::int AS picked_lines, coalesce(sum(ol.qty_picked) / nullif(sum(ol.qty), 0), 0) AS picked_share
        FROM order_lines ol WHERE ol.order_id = q.id
      ) s
    ) b
    ${body.picked ? sql`WHERE b.picked = ${body.picked}` : sql``}
    ORDER BY ${sql.join(
      sortBy.map((c) => sql`${c} ${direction}`),
      sql`, `,
    )}, b.priority DESC, b.number, b.type LIMIT ${body.maxRows + 1}`,
  );
  const orders = rows.slice(0, body.maxRows).map((r) => ({ ...toHeader(r), picked: r.picked, packageCount: r.package_count }));
  return { orders, more: rows.length > body.maxRows };
}

export async function shipOrder(db: Db, auth: AuthContext, body: Body<'ship/order'>): Promise<CallResponse<'ship/order'>> {
  const order = await findOrder(db, auth.orgId, body);
  return { order: toHeader(order), staged: await stagedPicks(db, order.id), packages: await packagesOf(db, order.id) };
}

// ---------------------------------------------------------------------------------------------
// Packages

const measure = (v: bigint | undefined) => (v === undefined ? null : formatQty(v));

export async function savePackage(deps: Deps, auth: AuthContext, body: Body<'package/save'>): Promise<CallResponse<'package/save'>> {
  for (const [name, v] of [
    ['weight', body.weight],
    ['length', body.length],
    ['width', body.width],
    ['height', body.height],
  ] as const) {
    if (v !== undefined && v < 0n) throw badInput(`The ${name} ${MEASURE_NEGATIVE}`);
  }
  const answer = await deps.db.transaction(async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (PRODUCTION_ORDER_TYPES.has(order.type))
      throw badInput(`The order '${order.number}' is a ${order.type} order: it is issued to production, not packed`);
    const stamp = auditStamp(auth.accountId);
    let id = body.packageId;
    if (!id) {
      id = newId();
      const [{ n } = { n: 0 }] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM packages WHERE order_id = ${order.id}`);
      await query(
        tx,
        sql`INSERT INTO packages (id, org_id, order_id, package_no, type, weight, length, width, height, carrier, service, tracking, audit)
        VALUES (${id}, ${auth.orgId}, ${order.id}, ${`${order.number}-${n + 1}`}, ${body.type ?? 'box'}, ${measure(body.weight)}::numeric, ${measure(body.length)}::numeric,
          ${measure(body.width)}::numeric, ${measure(body.height)}::numeric, ${body.carrier ?? null}, ${body.service ?? null}, ${body.tracking ?? null}, ${JSON.stringify(stamp)}::jsonb)`,
      );
    } else {
      const pkg = await packageById(tx, auth.orgId, id, true);
      if (!pkg || pkg.orderId !== order.id) throw notFound(`No package '${id}' of the order '${order.number}' exists`);
      if (pkg.status === 'shipped') throw conflict(`The package '${pkg.packageNo}' is shipped and cannot change`);
      await query(
        tx,
        sql`UPDATE packages SET type = coalesce(${body.type ?? null}, type), weight = coalesce(${measure(body.weight)}::numeric, weight),
          length = coalesce(${measure(body.length)}::numeric, length), width = coalesce(${measure(body.width)}::numeric, width), height = coalesce(${measure(body.height)}::numeric, height),
          carrier = coalesce(${body.carrier ?? null}, carrier), service = coalesce(${body.service ?? null}, service), tracking = coalesce(${body.tracking ?? null}, tracking),
          _rev = _rev + 1, audit = ${JSON.stringify(auditStamp(auth.accountId, pkg.x$audit))}::jsonb WHERE id = ${id}`,
      );
    }
    return { package: (await packageById(tx, auth.orgId, id))! };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}

interface PickForPack {
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
async function lockPickOfStock(tx: Db, orgId: string, stockId: string): Promise<PickForPack | undefined> {
  const [row] = await query<PickForPack>(
    tx,
    sql`SELECT p.id, p.order_id, p.package_id, p.state, p.stock_record_id, sr.location_id, sr.quantity::text AS quantity, o.number
    FROM stock_records sr JOIN order_picks p ON p.stock_record_id = sr.id JOIN orders o ON o.id = p.order_id
    WHERE sr.org_id = ${orgId} AND sr.stock_id = ${stockId}
    ORDER BY (p.state = 'picked') DESC, p.ts DESC LIMIT 1 FOR UPDATE OF p, sr`,
  );
  return row;
}

async function packOrUnpack(
  deps: Deps,
  auth: AuthContext,
  body: Body<'package/pack'>,
  path: 'package/pack' | 'package/unpack',
): Promise<CallResponse<'package/pack'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  let orderId = '';
  const answer = await idempotentWrite(deps, auth, path, body, async (tx) => {
    const pkg = await packageById(tx, auth.orgId, body.packageId, true);
    if (!pkg) throw notFound(`No package '${body.packageId}' exists`);
    orderId = pkg.orderId;
    if (pkg.status === 'shipped') throw badInput(`The package '${pkg.packageNo}' is shipped already`);
    const pick = await lockPickOfStock(tx, auth.orgId, body.stockId);
    if (!pick || pick.state === 'unpicked') throw badInput(`The stock '${body.stockId}' is not picked for an order`);
    if (pick.order_id !== pkg.orderId) throw badInput(`Wrong order: the stock '${body.stockId}' is picked for the order '${pick.number}'`);
    if (pick.state !== 'picked') throw badInput(`The stock '${body.stockId}' is ${pick.state} already`);
    const have = qtyUnits(pick.quantity);
    if (path === 'package/pack') {
      if (pick.package_id === pkg._id) throw badInput(`The stock '${body.stockId}' is in this package already`);
      if (pick.package_id) {
        const [other] = await query<{ package_no: string }>(tx, sql`SELECT package_no FROM packages WHERE id = ${pick.package_id}`);
        throw badInput(`The stock '${body.stockId}' is packed already, in '${other?.package_no ?? pick.package_id}'`);
      }
      await query(tx, sql`UPDATE order_picks SET package_id = ${pkg._id} WHERE id = ${pick.id}`);
    } else {
      if (pick.package_id !== pkg._id) throw badInput(`The stock '${body.stockId}' is not in the package '${pkg.packageNo}'`);
      await query(tx, sql`UPDATE order_picks SET package_id = NULL WHERE id = ${pick.id}`);
    }
    // The ledger says who packed what when: a pack movement that changes neither quantity nor place.
    await insertMovements(tx, actor, [
      {
        stockRecordId: pick.stock_record_id,
        type: 'pack',
        qtyDelta: 0n,
        qtyAfter: have,
        fromLocationId: pick.location_id,
        toLocationId: pick.location_id,
        reason: `${path === 'package/pack' ? 'Packed in' : 'Unpacked from'} ${pkg.packageNo}`,
        relatedStockRecordId: null,
      },
    ]);
    return { response: { package: (await packageById(tx, auth.orgId, pkg._id))! } };
  });
  if (orderId) await emitOrdersChanged(deps, auth.orgId, [orderId]);
  return answer;
}

export const packStock = (deps: Deps, auth: AuthContext, body: Body<'package/pack'>) => packOrUnpack(deps, auth, body, 'package/pack');
export const unpackStock = (deps: Deps, auth: AuthContext, body: Body<'package/unpack'>) =>
  packOrUnpack(deps, auth, body, 'package/unpack');

// ---------------------------------------------------------------------------------------------
// Ship and issue: the picked stock leaves the warehouse

interface Leaving {
  pick_id: string;
  line_id: string;
  stock_record_id: string;
  stock_id: string;
  quantity: string;
  location_id: string;
}

/** Locks the picks and their records (stock-record order), sets the records to zero, appends the movements, marks the picks and counts the lines. */
async function leave(
  tx: Db,
  auth: AuthContext,
  actor: ReturnType<typeof actorOf>,
  where: ReturnType<typeof sql>,
  type: 'ship' | 'issue',
  reason: string,
): Promise<{ stockIds: string[]; locationIds: string[]; movements: number }> {
  const rows = await query<Leaving>(
    tx,
    sql`SELECT p.id AS pick_id, p.line_id, sr.id AS stock_record_id, sr.stock_id, sr.quantity::text AS quantity, sr.location_id
    FROM order_picks p JOIN stock_records sr ON sr.id = p.stock_record_id
    WHERE p.org_id = ${auth.orgId} AND p.state = 'picked' AND ${where} ORDER BY sr.id FOR UPDATE OF p, sr`,
  );
  if (rows.length === 0) return { stockIds: [], locationIds: [], movements: 0 };
  const recordIds = rows.map((r) => r.stock_record_id);
  await query(
    tx,
    sql`UPDATE stock_records SET quantity = 0, changed_at = now(), _rev = _rev + 1,
      audit = jsonb_set(audit, '{modify}', ${JSON.stringify({ user: auth.accountId, ts: new Date().toISOString() })}::jsonb)
    WHERE id = ANY(${arrayParam(recordIds)})`,
  );
  await insertMovements(
    tx,
    actor,
    rows.map((r) => ({
      stockRecordId: r.stock_record_id,
      type,
      qtyDelta: -qtyUnits(r.quantity),
      qtyAfter: 0n,
      fromLocationId: r.location_id,
      toLocationId: null,
      reason,
      relatedStockRecordId: null,
    })),
  );
  const pickIds = rows.map((r) => r.pick_id);
  await query(tx, sql`UPDATE order_picks SET state = ${type === 'ship' ? 'shipped' : 'issued'} WHERE id = ANY(${arrayParam(pickIds)})`);
  await query(
    tx,
    sql`UPDATE order_lines ol SET qty_shipped = ol.qty_shipped + s.total, _rev = ol._rev + 1
    FROM (SELECT line_id, sum(qty) AS total FROM order_picks WHERE id = ANY(${arrayParam(pickIds)}) GROUP BY line_id) s WHERE ol.id = s.line_id`,
  );
  return { stockIds: rows.map((r) => r.stock_id), locationIds: [...new Set(rows.map((r) => r.location_id))], movements: rows.length };
}

/** Shipped (or issued) when no line is open and nothing picked is left staged; partly otherwise. */
async function afterLeaving(tx: Db, order: OrderRow, done: string, part: string): Promise<string> {
  const [row] = await query<{ open: number; staged: number }>(
    tx,
    sql`SELECT (SELECT count(*)::int FROM order_lines WHERE order_id = ${order.id} AND status = 'open') AS open,
      (SELECT count(*)::int FROM order_picks WHERE order_id = ${order.id} AND state = 'picked') AS staged`,
  );
  const status = row!.open === 0 && row!.staged === 0 ? done : part;
  await query(tx, sql`UPDATE orders SET status = ${status}, _rev = _rev + 1 WHERE id = ${order.id}`);
  return status;
}

export async function confirmShip(deps: Deps, auth: AuthContext, body: Body<'ship/confirm'>): Promise<CallResponse<'ship/confirm'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  const answer = await idempotentWrite(deps, auth, 'ship/confirm', body, async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (PRODUCTION_ORDER_TYPES.has(order.type))
      throw badInput(`The order '${order.number}' is a ${order.type} order: issue it to production instead`);
    let chosen: Package[];
    if (body.packageId) {
      const pkg = await packageById(tx, auth.orgId, body.packageId, true);
      if (!pkg || pkg.orderId !== order.id) throw notFound(`No package '${body.packageId}' of the order '${order.number}' exists`);
      chosen = [pkg];
    } else {
      chosen = (await packagesOf(tx, order.id)).filter((p) => p.status === 'open' && p.stockIds.length > 0);
      if (chosen.length === 0) throw badInput(`The order '${order.number}' has no packed package to ship`);
    }
    const problems = chosen.map(shipProblem).filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw badInput(problems.join('; '));
    const ids = chosen.map((p) => p._id);
    const left = await leave(tx, auth, actor, sql`p.package_id = ANY(${arrayParam(ids)})`, 'ship', `Order ${order.number}`);
    await query(tx, sql`UPDATE packages SET status = 'shipped', shipped_at = now(), _rev = _rev + 1 WHERE id = ANY(${arrayParam(ids)})`);
    const orderStatus = await afterLeaving(tx, order, ORDER_SHIPPED, ORDER_PART_SHIPPED);
    const packages = (await packagesOf(tx, order.id)).filter((p) => ids.includes(p._id));
    return {
      response: { packages, orderStatus, movementCount: left.movements },
      changed: { stockIds: left.stockIds, locationIds: left.locationIds },
    };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}

export async function issueOrder(deps: Deps, auth: AuthContext, body: Body<'order/issue'>): Promise<CallResponse<'order/issue'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  const answer = await idempotentWrite(deps, auth, 'order/issue', body, async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (!PRODUCTION_ORDER_TYPES.has(order.type))
      throw badInput(`The order '${order.number}' is a ${order.type} order: it is shipped, not issued`);
    const left = await leave(tx, auth, actor, sql`p.order_id = ${order.id}`, 'issue', `Issued to ${order.number}`);
    if (left.movements === 0) throw badInput(`The order '${order.number}' has no picked stock to issue`);
    const orderStatus = await afterLeaving(tx, order, ORDER_ISSUED, ORDER_PART_ISSUED);
    return {
      response: { orderStatus, movementCount: left.movements },
      changed: { stockIds: left.stockIds, locationIds: left.locationIds },
    };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}
