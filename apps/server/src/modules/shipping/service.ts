/*
 * Shipping (docs/orders.md): packages of an order, packed by scanning picked stock into them, shipped
 * one by one or all at once; and the issue of production orders' picked stock. Shipping and issuing
 * are set-based (a 5,000-line order is a handful of statements, not 5,000 round trips): the picks and
 * their stock records are locked in one SELECT … FOR UPDATE (in stock-record order), the records set
 * to zero with one UPDATE, the ship or issue movements appended in one batch.
 */
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
import { findSiteData } from '../../lib/site-data.ts';
import { insertMovements } from '../stock/ledger.ts';
import { actorOf } from '../stock/ledger.ts';
import { orderById, toHeader, type OrderRow } from '../orders/queries.ts';
import { emitOrdersChanged, findOrder } from '../orders/service.ts';
import { stagedPicks } from '../picking/queries.ts';
import { readPickStatuses } from '@floorhand/contract/orders';
import {
  boardRows,
  insertPackage,
  lockLeaving,
  lockPickOfStock,
  markPackagesShipped,
  markPicksLeft,
  openAndStaged,
  packageCount,
  packageNoOf,
  packageRow,
  packageRowsOf,
  packPick,
  setOrderStatus,
  unpackPick,
  updatePackage,
  zeroStockRecords,
  type LeavingScope,
  type PackageRow,
} from './repository.ts';

const SHIPPED_TYPES: readonly OrderType[] = ORDER_TYPES.filter((t) => !PRODUCTION_ORDER_TYPES.has(t));

// ---------------------------------------------------------------------------------------------
// Reads

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

async function packagesOf(db: Db, orderId: string): Promise<Package[]> {
  return (await packageRowsOf(db, orderId)).map(toPackage);
}

async function packageById(db: Db, orgId: string, id: string, lock = false): Promise<Package | undefined> {
  const row = await packageRow(db, orgId, id, lock);
  return row ? toPackage(row) : undefined;
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
  const rows = await boardRows(db, auth.orgId, byType, body, body.maxRows + 1);
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
  const fields = {
    type: body.type ?? null,
    weight: measure(body.weight),
    length: measure(body.length),
    width: measure(body.width),
    height: measure(body.height),
    carrier: body.carrier ?? null,
    service: body.service ?? null,
    tracking: body.tracking ?? null,
  };
  const answer = await deps.db.transaction(async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (PRODUCTION_ORDER_TYPES.has(order.type))
      throw badInput(`The order '${order.number}' is a ${order.type} order: it is issued to production, not packed`);
    const stamp = auditStamp(auth.accountId);
    let id = body.packageId;
    if (!id) {
      id = newId();
      const n = await packageCount(tx, order.id);
      await insertPackage(tx, {
        ...fields,
        id,
        orgId: auth.orgId,
        orderId: order.id,
        packageNo: `${order.number}-${n + 1}`,
        type: body.type ?? 'box',
        audit: stamp,
      });
    } else {
      const pkg = await packageById(tx, auth.orgId, id, true);
      if (!pkg || pkg.orderId !== order.id) throw notFound(`No package '${id}' of the order '${order.number}' exists`);
      if (pkg.status === 'shipped') throw conflict(`The package '${pkg.packageNo}' is shipped and cannot change`);
      await updatePackage(tx, id, fields, auditStamp(auth.accountId, pkg.x$audit));
    }
    return { package: (await packageById(tx, auth.orgId, id))! };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
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
        const other = await packageNoOf(tx, pick.package_id);
        throw badInput(`The stock '${body.stockId}' is packed already, in '${other ?? pick.package_id}'`);
      }
      await packPick(tx, pick.id, pkg._id);
    } else {
      if (pick.package_id !== pkg._id) throw badInput(`The stock '${body.stockId}' is not in the package '${pkg.packageNo}'`);
      await unpackPick(tx, pick.id);
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

/** Locks the picks and their records (stock-record order), sets the records to zero, appends the movements, marks the picks and counts the lines. */
async function leave(
  tx: Db,
  auth: AuthContext,
  actor: ReturnType<typeof actorOf>,
  scope: LeavingScope,
  type: 'ship' | 'issue',
  reason: string,
): Promise<{ stockIds: string[]; locationIds: string[]; movements: number }> {
  const rows = await lockLeaving(tx, auth.orgId, scope);
  if (rows.length === 0) return { stockIds: [], locationIds: [], movements: 0 };
  const recordIds = rows.map((r) => r.stock_record_id);
  await zeroStockRecords(tx, recordIds, auth.accountId);
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
  await markPicksLeft(
    tx,
    rows.map((r) => r.pick_id),
    type === 'ship' ? 'shipped' : 'issued',
  );
  return { stockIds: rows.map((r) => r.stock_id), locationIds: [...new Set(rows.map((r) => r.location_id))], movements: rows.length };
}

/** Shipped (or issued) when no line is open and nothing picked is left staged; partly otherwise. */
async function afterLeaving(tx: Db, order: OrderRow, done: string, part: string): Promise<string> {
  const { open, staged } = await openAndStaged(tx, order.id);
  const status = open === 0 && staged === 0 ? done : part;
  await setOrderStatus(tx, order.id, status);
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
    const left = await leave(tx, auth, actor, { packageIds: ids }, 'ship', `Order ${order.number}`);
    await markPackagesShipped(tx, ids);
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
    const left = await leave(tx, auth, actor, { orderId: order.id }, 'issue', `Issued to ${order.number}`);
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
