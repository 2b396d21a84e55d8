/*
 * A line's changes besides a pick (docs/orders.md): shorted (the rest kept open, closed, or put on a
 * backorder), skipped, a pick undone, and a place a pick emptied reported not empty. Each is one
 * idempotent write under the order's and the line's locks (pick-access.ts).
 */
import type { CallResponse } from '@floorhand/contract/api';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { backorderNumber, ORDER_STATUS_DEFAULT, shortPickMode, type PickStatuses } from '@floorhand/contract/orders';
import type { AuthContext } from '../../lib/auth-context.ts';
import { forgetBlind } from '../../lib/blind-places.ts';
import { requestLocationCount } from '../counts/service.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { actorOf, changeStock, lockStock } from '../stock/ledger.ts';
import { lineById, openUnits, orderById, toLine, type LineRow, type OrderRow } from '../orders/queries.ts';
import { emitOrdersChanged, settleStatus } from '../orders/service.ts';
import { capitalise, claimOnFirstPick, lineName, lockForPick, placeIn, statusesForLine } from './pick-access.ts';
import { pickRefById } from './repository.ts';
import {
  backordersOf,
  insertBackorder,
  insertBackorderLine,
  linkBackorder,
  pickedFrom,
  shortClose,
  shortOpen,
  skipOrderLine,
  undoPick,
} from './line-repository.ts';

export async function shortPick(deps: Deps, auth: AuthContext, body: Body<'pick/short'>): Promise<CallResponse<'pick/short'>> {
  const statuses = await statusesForLine(deps, auth, body.lineId);
  const mode = shortPickMode(statuses);
  const changedOrders: string[] = [];
  const answer = await idempotentWrite(deps, auth, 'pick/short', body, async (tx) => {
    const { order, line } = await lockForPick(tx, auth, body.lineId, statuses);
    changedOrders.push(order.id);
    if (line.status !== 'open') throw badInput(`${capitalise(lineName(order, line))} is ${line.status} already`);
    let backorder: CallResponse<'pick/short'>['backorder'];
    if (mode === 'open') {
      // The rest stays on the line, open: the reason is kept and the line walks last.
      await shortOpen(tx, order.id, line.id, body.reason);
    } else {
      const rest = openUnits(line);
      await shortClose(tx, line.id, body.reason);
      if (mode === 'backorder' && rest > 0n) {
        backorder = await putOnBackorder(tx, auth, order, line, rest, statuses);
        changedOrders.push(backorder._id);
      }
    }
    await claimOnFirstPick(tx, auth, order, line, statuses);
    const orderStatus = await settleStatus(tx, order.id, statuses);
    return { response: { line: toLine((await lineById(tx, auth.orgId, line.id))!), orderStatus, ...(backorder ? { backorder } : {}) } };
  });
  if (changedOrders.length > 0) await emitOrdersChanged(deps, auth.orgId, changedOrders);
  return answer;
}

/**
 * The rest of a short line on the order's backorder: the newest `<number>-BO<n>` of the same type
 * while nobody has started it (its status still one of the type's `include` statuses), else a new
 * one, numbered one past the highest; a copy of the order's header (warehouse, customer, ship-to, due date,
 * priority, notes, staging place, department) in the first `include` status. The line keeps its
 * line number where the backorder has it free. Runs under the order's lock, so two shorts of one
 * order never make two backorders.
 */
async function putOnBackorder(tx: Db, auth: AuthContext, order: OrderRow, line: LineRow, rest: bigint, statuses: PickStatuses) {
  const earlier = await backordersOf(tx, auth.orgId, order.type, order.number);
  const reuse = earlier[0] && statuses.include.includes(earlier[0].status) ? earlier[0] : undefined;
  let target: { id: string; number: string };
  if (reuse) {
    target = reuse;
  } else {
    const number = backorderNumber(order.number, (earlier[0]?.n ?? 0) + 1);
    if (number.length > 60)
      throw badInput(`The backorder number '${number}' would be longer than 60 characters: close the line short instead`);
    const id = newId();
    await mapDuplicates(
      () =>
        insertBackorder(tx, {
          id,
          number,
          status: statuses.include[0] ?? ORDER_STATUS_DEFAULT,
          fromOrderId: order.id,
          audit: auditStamp(auth.accountId),
        }),
      { orders_org_type_number: () => conflict(`The order '${number}' exists already`) },
    );
    target = { id, number };
  }
  const lineId = newId();
  await insertBackorderLine(tx, {
    id: lineId,
    orgId: auth.orgId,
    orderId: target.id,
    lineNo: line.line_no,
    itemId: line.item_id,
    qty: formatQty(rest),
  });
  await linkBackorder(tx, auth.orgId, line.id, lineId);
  return { _id: target.id, number: target.number, lineId, qty: Number(formatQty(rest)) };
}

/**
 * "Location empty?" answered No (docs/orders.md): the location a pick of this line emptied still holds
 * something. The counts module asks for a count of it (a blind one-location sheet, or the open one
 * covering it already); the picker needs no physicalInventory right for it. One idempotent write.
 */
export async function reportDiscrepancy(
  deps: Deps,
  auth: AuthContext,
  body: Body<'pick/reportDiscrepancy'>,
): Promise<CallResponse<'pick/reportDiscrepancy'>> {
  const answer = await idempotentWrite(deps, auth, 'pick/reportDiscrepancy', body, async (tx) => {
    const line = await lineById(tx, auth.orgId, body.lineId);
    if (!line) throw notFound(`No order line '${body.lineId}' exists`);
    const order = (await orderById(tx, auth.orgId, line.order_id))!;
    const place = await placeIn(tx, auth, order, body.location);
    if (!(await pickedFrom(tx, line.id, place.id)))
      throw badInput(`No pick of ${lineName(order, line)} was made from '${place.code}': report a location a pick of the line emptied`);
    const asked = await requestLocationCount(tx, auth, {
      warehouseId: place.warehouseId,
      locationId: place.id,
      description: `Picker ${auth.userName}: ${place.code} not empty after order ${order.number}`,
    });
    return { response: asked };
  });
  forgetBlind(deps.db, auth.orgId);
  return answer;
}

export async function skipLine(deps: Deps, auth: AuthContext, body: Body<'pick/skip'>): Promise<CallResponse<'pick/skip'>> {
  const statuses = await statusesForLine(deps, auth, body.lineId);
  // One idempotent write, as pick/short: a skip replayed with its key (a device's outbox, a lost
  // answer) answers what the first stored and moves the line once.
  const changedOrders: string[] = [];
  const answer = await idempotentWrite(deps, auth, 'pick/skip', body, async (tx) => {
    const { order, line } = await lockForPick(tx, auth, body.lineId, statuses);
    changedOrders.push(order.id);
    if (line.status !== 'open') throw badInput(`${capitalise(lineName(order, line))} is ${line.status} already`);
    await skipOrderLine(tx, order.id, line.id);
    return { response: { line: toLine((await lineById(tx, auth.orgId, line.id))!) } };
  });
  if (changedOrders.length > 0) await emitOrdersChanged(deps, auth.orgId, changedOrders);
  return answer;
}

export async function unpick(deps: Deps, auth: AuthContext, body: Body<'pick/unpick'>): Promise<CallResponse<'pick/unpick'>> {
  const ref = await pickRefById(deps.db, auth.orgId, body.pickId);
  if (!ref) throw notFound(`No pick '${body.pickId}' exists`);
  const statuses = await statusesForLine(deps, auth, ref.line_id);
  const actor = actorOf(auth, body.idempotencyKey);
  const answer = await idempotentWrite(deps, auth, 'pick/unpick', body, async (tx) => {
    const { order, line } = await lockForPick(tx, auth, ref.line_id, statuses, 'or picked');
    const pick = (await pickRefById(tx, auth.orgId, body.pickId))!;
    if (pick.state !== 'picked') throw badInput(`The pick of '${pick.stock_id}' is ${pick.state} already`);
    const place = await placeIn(tx, auth, order, body.toLocation);
    const row = (await lockStock(tx, auth.orgId, pick.stock_id))!;
    const have = qtyUnits(row.quantity);
    await changeStock(
      tx,
      actor,
      row.id,
      { quantity: have, locationId: place.id, warehouseId: place.warehouseId, audit: auditStamp(auth.accountId, row.audit) },
      [
        {
          stockRecordId: row.id,
          type: 'unpick',
          qtyDelta: 0n,
          qtyAfter: have,
          fromLocationId: row.location_id,
          toLocationId: place.id,
          reason: `Order ${order.number}`,
          relatedStockRecordId: null,
        },
      ],
    );
    await undoPick(tx, pick.id, line.id, pick.qty);
    const orderStatus = await settleStatus(tx, order.id, statuses);
    return {
      response: { line: toLine((await lineById(tx, auth.orgId, line.id))!), orderStatus },
      changed: { stockIds: [row.stock_id], locationIds: [row.location_id, place.id] },
    };
  });
  await emitOrdersChanged(deps, auth.orgId, [ref.order_id]);
  return answer;
}
