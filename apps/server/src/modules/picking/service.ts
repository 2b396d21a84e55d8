/*
 * Picking (docs/orders.md): the pick list, an order's lines in walk order with where their stock is,
 * claims, and the picks. Every pick is one idempotent write (lib/idempotent-write.ts): the order, the
 * line and the stock record are locked in that order (FOR UPDATE; every write here takes them in the
 * same order, so none waits on another in a circle), the quantity is checked against both what the
 * line still wants and what the record holds, and the record (or the part split off it) moves to the
 * order's staging place with a pick movement in the ledger. The line table's check refuses an
 * over-pick even if a rule here were wrong.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { wholeUnitsMessage } from '@floorhand/contract/stock-rules';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import {
  assignStatus,
  backorderNumber,
  ORDER_STATUS_DEFAULT,
  pickedStatus,
  readPickStatuses,
  shortPickMode,
  type OrderType,
  type PickLine,
  type PickStatuses,
} from '@floorhand/contract/orders';
import { walkAisles, walkOrder } from '@floorhand/contract/walk-order';
import type { AuthContext } from '../../lib/auth-context.ts';
import { blindPlaces, forgetBlind } from '../../lib/blind-places.ts';
import { requestLocationCount } from '../counts/service.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { locationKey, locationsByCode, type LocationRef } from '../../lib/refs.ts';
import { changeStock, lockStock, movementInsert, stockUpdate, type LockedStock } from '../stock/ledger.ts';
import { actorOf } from '../stock/ledger.ts';
import {
  lineById,
  linesByIds,
  linesOf,
  openUnits,
  orderById,
  orderWithLines,
  selectOrders,
  toHeader,
  toLine,
  type LineRow,
  type OrderRow,
} from '../orders/queries.ts';
import { emitOrdersChanged, findOrder, pickStatusesOf, settleStatus } from '../orders/service.ts';
import {
  confirmPreview,
  confirmWriteSql,
  itemsByScan,
  lockForConfirm,
  pickRefById,
  pickSources,
  recordsOfItemAt,
  type ConfirmWrite,
} from './repository.ts';
import { activePicks, pickableCondition, toPick } from './queries.ts';

const isPickable = (s: PickStatuses, status: string) => s.include.includes(status) || s.assign.includes(status);
const notPickable = (order: OrderRow) => badInput(`The order '${order.number}' is not open for picking (status '${order.status}')`);
const lineName = (order: OrderRow, line: LineRow) => `line ${line.line_no} of order '${order.number}'`;

// ---------------------------------------------------------------------------------------------
// Reads

export async function pickList(db: Db, auth: AuthContext, body: Body<'pick/list'>): Promise<CallResponse<'pick/list'>> {
  const row = await findSiteData(db, auth.siteId, 'conf', 'app_settings');
  const types: readonly OrderType[] = body.type ? [body.type] : ORDER_TYPES;
  const byType = new Map(
    types.map((type) => {
      const s = readPickStatuses(row?.data, type);
      return [type, [...s.include, ...s.assign]] as const;
    }),
  );
  const sortColumn = new Map([
    ['dueDate', sql`o.due_date`],
    ['priority', sql`o.priority`],
    ['number', sql`o.number`],
    ['type', sql`o.type`],
  ]).get(body.sort)!;
  const direction = body.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const rows = await selectOrders(
    db,
    sql`WHERE o.org_id = ${auth.orgId} AND (${pickableCondition(byType)})
      ${body.warehouse ? sql`AND w.code = ${body.warehouse}` : sql``}
      ${body.department ? sql`AND (o.department = ${body.department} OR EXISTS (SELECT 1 FROM order_lines ol JOIN items i ON i.id = ol.item_id WHERE ol.order_id = o.id AND i.department = ${body.department}))` : sql``}
    ORDER BY ${sortColumn} ${direction}, o.priority DESC, o.number, o.type LIMIT ${body.maxRows + 1}`,
  );
  return { orders: rows.slice(0, body.maxRows).map(toHeader), more: rows.length > body.maxRows };
}

/** An order's lines to pick: open lines in walk order (skipped ones last), then the done ones. */
export async function pickOrder(db: Db, auth: AuthContext, body: Body<'pick/order'>): Promise<CallResponse<'pick/order'>> {
  const order = await findOrder(db, auth.orgId, body);
  const lines = await linesOf(db, [order.id]);
  const open = lines.filter((l) => l.status === 'open');
  // Stock in a location the caller counts blind is not offered as a source: it would show its quantity (counts/blind.ts).
  const hidden = await blindPlaces(db, auth);
  const sources = (await pickSources(db, auth.orgId, order.warehouse_id, [...new Set(open.map((l) => l.item_id))])).filter(
    (s) => !hidden.has(s.location_id),
  );
  const byItem = new Map<string, typeof sources>();
  for (const s of walkOrder(sources, (x) => x.location)) {
    const list = byItem.get(s.item_id) ?? [];
    list.push(s);
    byItem.set(s.item_id, list);
  }
  const picks = await activePicks(db, order.id);
  const toPickLine = (l: LineRow): PickLine => ({
    ...toLine(l),
    sources:
      l.status === 'open'
        ? (byItem.get(l.item_id) ?? []).map((s) => ({
            stockId: s.stock_id,
            location: s.location,
            quantity: Number(s.quantity),
            lot: s.lot,
            serial: s.serial,
          }))
        : [],
    picks: picks.filter((p) => p.lineId === l.id),
  });
  const firstPlace = (l: LineRow) => byItem.get(l.item_id)?.[0]?.location ?? '';
  // Each aisle's way is decided once per order: from the walk's aisles at its first pick list (the
  // open lines' places and where any picks so far came from), kept with the order. So the lines left
  // after an aisle is picked, a line shorted with nothing picked, or stock moved to another aisle do
  // not turn the other aisles round.
  const startAisles =
    order.walk_aisles ?? (await startWalk(db, order.id, walkAisles([...open.map(firstPlace), ...picks.map((p) => p.fromLocation)])));
  const walked = walkOrder(
    open.filter((l) => l.skip_seq === 0 && firstPlace(l) !== ''),
    firstPlace,
    startAisles,
  );
  const noStock = open.filter((l) => l.skip_seq === 0 && firstPlace(l) === '');
  const skipped = open.filter((l) => l.skip_seq > 0).sort((a, b) => a.skip_seq - b.skip_seq);
  const done = lines.filter((l) => l.status !== 'open');
  return { order: toHeader(order), lines: [...walked, ...noStock, ...skipped, ...done].map(toPickLine) };
}

/**
 * Keeps the aisles of an order's walk as it begins (the first pick list with a place to go), once:
 * two pickers opening it at the same moment keep the first's. A memo of the walk, not an edit of the
 * order (its revision stays).
 */
async function startWalk(db: Db, orderId: string, aisles: number[]): Promise<number[] | undefined> {
  if (aisles.length === 0) return undefined;
  const [kept] = await query<{ walk_aisles: number[] | null }>(
    db,
    sql`UPDATE orders SET walk_aisles = coalesce(walk_aisles, ${arrayParam(aisles)}::integer[]) WHERE id = ${orderId} RETURNING walk_aisles`,
  );
  return kept?.walk_aisles ?? aisles;
}

// ---------------------------------------------------------------------------------------------
// Claims

export async function claim(deps: Deps, auth: AuthContext, body: Body<'pick/claim'>): Promise<CallResponse<'pick/claim'>> {
  const order0 = await orderById(deps.db, auth.orgId, body.orderId);
  if (!order0) throw notFound(`No order '${body.orderId}' exists`);
  const statuses = await pickStatusesOf(deps.db, auth.siteId, order0.type);
  const answer = await deps.db.transaction(async (tx) => {
    const order = (await orderById(tx, auth.orgId, body.orderId, true))!;
    if (!isPickable(statuses, order.status)) throw notPickable(order);
    if (body.lineIds) {
      const lines = await lockLines(tx, auth, order, body.lineIds);
      const held = lines.find((l) => l.claimed_by && l.claimed_by !== auth.accountId);
      if (held) throw conflict(`${capitalise(lineName(order, held))} is being picked by ${held.claimed_name ?? held.claimed_by}`);
      await query(
        tx,
        sql`UPDATE order_lines SET claimed_by = ${auth.accountId}, _rev = _rev + 1 WHERE id = ANY(${sql.param(lines.map((l) => l.id))})`,
      );
    } else {
      if (order.claimed_by && order.claimed_by !== auth.accountId)
        throw conflict(`The order '${order.number}' is being picked by ${order.claimed_name ?? order.claimed_by}`);
      await query(tx, sql`UPDATE orders SET claimed_by = ${auth.accountId}, _rev = _rev + 1 WHERE id = ${order.id}`);
    }
    if (statuses.include.includes(order.status))
      await query(tx, sql`UPDATE orders SET status = ${assignStatus(statuses)} WHERE id = ${order.id}`);
    return { order: await orderWithLines(tx, (await orderById(tx, auth.orgId, order.id))!) };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}

export async function release(deps: Deps, auth: AuthContext, body: Body<'pick/release'>): Promise<CallResponse<'pick/release'>> {
  const answer = await deps.db.transaction(async (tx) => {
    const order = await orderById(tx, auth.orgId, body.orderId, true);
    if (!order) throw notFound(`No order '${body.orderId}' exists`);
    if (body.lineIds) {
      const lines = await lockLines(tx, auth, order, body.lineIds);
      await query(
        tx,
        sql`UPDATE order_lines SET claimed_by = NULL, _rev = _rev + 1 WHERE id = ANY(${sql.param(lines.map((l) => l.id))}) AND claimed_by = ${auth.accountId}`,
      );
    } else {
      await query(tx, sql`UPDATE orders SET claimed_by = NULL, _rev = _rev + 1 WHERE id = ${order.id} AND claimed_by = ${auth.accountId}`);
      await query(
        tx,
        sql`UPDATE order_lines SET claimed_by = NULL, _rev = _rev + 1 WHERE order_id = ${order.id} AND claimed_by = ${auth.accountId}`,
      );
    }
    return { order: await orderWithLines(tx, (await orderById(tx, auth.orgId, order.id))!) };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

async function lockLines(tx: Db, auth: AuthContext, order: OrderRow, lineIds: string[]): Promise<LineRow[]> {
  const ids = [...new Set(lineIds)];
  await query(
    tx,
    sql`SELECT id FROM order_lines WHERE org_id = ${auth.orgId} AND order_id = ${order.id} AND id = ANY(${sql.param(ids)}) ORDER BY id FOR UPDATE`,
  );
  const lines = (await linesByIds(tx, auth.orgId, ids)).filter((l) => l.order_id === order.id);
  if (lines.length !== ids.length) throw notFound(`Not every line given belongs to the order '${order.number}'`);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Picks

interface Locked {
  order: OrderRow;
  line: LineRow;
}

/** Locks the line's order, then the line; checks the order is pickable and the caller may pick the line. */
async function lockForPick(
  tx: Db,
  auth: AuthContext,
  lineId: string,
  statuses: PickStatuses,
  picked: 'or picked' | '' = '',
): Promise<Locked> {
  const first = await lineById(tx, auth.orgId, lineId);
  if (!first) throw notFound(`No order line '${lineId}' exists`);
  const order = (await orderById(tx, auth.orgId, first.order_id, true))!;
  const line = (await lineById(tx, auth.orgId, lineId, true))!;
  // An unpick may undo the last pick of a fully picked order.
  if (!isPickable(statuses, order.status) && !(picked && statuses.picked.includes(order.status))) throw notPickable(order);
  if (line.claimed_by && line.claimed_by !== auth.accountId)
    throw conflict(`${capitalise(lineName(order, line))} is being picked by ${line.claimed_name ?? line.claimed_by}`);
  if (!line.claimed_by && order.claimed_by && order.claimed_by !== auth.accountId)
    throw conflict(`The order '${order.number}' is being picked by ${order.claimed_name ?? order.claimed_by}`);
  return { order, line };
}

/** Takes an unclaimed order for the picker who starts picking it, with its `assign` status. */
async function claimOnFirstPick(tx: Db, auth: AuthContext, order: OrderRow, line: LineRow, statuses: PickStatuses): Promise<void> {
  // A picker holding lines of the order shares it: the order itself stays with whoever holds it, or with nobody.
  if (!order.claimed_by && !line.claimed_by)
    await query(tx, sql`UPDATE orders SET claimed_by = ${auth.accountId}, _rev = _rev + 1 WHERE id = ${order.id}`);
  if (statuses.include.includes(order.status))
    await query(tx, sql`UPDATE orders SET status = ${assignStatus(statuses)} WHERE id = ${order.id}`);
}

async function statusesForLine(deps: Deps, auth: AuthContext, lineId: string): Promise<PickStatuses> {
  const [row] = await query<{ type: OrderType }>(
    deps.db,
    sql`SELECT o.type FROM order_lines ol JOIN orders o ON o.id = ol.order_id WHERE ol.org_id = ${auth.orgId} AND ol.id = ${lineId}`,
  );
  if (!row) throw notFound(`No order line '${lineId}' exists`);
  return pickStatusesOf(deps.db, auth.siteId, row.type);
}

async function placeIn(tx: Db, auth: AuthContext, order: OrderRow, code: string): Promise<LocationRef> {
  const place = (await locationsByCode(tx, auth.orgId, [{ warehouse: order.warehouse, code }])).get(locationKey(order.warehouse, code));
  if (!place) throw badInput(`No location '${code}' exists in warehouse '${order.warehouse}'`);
  if (!place.active || !place.warehouseActive) throw badInput(`The location '${code}' is inactive`);
  return place;
}

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
      const part =
        row.part_number ??
        (await query<{ part_number: string }>(tx, sql`SELECT part_number FROM items WHERE id = ${row.item_id}`))[0]?.part_number;
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
    const go = sql`EXISTS (SELECT 1 FROM go)`;
    const whole = body.qty === have;
    const pickedId = whole ? row.id : newId();
    const split = whole
      ? null
      : {
          sql: sql`INSERT INTO stock_records (id, stock_id, item_id, warehouse_id, location_id, quantity, condition_code, lot, serial, cert_source, received_date, org_id, audit)
            SELECT ${pickedId}, 'S' || lpad(nextval('stock_id_seq')::text, 9, '0'), ${row.item_id}, ${order.warehouse_id}, ${stagingId}, ${formatQty(body.qty)}::numeric,
              ${row.condition_code}, ${row.lot}, ${row.serial}, ${row.cert_source}, ${row.received_date}::date, ${auth.orgId}, ${JSON.stringify(actor.audit)}::jsonb
            FROM go RETURNING stock_id`,
        };
    const stockChange = whole
      ? stockUpdate(row.id, { quantity: have, locationId: stagingId, warehouseId: order.warehouse_id, audit: stamp }, go)
      : stockUpdate(row.id, { quantity: have - body.qty, audit: stamp }, go);
    const movements = whole
      ? movementInsert(actor, [{ ...move, stockRecordId: row.id, qtyDelta: 0n, qtyAfter: have, relatedStockRecordId: null }], go)
      : movementInsert(
          actor,
          [
            { ...move, stockRecordId: row.id, qtyDelta: -body.qty, qtyAfter: have - body.qty, relatedStockRecordId: pickedId },
            { ...move, stockRecordId: pickedId, qtyDelta: body.qty, qtyAfter: body.qty, relatedStockRecordId: row.id },
          ],
          go,
        );
    const pickId = newId();
    const statement = confirmWriteSql({
      proceed: !refusal,
      recordId: row.id,
      split,
      stockChange,
      movements,
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
    });
    const [written] = await mapDuplicates(() => query<ConfirmWrite>(tx, statement), {});
    if (written!.picked_for) throw badInput(`The stock '${row.stock_id}' is picked already (order '${written!.picked_for}')`);
    if (refusal) throw refusal;
    const pickRow = written!.pick!;
    const pickedStockId = pickRow.stock_id;
    const orderStatus = written!.order_status ?? order.status;
    const response = { line: toLine(written!.line!), pick: toPick(pickRow), orderStatus, locationEmpty: written!.location_empty! };
    return {
      response,
      changed: { stockIds: [...new Set([row.stock_id, pickedStockId])], locationIds: [row.location_id, stagingId] },
      alsoEmit: (siteIds) => {
        for (const siteId of siteIds) deps.realtime.emit(siteId, 'ordersChanged', { orderIds: [order.id] });
      },
    };
  });
}

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
      await query(
        tx,
        sql`UPDATE order_lines SET short_reason = ${body.reason}, skip_seq = (SELECT coalesce(max(skip_seq), 0) + 1 FROM order_lines WHERE order_id = ${order.id}), _rev = _rev + 1 WHERE id = ${line.id}`,
      );
    } else {
      const rest = openUnits(line);
      await query(
        tx,
        sql`UPDATE order_lines SET qty_short = qty - qty_picked, status = 'short', short_reason = ${body.reason}, _rev = _rev + 1 WHERE id = ${line.id}`,
      );
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
  const earlier = await query<{ id: string; number: string; status: string; n: number }>(
    tx,
    sql`SELECT id, number, status, substr(number, ${order.number.length + 4})::int AS n FROM orders
    WHERE org_id = ${auth.orgId} AND type = ${order.type} AND left(number, ${order.number.length + 3}) = ${`${order.number}-BO`}
      AND substr(number, ${order.number.length + 4}) ~ '^[0-9]{1,6}$'
    ORDER BY n DESC FOR UPDATE`,
  );
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
        query(
          tx,
          sql`INSERT INTO orders (id, org_id, type, number, status, warehouse_id, customer, ship_to, due_date, priority, notes, staging_location_id, department, audit)
          SELECT ${id}, org_id, type, ${number}, ${statuses.include[0] ?? ORDER_STATUS_DEFAULT}, warehouse_id, customer, ship_to, due_date, priority, notes, staging_location_id, department,
            ${JSON.stringify(auditStamp(auth.accountId))}::jsonb
          FROM orders WHERE id = ${order.id}`,
        ),
      { orders_org_type_number: () => conflict(`The order '${number}' exists already`) },
    );
    target = { id, number };
  }
  const lineId = newId();
  await query(
    tx,
    sql`INSERT INTO order_lines (id, org_id, order_id, line_no, item_id, qty)
    SELECT ${lineId}, ${auth.orgId}, ${target.id},
      CASE WHEN EXISTS (SELECT 1 FROM order_lines WHERE order_id = ${target.id} AND line_no = ${line.line_no}) THEN (SELECT max(line_no) + 1 FROM order_lines WHERE order_id = ${target.id}) ELSE ${line.line_no} END,
      ${line.item_id}, ${formatQty(rest)}::numeric`,
  );
  await query(tx, sql`INSERT INTO order_backorders (line_id, org_id, backorder_line_id) VALUES (${line.id}, ${auth.orgId}, ${lineId})`);
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
    const [picked] = await query<{ one: number }>(
      tx,
      sql`SELECT 1 AS one FROM order_picks WHERE line_id = ${line.id} AND from_location_id = ${place.id} LIMIT 1`,
    );
    if (!picked)
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
    await query(
      tx,
      sql`UPDATE order_lines SET skip_seq = (SELECT coalesce(max(skip_seq), 0) + 1 FROM order_lines WHERE order_id = ${order.id}), _rev = _rev + 1 WHERE id = ${line.id}`,
    );
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
    await query(tx, sql`UPDATE order_picks SET state = 'unpicked', package_id = NULL WHERE id = ${pick.id}`);
    await query(
      tx,
      // A rest put on a backorder stays there: only the unpicked quantity opens again.
      sql`UPDATE order_lines SET qty_picked = qty_picked - ${pick.qty}::numeric, status = 'open',
        qty_short = CASE WHEN EXISTS (SELECT 1 FROM order_backorders WHERE line_id = ${line.id}) THEN qty_short ELSE 0 END,
        short_reason = CASE WHEN EXISTS (SELECT 1 FROM order_backorders WHERE line_id = ${line.id}) THEN short_reason ELSE NULL END, _rev = _rev + 1 WHERE id = ${line.id}`,
    );
    const orderStatus = await settleStatus(tx, order.id, statuses);
    return {
      response: { line: toLine((await lineById(tx, auth.orgId, line.id))!), orderStatus },
      changed: { stockIds: [row.stock_id], locationIds: [row.location_id, place.id] },
    };
  });
  await emitOrdersChanged(deps, auth.orgId, [ref.order_id]);
  return answer;
}
