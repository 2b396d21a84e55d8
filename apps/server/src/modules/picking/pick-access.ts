/*
 * What every change of a pick needs first: whether the order is open for picking, the line's order
 * and the line locked (in that order, as every write here takes them), who may pick it, and the place
 * named in its warehouse.
 */
import { assignStatus, type PickStatuses } from '@floorhand/contract/orders';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { locationKey, locationsByCode, type LocationRef } from '../../lib/refs.ts';
import { lineById, orderById, type LineRow, type OrderRow } from '../orders/queries.ts';
import { pickStatusesOf } from '../orders/service.ts';
import { claimOrder, orderTypeOfLine, setOrderStatus } from './claim-repository.ts';

export const isPickable = (s: PickStatuses, status: string) => s.include.includes(status) || s.assign.includes(status);
export const notPickable = (order: OrderRow) => badInput(`The order '${order.number}' is not open for picking (status '${order.status}')`);
export const lineName = (order: OrderRow, line: LineRow) => `line ${line.line_no} of order '${order.number}'`;
export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface Locked {
  order: OrderRow;
  line: LineRow;
}

/** Locks the line's order, then the line; checks the order is pickable and the caller may pick the line. */
export async function lockForPick(
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
export async function claimOnFirstPick(tx: Db, auth: AuthContext, order: OrderRow, line: LineRow, statuses: PickStatuses): Promise<void> {
  // A picker holding lines of the order shares it: the order itself stays with whoever holds it, or with nobody.
  if (!order.claimed_by && !line.claimed_by) await claimOrder(tx, auth.accountId, order.id);
  if (statuses.include.includes(order.status)) await setOrderStatus(tx, order.id, assignStatus(statuses));
}

/** The pick statuses of the type of the line's order. */
export async function statusesForLine(deps: Deps, auth: AuthContext, lineId: string): Promise<PickStatuses> {
  const type = await orderTypeOfLine(deps.db, auth.orgId, lineId);
  if (!type) throw notFound(`No order line '${lineId}' exists`);
  return pickStatusesOf(deps.db, auth.siteId, type);
}

/** The active location of this code in the order's warehouse. */
export async function placeIn(tx: Db, auth: AuthContext, order: OrderRow, code: string): Promise<LocationRef> {
  const place = (await locationsByCode(tx, auth.orgId, [{ warehouse: order.warehouse, code }])).get(locationKey(order.warehouse, code));
  if (!place) throw badInput(`No location '${code}' exists in warehouse '${order.warehouse}'`);
  if (!place.active || !place.warehouseActive) throw badInput(`The location '${code}' is inactive`);
  return place;
}
