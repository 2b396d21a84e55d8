/*
 * pick/confirm (docs/orders.md, "Pick confirm"): the checks of a pick and what it writes; the locks
 * and the write are the statements of repository.ts.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { wholeUnitsMessage } from '@floorhand/contract/stock-rules';
import { assignStatus, pickedStatus, readPickStatuses, type PickStatuses } from '@floorhand/contract/orders';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { mapDuplicates } from '../../db/errors.ts';
import type { LocationRef } from '../../lib/refs.ts';
import { actorOf, lockStock, type LockedStock } from '../stock/ledger.ts';
import { openUnits, toLine, type LineRow, type OrderRow } from '../orders/queries.ts';
import { capitalise, isPickable, lineName, notPickable } from './pick-access.ts';
import {
  confirmPreview,
  itemsByScan,
  lockForConfirm,
  partNumberOf,
  recordsOfItemAt,
  writeConfirm,
  type ConfirmStock,
} from './repository.ts';
import { toPick } from './queries.ts';

/** The record a scan names: its stock label, or the item where the location holds one record of it. */
async function scannedStock(tx: Db, auth: AuthContext, scan: string, place: LocationRef): Promise<LockedStock> {
  const byLabel = await lockStock(tx, auth.orgId, scan);
  if (byLabel) return byLabel;
  const items = await itemsByScan(tx, auth.orgId, scan);
  if (items.length === 0) throw badInput(`'${scan}' is neither a stock label nor an item's part number or barcode`);
  const found = (await Promise.all(items.map((i) => recordsOfItemAt(tx, auth.orgId, i.id, place.id)))).flat();
  if (found.length === 0) throw badInput(`There is no stock of '${items[0]!.part_number}' to pick in '${place.code}'`);
  if (found.length > 1) throw badInput(`'${place.code}' holds more than one record of '${items[0]!.part_number}': scan the stock label`);
  return (await lockStock(tx, auth.orgId, found[0]!))!;
}

/** What a pick changes of its order, as claimOnFirstPick and then settleStatus would (confirmWriteSql does it in its statement). */
function orderChange(statuses: PickStatuses, order: { status: string; claimed_by: string | null }, line: LineRow) {
  const claimedStatus = statuses.include.includes(order.status) ? assignStatus(statuses) : order.status;
  return {
    // A picker holding lines of the order shares it: the order itself stays with whoever holds it, or with nobody.
    claim: !order.claimed_by && !line.claimed_by,
    claimedStatus,
    claimedStatusIsPicked: statuses.picked.includes(claimedStatus),
    claimedStatusPickable: isPickable(statuses, claimedStatus),
    assign: assignStatus(statuses),
    picked: pickedStatus(statuses),
  };
}

/** A confirm that took the order's lock FOR SHARE and found it must change the order: run again with FOR UPDATE. */
class NeedsOrderWrite extends Error {}

/**
 * pick/confirm (docs/orders.md, "Pick confirm"): one read before the transaction (the app settings
 * and what decides the order's lock), then in the transaction one statement locking order, line and
 * record and reading what the checks need, and one statement writing the pick and answering it. The
 * order is locked FOR SHARE when the pick changes nothing of it (the order is claimed, its status
 * stays and the line stays open), so pickers of one order no longer wait on each other; a pick that
 * claims the order, changes its status or finishes a line takes it FOR UPDATE as before (and settles
 * the order's status under it). Should the locked rows say otherwise than the read before, the
 * transaction is rolled back and run again with FOR UPDATE.
 */
export async function confirmPick(deps: Deps, auth: AuthContext, body: Body<'pick/confirm'>): Promise<CallResponse<'pick/confirm'>> {
  const preview = await confirmPreview(deps.db, auth.orgId, auth.siteId, body.lineId);
  if (!preview) throw notFound(`No order line '${body.lineId}' exists`);
  const statuses = readPickStatuses(preview.settings, preview.type);
  const orderWrite = (status: string, orderClaimed: string | null, lineClaimed: string | null, open: bigint) =>
    (!orderClaimed && !lineClaimed) || statuses.include.includes(status) || statuses.picked.includes(status) || body.qty >= open;
  const first =
    orderWrite(preview.status, preview.order_claimed_by, preview.line_claimed_by, qtyUnits(preview.open)) || preview.line_status !== 'open';
  try {
    return await confirmLocked(deps, auth, body, statuses, first ? 'update' : 'share', orderWrite);
  } catch (error) {
    if (!(error instanceof NeedsOrderWrite)) throw error;
    return confirmLocked(deps, auth, body, statuses, 'update', orderWrite);
  }
}

async function confirmLocked(
  deps: Deps,
  auth: AuthContext,
  body: Body<'pick/confirm'>,
  statuses: PickStatuses,
  orderLock: 'share' | 'update',
  orderWrite: (status: string, orderClaimed: string | null, lineClaimed: string | null, open: bigint) => boolean,
): Promise<CallResponse<'pick/confirm'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'pick/confirm', body, async (tx) => {
    const locked = await lockForConfirm(tx, auth.orgId, body.lineId, body.scan, body.location, orderLock);
    const { order, line } = locked;
    if (!order || !line) throw notFound(`No order line '${body.lineId}' exists`);
    const named = { number: order.number } as OrderRow;
    if (!isPickable(statuses, order.status)) throw notPickable({ ...named, status: order.status } as OrderRow);
    if (line.claimed_by && line.claimed_by !== auth.accountId)
      throw conflict(`${capitalise(lineName(named, line))} is being picked by ${line.claimed_name ?? line.claimed_by}`);
    if (!line.claimed_by && order.claimed_by && order.claimed_by !== auth.accountId)
      throw conflict(`The order '${order.number}' is being picked by ${order.claimed_name ?? order.claimed_by}`);
    if (line.status !== 'open') throw badInput(`${capitalise(lineName(named, line))} is ${line.status} already`);
    const open = openUnits(line);
    if (body.qty <= 0n) throw badInput('The quantity to pick must be greater than 0');
    if (body.qty > open)
      throw badInput(`Only ${formatQty(open)} of ${lineName(named, line)} is still to pick: ${formatQty(body.qty)} would over-pick`);
    const fraction = wholeUnitsMessage(line.uom, body.qty);
    if (fraction) throw badInput(`The quantity to pick ${fraction}`);
    const place = locked.place;
    if (!place) throw badInput(`No location '${body.location}' exists in warehouse '${order.warehouse}'`);
    if (!place.active || !place.warehouseActive) throw badInput(`The location '${body.location}' is inactive`);
    const row: LockedStock & { part_number?: string } = locked.stock ?? (await scannedStock(tx, auth, body.scan, place));
    // The checks after "picked already" (which the write reads, after the record's lock): the first that refuses.
    let refusal: Error | undefined;
    if (row.item_id !== line.item_id) {
      const part = row.part_number ?? (await partNumberOf(tx, row.item_id));
      refusal = badInput(`Wrong item: '${row.stock_id}' is '${part ?? row.item_id}', ${lineName(named, line)} wants '${line.part_number}'`);
    }
    const have = qtyUnits(row.quantity);
    if (!refusal && row.location_id !== place.id) refusal = badInput(`The stock '${row.stock_id}' is not in '${place.code}'`);
    if (!refusal && body.qty > have)
      refusal = badInput(`Not enough stock: '${row.stock_id}' holds ${formatQty(have)}, ${formatQty(body.qty)} asked`);
    const staging = locked.staging;
    if (!refusal && !staging) refusal = badInput(`The warehouse '${order.warehouse}' has no staging location: give the order one`);
    const done = body.qty === open;
    const writesOrder = orderWrite(order.status, order.claimed_by, line.claimed_by, open);
    if (!refusal && writesOrder && orderLock === 'share') throw new NeedsOrderWrite();
    const stagingId = staging?.id ?? place.id;
    const stamp = auditStamp(auth.accountId, row.audit);
    const move = { type: 'pick' as const, fromLocationId: row.location_id, toLocationId: stagingId, reason: `Order ${order.number}` };
    const whole = body.qty === have;
    const pickedId = whole ? row.id : newId();
    const stock: ConfirmStock = {
      record: row,
      change: whole
        ? { quantity: have, locationId: stagingId, warehouseId: order.warehouse_id, audit: stamp }
        : { quantity: have - body.qty, audit: stamp },
      movements: whole
        ? [{ ...move, stockRecordId: row.id, qtyDelta: 0n, qtyAfter: have, relatedStockRecordId: null }]
        : [
            { ...move, stockRecordId: row.id, qtyDelta: -body.qty, qtyAfter: have - body.qty, relatedStockRecordId: pickedId },
            { ...move, stockRecordId: pickedId, qtyDelta: body.qty, qtyAfter: body.qty, relatedStockRecordId: row.id },
          ],
      split: whole
        ? null
        : {
            id: pickedId,
            warehouseId: order.warehouse_id,
            locationId: stagingId,
            qty: formatQty(body.qty),
            orgId: auth.orgId,
            audit: actor.audit,
          },
    };
    const pickId = newId();
    const written = await mapDuplicates(
      () =>
        writeConfirm(tx, actor, stock, {
          proceed: !refusal,
          recordId: row.id,
          pick: {
            id: pickId,
            orgId: auth.orgId,
            orderId: order.id,
            lineId: line.id,
            stockRecordId: pickedId,
            // A split's new stock id comes from the sequence, in the statement itself.
            stockId: row.stock_id,
            qty: formatQty(body.qty),
            fromLocationId: row.location_id,
            fromCode: place.code,
            toLocationId: stagingId,
            toCode: staging?.code ?? '',
            accountId: auth.accountId,
          },
          lineStatus: done ? 'picked' : 'open',
          order: writesOrder ? orderChange(statuses, order, line) : null,
        }),
      {},
    );
    if (written.picked_for) throw badInput(`The stock '${row.stock_id}' is picked already (order '${written.picked_for}')`);
    if (refusal) throw refusal;
    const pickRow = written.pick!;
    const pickedStockId = pickRow.stock_id;
    const orderStatus = written.order_status ?? order.status;
    const response = { line: toLine(written.line!), pick: toPick(pickRow), orderStatus, locationEmpty: written.location_empty! };
    return {
      response,
      changed: { stockIds: [...new Set([row.stock_id, pickedStockId])], locationIds: [row.location_id, stagingId] },
      alsoEmit: (siteIds) => {
        for (const siteId of siteIds) deps.realtime.emit(siteId, 'ordersChanged', { orderIds: [order.id] });
      },
    };
  });
}
