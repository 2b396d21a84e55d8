/*
 * Picking (docs/orders.md): the pick list, an order's lines in walk order with where their stock is,
 * claims, and the picks. Every pick is one idempotent write (lib/idempotent-write.ts): the order, the
 * line and the stock record are locked in that order (FOR UPDATE; every write here takes them in the
 * same order, so none waits on another in a circle), the quantity is checked against both what the
 * line still wants and what the record holds, and the record (or the part split off it) moves to the
 * order's staging place with a pick movement in the ledger. The line table's check refuses an
 * over-pick even if a rule here were wrong.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { assignStatus, readPickStatuses, type OrderType, type PickLine } from '@floorhand/contract/orders';
import { walkAisles, walkOrder } from '@floorhand/contract/walk-order';
import type { AuthContext } from '../../lib/auth-context.ts';
import { blindPlaces } from '../../lib/blind-places.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { linesByIds, linesOf, orderById, orderWithLines, toHeader, toLine, type LineRow, type OrderRow } from '../orders/queries.ts';
import { emitOrdersChanged, findOrder, pickStatusesOf } from '../orders/service.ts';
import {
  claimLines,
  claimOrder,
  keepWalkAisles,
  lockOrderLines,
  pickableOrders,
  releaseLines,
  releaseOrder,
  setOrderStatus,
} from './claim-repository.ts';
import { capitalise, isPickable, lineName, notPickable } from './pick-access.ts';
import { pickSources } from './repository.ts';
import { activePicks } from './queries.ts';

export { confirmPick } from './confirm.ts';
export { reportDiscrepancy, shortPick, skipLine, unpick } from './line-changes.ts';

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
  const rows = await pickableOrders(db, auth.orgId, byType, body);
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
  return (await keepWalkAisles(db, orderId, aisles)) ?? aisles;
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
      await claimLines(
        tx,
        auth.accountId,
        lines.map((l) => l.id),
      );
    } else {
      if (order.claimed_by && order.claimed_by !== auth.accountId)
        throw conflict(`The order '${order.number}' is being picked by ${order.claimed_name ?? order.claimed_by}`);
      await claimOrder(tx, auth.accountId, order.id);
    }
    if (statuses.include.includes(order.status)) await setOrderStatus(tx, order.id, assignStatus(statuses));
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
      await releaseLines(
        tx,
        auth.accountId,
        lines.map((l) => l.id),
      );
    } else {
      await releaseOrder(tx, auth.accountId, order.id);
    }
    return { order: await orderWithLines(tx, (await orderById(tx, auth.orgId, order.id))!) };
  });
  await emitOrdersChanged(deps, auth.orgId, [body.orderId]);
  return answer;
}

async function lockLines(tx: Db, auth: AuthContext, order: OrderRow, lineIds: string[]): Promise<LineRow[]> {
  const ids = [...new Set(lineIds)];
  await lockOrderLines(tx, auth.orgId, order.id, ids);
  const lines = (await linesByIds(tx, auth.orgId, ids)).filter((l) => l.order_id === order.id);
  if (lines.length !== ids.length) throw notFound(`Not every line given belongs to the order '${order.number}'`);
  return lines;
}
