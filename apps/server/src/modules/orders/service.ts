/*
 * Orders: saved by upsert (type and number are the key in the organisation, so an ERP re-sending an
 * order updates it and never makes a second), read, listed and cancelled. Cancelling returns every
 * picked record to the location it was picked from, in the ledger as unpick movements, in the same
 * transaction as the order's new status.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { wholeUnitsMessage } from '@floorhand/contract/stock-rules';
import {
  ORDER_CANCELLED,
  ORDER_STATUS_DEFAULT,
  assignStatus,
  pickedStatus,
  readPickStatuses,
  type OrderType,
  type PickStatuses,
} from '@floorhand/contract/orders';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { findSiteData } from '../../lib/site-data.ts';
import {
  itemsByPartNumber,
  locationKey,
  locationsByCode,
  warehousesByCode,
  type ItemRef,
  type LocationRef,
  type WarehouseRef,
} from '../../lib/refs.ts';
import { changeStock, lockStock } from '../stock/ledger.ts';
import { actorOf } from '../stock/ledger.ts';
import {
  activePicksOf,
  cancelOrderRows,
  deleteOrderLines,
  hasActivePicks,
  insertOrderIfNew,
  insertOrderLines,
  listOrderRows,
  lockOrderByNumber,
  lockOrderLines,
  orderLineCounts,
  ordersByNumber,
  setOrderStatus,
  shippedOrIssuedCount,
  siteIdsOf,
  unpickPick,
  updateOrderHeader,
  updateOrderLine,
} from './repository.ts';
import { linesOf, orderById, orderWithLines, toHeader, type LineRow, type OrderRow } from './queries.ts';

/** The pick statuses of an order type from the caller's site's app settings (stockPick), or the defaults. */
export async function pickStatusesOf(db: Db, siteId: string, type: OrderType): Promise<PickStatuses> {
  const row = await findSiteData(db, siteId, 'conf', 'app_settings');
  return readPickStatuses(row?.data, type);
}

/** Tells every site of the organisation which orders changed (claims, picks, statuses). */
export async function emitOrdersChanged(deps: Deps, orgId: string, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  for (const siteId of await siteIdsOf(deps.db, orgId)) deps.realtime.emit(siteId, 'ordersChanged', { orderIds });
}

/** An order by id, or by number (and type when the number is used by several types). */
export async function findOrder(
  db: Db,
  orgId: string,
  ref: { orderId?: string | undefined; number?: string | undefined; type?: OrderType | undefined },
): Promise<OrderRow> {
  if (ref.orderId) {
    const row = await orderById(db, orgId, ref.orderId);
    if (!row) throw notFound(`No order '${ref.orderId}' exists`);
    return row;
  }
  if (!ref.number) throw badInput('Give the order id or its number');
  const rows = await ordersByNumber(db, orgId, ref.number, ref.type);
  if (rows.length === 0) throw notFound(`No order '${ref.number}' exists${ref.type ? ` of type ${ref.type}` : ''}`);
  if (rows.length > 1)
    throw badInput(`Several orders have the number '${ref.number}' (${rows.map((r) => r.type).join(', ')}): say which type`);
  return rows[0]!;
}

// ---------------------------------------------------------------------------------------------
// order/save (and the orders CSV import, csv-plan.ts, which writes each order the same way)

type SaveBody = Body<'order/save'>;
/** An order as checked by the contract's schema (quantities in units). */
export type ParsedOrder = SaveBody['order'];

/** The warehouses, staging locations and items orders name, looked up once for many orders. */
export interface OrderRefs {
  warehouses: Map<string, WarehouseRef>;
  locations: Map<string, LocationRef>;
  items: Map<string, ItemRef>;
}

export async function loadOrderRefs(db: Db, orgId: string, orders: readonly ParsedOrder[]): Promise<OrderRefs> {
  return {
    warehouses: await warehousesByCode(
      db,
      orgId,
      orders.map((o) => o.warehouse),
    ),
    locations: await locationsByCode(
      db,
      orgId,
      orders.flatMap((o) => (o.stagingLocation ? [{ warehouse: o.warehouse, code: o.stagingLocation }] : [])),
    ),
    items: await itemsByPartNumber(
      db,
      orgId,
      orders.flatMap((o) => o.lines.map((l) => l.partNumber)),
    ),
  };
}

/** A problem of an order: of a line (lineNo) or of its header (field). */
export interface OrderProblem {
  field: string;
  lineNo?: number;
  message: string;
}

/** What is wrong with an order against itself and the organisation's warehouses, locations and items. */
export function orderProblems(input: ParsedOrder, refs: OrderRefs): OrderProblem[] {
  const problems: OrderProblem[] = [];
  const warehouse = refs.warehouses.get(input.warehouse);
  if (!warehouse) problems.push({ field: 'warehouse', message: `No warehouse '${input.warehouse}' exists` });
  else if (!warehouse.active) problems.push({ field: 'warehouse', message: `The warehouse '${input.warehouse}' is inactive` });
  if (warehouse && input.stagingLocation) {
    const staging = refs.locations.get(locationKey(input.warehouse, input.stagingLocation));
    if (!staging)
      problems.push({
        field: 'stagingLocation',
        message: `No location '${input.stagingLocation}' exists in warehouse '${input.warehouse}'`,
      });
    else if (!staging.active)
      problems.push({
        field: 'stagingLocation',
        message: `The location '${input.stagingLocation}' in warehouse '${input.warehouse}' is inactive`,
      });
  }
  const seen = new Set<number>();
  for (const line of input.lines) {
    const at = { lineNo: line.lineNo };
    if (seen.has(line.lineNo)) problems.push({ ...at, field: 'lineNo', message: `Line ${line.lineNo} is given twice` });
    seen.add(line.lineNo);
    if (line.qty <= 0n) problems.push({ ...at, field: 'qty', message: `Line ${line.lineNo}: the quantity must be greater than 0` });
    const item = refs.items.get(line.partNumber);
    if (!item)
      problems.push({ ...at, field: 'partNumber', message: `line ${line.lineNo}: no item with part number '${line.partNumber}' exists` });
    else if (!item.active)
      problems.push({ ...at, field: 'partNumber', message: `line ${line.lineNo}: the item '${line.partNumber}' is inactive` });
    else if (line.qty > 0n) {
      const fraction = wholeUnitsMessage(item.uom, line.qty);
      if (fraction) problems.push({ ...at, field: 'qty', message: `line ${line.lineNo}: the quantity ${fraction}` });
    }
  }
  return problems;
}

/** What a stored order's state forbids of a new version of it: picked lines keep their item, their quantity and their place. */
export function updateProblems(
  stored: Pick<OrderRow, 'number' | 'status' | 'warehouse_id'>,
  storedLines: readonly Pick<LineRow, 'line_no' | 'item_id' | 'qty_picked' | 'qty_short'>[],
  hasPicks: boolean,
  input: ParsedOrder,
  refs: OrderRefs,
): OrderProblem[] {
  if (stored.status === ORDER_CANCELLED)
    return [{ field: 'orderNumber', message: `The order '${input.number}' is cancelled and cannot be changed` }];
  const problems: OrderProblem[] = [];
  const warehouse = refs.warehouses.get(input.warehouse);
  if (hasPicks && warehouse && stored.warehouse_id !== warehouse.id)
    problems.push({ field: 'warehouse', message: `The order '${input.number}' has picked stock: its warehouse cannot change` });
  const old = new Map(storedLines.map((l) => [l.line_no, l]));
  for (const line of input.lines) {
    const before = old.get(line.lineNo);
    if (!before) continue;
    old.delete(line.lineNo);
    const item = refs.items.get(line.partNumber);
    const picked = qtyUnits(before.qty_picked);
    const short = qtyUnits(before.qty_short);
    if (item && before.item_id !== item.id && (picked > 0n || short > 0n))
      problems.push({ lineNo: line.lineNo, field: 'partNumber', message: `line ${line.lineNo} has been picked: its item cannot change` });
    else if (line.qty < picked + short)
      problems.push({
        lineNo: line.lineNo,
        field: 'qty',
        message: `line ${line.lineNo} has ${formatQty(picked + short)} picked or closed: its quantity cannot go below that`,
      });
  }
  for (const gone of old.values()) {
    if (qtyUnits(gone.qty_picked) > 0n)
      problems.push({ field: 'lineNo', message: `line ${gone.line_no} has been picked: unpick it before removing it` });
  }
  return problems;
}

const refusal = (problems: readonly OrderProblem[]) =>
  badInput(
    `The order cannot be saved: ${problems
      .slice(0, 3)
      .map((p) => p.message)
      .join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}`,
  );

/**
 * Writes one checked order inside the caller's transaction: inserted, or the stored one of its type and
 * number updated under lock (lines matched by lineNo; lines left out removed). Refuses what the stored
 * order's picks forbid (checked again here, under the lock).
 */
export async function writeOrder(
  tx: Db,
  auth: AuthContext,
  input: ParsedOrder,
  refs: OrderRefs,
  statuses: PickStatuses,
): Promise<{ orderId: string; created: boolean }> {
  const warehouse = refs.warehouses.get(input.warehouse)!;
  const stagingId = input.stagingLocation ? (refs.locations.get(locationKey(input.warehouse, input.stagingLocation))?.id ?? null) : null;
  const stamp = auditStamp(auth.accountId);
  const header = {
    warehouseId: warehouse.id,
    customer: input.customer ?? null,
    shipTo: input.shipTo ?? null,
    dueDate: input.dueDate ?? null,
    priority: input.priority ?? 0,
    notes: input.notes ?? null,
    stagingId,
    department: input.department ?? null,
  };
  const created = await insertOrderIfNew(tx, {
    ...header,
    id: newId(),
    orgId: auth.orgId,
    type: input.type,
    number: input.number,
    status: input.status ?? ORDER_STATUS_DEFAULT,
    audit: stamp,
  });
  const order = await lockOrderByNumber(tx, auth.orgId, input.type, input.number);
  if (!order) throw conflict('The order changed while it was saved; send it again');
  await lockOrderLines(tx, order.id);
  const existing = created ? [] : await linesOf(tx, [order.id]);
  if (!created) {
    if (order.status === ORDER_CANCELLED) throw conflict(`The order '${input.number}' is cancelled and cannot be changed`);
    const problems = updateProblems(order, existing, await hasActivePicks(tx, order.id), input, refs);
    if (problems.length > 0) throw refusal(problems);
    await updateOrderHeader(tx, order.id, { ...header, status: input.status ?? order.status }, auditStamp(auth.accountId, order.audit));
  }
  const old = new Map(existing.map((l) => [l.line_no, l]));
  const fresh: Array<{ id: string; orderId: string; lineNo: number; itemId: string; qty: string }> = [];
  for (const line of input.lines) {
    const item = refs.items.get(line.partNumber)!;
    const before = old.get(line.lineNo);
    if (!before) {
      fresh.push({ id: newId(), orderId: order.id, lineNo: line.lineNo, itemId: item.id, qty: formatQty(line.qty) });
      continue;
    }
    old.delete(line.lineNo);
    const done = qtyUnits(before.qty_picked) + qtyUnits(before.qty_short);
    const status =
      before.status === 'cancelled' ? 'open' : line.qty === done ? (qtyUnits(before.qty_short) > 0n ? 'short' : 'picked') : 'open';
    if (before.item_id === item.id && qtyUnits(before.qty) === line.qty && before.status === status) continue;
    await updateOrderLine(tx, before.id, item.id, formatQty(line.qty), status);
  }
  if (old.size > 0)
    await deleteOrderLines(
      tx,
      [...old.values()].map((l) => l.id),
    );
  await insertOrderLines(tx, auth.orgId, fresh);
  if (!input.status) await settleStatus(tx, order.id, statuses);
  return { orderId: order.id, created };
}

export async function saveOrder(deps: Deps, auth: AuthContext, body: SaveBody): Promise<CallResponse<'order/save'>> {
  const input = body.order;
  const refs = await loadOrderRefs(deps.db, auth.orgId, [input]);
  const problems = orderProblems(input, refs);
  if (problems.length > 0) throw refusal(problems);
  const statuses = await pickStatusesOf(deps.db, auth.siteId, input.type);
  const result = await idempotentWrite(deps, auth, 'order/save', body, async (tx) => {
    const { orderId, created } = await writeOrder(tx, auth, input, refs, statuses);
    const saved = (await orderById(tx, auth.orgId, orderId))!;
    return { response: { order: await orderWithLines(tx, saved), created } };
  });
  if (result.order) await emitOrdersChanged(deps, auth.orgId, [result.order._id]);
  return result;
}

/**
 * After lines change: an order whose lines are all done gets its type's `picked` status; one with open
 * lines again (a line added, a pick undone) goes back to `assign` if it was `picked`. Other statuses
 * (set by the ERP) stay.
 */
export async function settleStatus(tx: Db, orderId: string, statuses: PickStatuses): Promise<string> {
  const row = await orderLineCounts(tx, orderId);
  if (!row) return '';
  const pickable = statuses.include.includes(row.status) || statuses.assign.includes(row.status);
  let next = row.status;
  if (row.open === 0 && row.lines > 0 && pickable) next = pickedStatus(statuses);
  else if (row.open > 0 && statuses.picked.includes(row.status)) next = assignStatus(statuses);
  if (next !== row.status) await setOrderStatus(tx, orderId, next);
  return next;
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function getOrder(db: Db, auth: AuthContext, body: Body<'order/get'>): Promise<CallResponse<'order/get'>> {
  return { order: await orderWithLines(db, await findOrder(db, auth.orgId, body)) };
}

export async function listOrders(db: Db, auth: AuthContext, body: Body<'order/list'>): Promise<CallResponse<'order/list'>> {
  const rows = await listOrderRows(db, auth.orgId, body, body.limit + 1, body.offset);
  return { orders: rows.slice(0, body.limit).map(toHeader), more: rows.length > body.limit };
}

// ---------------------------------------------------------------------------------------------
// order/cancel

export async function cancelOrder(deps: Deps, auth: AuthContext, body: Body<'order/cancel'>): Promise<CallResponse<'order/cancel'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  const result = await idempotentWrite(deps, auth, 'order/cancel', body, async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (order.status === ORDER_CANCELLED) throw conflict(`The order '${order.number}' is cancelled already`);
    await lockOrderLines(tx, order.id);
    if ((await shippedOrIssuedCount(tx, order.id)) > 0)
      throw conflict(`The order '${order.number}' has shipped or issued stock and cannot be cancelled`);
    const picks = await activePicksOf(tx, order.id);
    const stockIds: string[] = [];
    const locationIds = new Set<string>();
    for (const pick of picks) {
      const row = await lockStock(tx, auth.orgId, pick.stock_id);
      if (!row) continue;
      const have = qtyUnits(row.quantity);
      await changeStock(
        tx,
        actor,
        row.id,
        {
          quantity: have,
          locationId: pick.from_location_id,
          warehouseId: pick.from_warehouse_id,
          audit: auditStamp(auth.accountId, row.audit),
        },
        [
          {
            stockRecordId: row.id,
            type: 'unpick',
            qtyDelta: 0n,
            qtyAfter: have,
            fromLocationId: row.location_id,
            toLocationId: pick.from_location_id,
            reason: body.reason ?? `Order ${order.number} cancelled`,
            relatedStockRecordId: null,
          },
        ],
      );
      await unpickPick(tx, pick.id);
      stockIds.push(row.stock_id);
      locationIds.add(row.location_id).add(pick.from_location_id);
    }
    await cancelOrderRows(tx, order.id, auditStamp(auth.accountId, order.audit));
    const saved = (await orderById(tx, auth.orgId, order.id))!;
    return { response: { order: await orderWithLines(tx, saved) }, changed: { stockIds, locationIds: [...locationIds] } };
  });
  if (result.order) await emitOrdersChanged(deps, auth.orgId, [result.order._id]);
  return result;
}
