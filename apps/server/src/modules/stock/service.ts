/*
 * Changes of stock: receive, adjust, move, split. Each one runs in a single transaction that locks
 * the stock record (SELECT … FOR UPDATE: concurrent changes of one record queue on PostgreSQL;
 * PGlite runs one transaction at a time anyway), changes it, appends its movements and stores the
 * answer under the idempotency key. The ledger invariant: per stock record, the movements' qty_delta
 * sum to its quantity, because every statement that changes a quantity appends the matching movement.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { parseQty } from '@floorhand/contract/quantity';
import {
  STOCK_RULE_MESSAGES,
  adjustRule,
  moveRule,
  readStockAdjustSettings,
  reasonProblem,
  ruleText,
  splitRule,
  wholeUnitsMessage,
  type StockRuleProblem,
} from '@floorhand/contract/stock-rules';
import { stockRecordEntity } from '@floorhand/contract/stock';
import { validateRecord, type ValidationErrors } from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import type { Db } from '../../db/client.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { badInput, checkRev, conflict, dup, invalidRecord as fieldProblem, notFound } from '../../lib/errors.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { type Body } from '../../lib/call-body.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { blindPlaces, refuseBlind } from '../../lib/blind-places.ts';
import { activeCodes, itemsByPartNumber, locationKey, locationsByCode, type ItemRef, type LocationRef } from '../../lib/refs.ts';
import {
  holdLocation,
  insertStock,
  locationsOfStockId,
  pickedFor,
  nextStockIds,
  stockAndMovementsByIds,
  type NewStock,
} from './repository.ts';
import { stockByIds } from './queries.ts';
import { actorOf, changeStock, insertMovements, lockStock, type Actor, type LockedStock, type NewMovement } from './ledger.ts';

type StockChange = CallResponse<'stock/adjust'>;
/** One unit in units of 1/10000. */
const ONE = 10_000n;

// ---------------------------------------------------------------------------------------------
// Receipts: one from stock/receive, many from a stock import; checked and written the same way.

/** A receipt as the record engine leaves it (stockRecordEntity). */
export interface ReceiptInput {
  stockId?: string;
  partNumber: string;
  warehouse: string;
  location: string;
  quantity: number;
  conditionCode?: string;
  lot?: string;
  serial?: string;
  certSource?: string;
  receivedDate?: string;
}

export interface ReceiptRefs {
  items: Map<string, ItemRef>;
  locations: Map<string, LocationRef>;
  conditions: Set<string>;
}

export async function loadReceiptRefs(db: Db, orgId: string, inputs: readonly ReceiptInput[]): Promise<ReceiptRefs> {
  return {
    items: await itemsByPartNumber(
      db,
      orgId,
      inputs.map((r) => r.partNumber),
    ),
    locations: await locationsByCode(
      db,
      orgId,
      inputs.map((r) => ({ warehouse: r.warehouse, code: r.location })),
    ),
    conditions: await activeCodes(
      db,
      orgId,
      'conditionCode',
      inputs.flatMap((r) => (r.conditionCode ? [r.conditionCode] : [])),
    ),
  };
}

export type ResolvedReceipt = Omit<NewStock, 'id' | 'stockId'> & { stockId?: string };

const today = () => new Date().toISOString().slice(0, 10);

/** A receipt's problems per field, or the stock record it makes (without ids). */
export function resolveReceipt(input: ReceiptInput, refs: ReceiptRefs): { errors: ValidationErrors } | { stock: ResolvedReceipt } {
  const errors: ValidationErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const qty = parseQty(input.quantity);
  if (!qty.ok) add('quantity', `'Quantity' ${qty.message}`);
  else if (qty.units <= 0n) add('quantity', `'Quantity' ${STOCK_RULE_MESSAGES.notPositive}`);
  const item = refs.items.get(input.partNumber);
  const fraction = item && qty.ok ? wholeUnitsMessage(item.uom, qty.units) : undefined;
  if (fraction) add('quantity', `'Quantity' ${fraction}`);
  if (!item) add('partNumber', `No item with part number '${input.partNumber}' exists`);
  else if (!item.active) add('partNumber', `The item '${input.partNumber}' is inactive`);
  const location = refs.locations.get(locationKey(input.warehouse, input.location));
  if (!location) add('location', `No location '${input.location}' exists in warehouse '${input.warehouse}'`);
  else if (!location.warehouseActive) add('warehouse', `The warehouse '${input.warehouse}' is inactive`);
  else if (!location.active) add('location', `The location '${input.location}' in warehouse '${input.warehouse}' is inactive`);
  if (input.conditionCode && !refs.conditions.has(input.conditionCode))
    add('conditionCode', `No active condition code '${input.conditionCode}' exists`);
  if (item?.tracking === 'lot' && !input.lot) add('lot', `'Lot' must be provided: part '${item.partNumber}' is lot-tracked`);
  if (item?.tracking === 'serial') {
    if (!input.serial) add('serial', `'Serial' must be provided: part '${item.partNumber}' is serial-tracked`);
    if (qty.ok && qty.units !== ONE) add('quantity', `'Quantity' must be 1 for the serial-tracked part '${item.partNumber}'`);
  } else if (item && input.serial) add('serial', `'Serial' is only for serial-tracked parts; '${item.partNumber}' is not`);
  if (Object.keys(errors).length > 0 || !item || !location || !qty.ok) return { errors };
  return {
    stock: {
      ...(input.stockId ? { stockId: input.stockId } : {}),
      itemId: item.id,
      warehouseId: location.warehouseId,
      locationId: location.id,
      quantity: qty.units,
      conditionCode: input.conditionCode ?? null,
      lot: input.lot ?? null,
      serial: input.serial ?? null,
      certSource: input.certSource ?? null,
      receivedDate: input.receivedDate ?? today(),
    },
  };
}

/** Inserts receipts with their first movement (receive); stock ids are made where absent. Returns the new records' ids and movement ids. */
export async function writeReceipts(
  tx: Db,
  actor: Actor,
  receipts: readonly ResolvedReceipt[],
): Promise<{ ids: string[]; movementIds: string[] }> {
  const made = await nextStockIds(tx, receipts.filter((r) => !r.stockId).length);
  let next = 0;
  const rows: NewStock[] = receipts.map((r) => ({ ...r, id: newId(), stockId: r.stockId ?? made[next++]! }));
  await insertStock(tx, actor, rows);
  const movementIds = await insertMovements(
    tx,
    actor,
    rows.map((r) => ({
      stockRecordId: r.id,
      type: 'receive',
      qtyDelta: r.quantity,
      qtyAfter: r.quantity,
      fromLocationId: null,
      toLocationId: r.locationId,
      reason: null,
      relatedStockRecordId: null,
    })),
  );
  return { ids: rows.map((r) => r.id), movementIds };
}

/** The answer of a change: the named record, the record it made (if any), the movements. */
async function changeAnswer(tx: Db, orgId: string, id: string, madeId: string | undefined, movementIds: string[]): Promise<StockChange> {
  const {
    stock: [stock, newStock],
    movements,
  } = await stockAndMovementsByIds(tx, orgId, madeId ? [id, madeId] : [id], movementIds);
  return { stock, ...(newStock ? { newStock } : {}), movements };
}

const stockDups = (stockId: string, serial?: string | null) => ({
  stock_records_org_stock_id: () => dup('Stock Record', stockId),
  stock_records_item_serial: () => dup('Serial', serial ?? '', 'A unit of this part with this serial is on hand already'),
});

export async function receiveStock(deps: Deps, auth: AuthContext, body: Body<'stock/receive'>): Promise<StockChange> {
  const checked = validateRecord(stockRecordEntity, body.record);
  if (!checked.ok) throw fieldProblem(checked.errors);
  const input = checked.value as unknown as ReceiptInput;
  const resolved = resolveReceipt(input, await loadReceiptRefs(deps.db, auth.orgId, [input]));
  if ('errors' in resolved) throw fieldProblem(resolved.errors);
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'stock/receive', body, async (tx) => {
    await holdActiveLocation(tx, resolved.stock.locationId, `${input.warehouse}/${input.location}`);
    const { ids, movementIds } = await mapDuplicates(
      () => writeReceipts(tx, actor, [resolved.stock]),
      stockDups(input.stockId ?? '', input.serial),
    );
    const response = await changeAnswer(tx, auth.orgId, ids[0]!, undefined, movementIds);
    return { response, changed: { stockIds: [response.stock!.stockId], locationIds: [resolved.stock.locationId] } };
  });
}

/**
 * Holds the destination location (FOR SHARE) until commit and checks it is active: a deactivation,
 * which locks the location FOR UPDATE and then counts its stock, either waits for this change and sees
 * its stock, or has committed first and is seen here.
 */
async function holdActiveLocation(tx: Db, locationId: string, name: string): Promise<void> {
  if (!(await holdLocation(tx, locationId))) throw badInput(`The location '${name}' is inactive`);
}

// ---------------------------------------------------------------------------------------------
// Changes of one locked record

/**
 * Refuses a change of a record in a location the caller counts blind: its answer would show the
 * record's quantity (counts/blind.ts). Read before the write's transaction (PGlite runs one at a time);
 * one more statement only for a caller who counts a blind sheet.
 */
async function refuseBlindStock(db: Db, auth: AuthContext, stockId: string): Promise<void> {
  const hidden = await blindPlaces(db, auth);
  if (hidden.size === 0) return;
  refuseBlind(hidden, await locationsOfStockId(db, auth.orgId, stockId));
}

async function locked(tx: Db, auth: AuthContext, stockId: string, rev: number | undefined): Promise<LockedStock> {
  // Another organisation's stock id is simply not found: nothing tells that it exists.
  const row = await lockStock(tx, auth.orgId, stockId);
  if (!row) throw notFound(`No stock record '${stockId}' exists`);
  checkRev(`The stock record '${stockId}'`, row.rev, rev);
  // Picked stock belongs to its order until shipped, issued or unpicked: changed here, the pick would
  // point at stock that is no longer what was picked (docs/orders.md, Picked stock).
  const order = await pickedFor(tx, row.id);
  if (order !== null) throw conflict(`The stock record '${stockId}' is picked for order ${order}; unpick it in Stock Picking first`);
  return row;
}

/** The stock rules' view of a locked record (contract stock-rules.ts). */
const unitOf = (row: LockedStock) => ({ have: unitsOf(row), serial: row.serial !== null, uom: row.uom });

/** A refusal of a stock rule: what it is about, then the rule's phrase. */
const ruleRefusal = (subject: string, problem: StockRuleProblem) => badInput(`${subject} ${ruleText(problem)}`);

const unitsOf = (row: LockedStock) => {
  const parsed = parseQty(row.quantity);
  if (!parsed.ok) throw new Error(`stored quantity unreadable: ${row.quantity}`);
  return parsed.units;
};

/** The adjustment reasons of the site's app settings (stockAdjust.reasons), or the defaults. */
export async function adjustReasons(db: Db, siteId: string): Promise<string[]> {
  const row = await findSiteData(db, siteId, 'conf', 'app_settings');
  return readStockAdjustSettings(row?.data).reasons;
}

export async function adjustStock(deps: Deps, auth: AuthContext, body: Body<'stock/adjust'>): Promise<StockChange> {
  await refuseBlindStock(deps.db, auth, body.stockId);
  const reasons = await adjustReasons(deps.db, auth.siteId);
  const badReason = reasonProblem(reasons, body.reason);
  if (badReason) throw badInput(badReason);
  const subject = `The quantity to ${body.deltaType === 'delta' ? 'adjust by' : 'set'}`;
  if (body.deltaType === 'absolute' && body.qty < 0n) throw badInput(`${subject} ${STOCK_RULE_MESSAGES.negative}`);
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'stock/adjust', body, async (tx) => {
    const row = await locked(tx, auth, body.stockId, body._rev);
    const unit = unitOf(row);
    const rule = adjustRule(unit, body.deltaType, body.qty);
    if (!rule.ok) throw ruleRefusal(subject, rule);
    const { have: before } = unit;
    const { after } = rule;
    const movementIds = await mapDuplicates(
      () =>
        changeStock(tx, actor, row.id, { quantity: after, audit: auditStamp(auth.accountId, row.audit) }, [
          {
            stockRecordId: row.id,
            type: 'adjust',
            qtyDelta: after - before,
            qtyAfter: after,
            fromLocationId: row.location_id,
            toLocationId: row.location_id,
            reason: body.reason,
            relatedStockRecordId: null,
          },
        ]),
      stockDups(row.stock_id, row.serial),
    );
    return {
      response: await changeAnswer(tx, auth.orgId, row.id, undefined, movementIds),
      changed: { stockIds: [row.stock_id], locationIds: [row.location_id] },
    };
  });
}

/** A record split off `row` with `qty`, in `target`, with the same item, condition, lot and dates. */
async function splitOff(
  tx: Db,
  actor: Actor,
  row: LockedStock,
  qty: bigint,
  target: { locationId: string; warehouseId: string },
): Promise<{ id: string; stockId: string }> {
  const [stockId] = await nextStockIds(tx, 1);
  const id = newId();
  await mapDuplicates(
    () =>
      insertStock(tx, actor, [
        {
          id,
          stockId: stockId!,
          itemId: row.item_id,
          warehouseId: target.warehouseId,
          locationId: target.locationId,
          quantity: qty,
          conditionCode: row.condition_code,
          lot: row.lot,
          serial: row.serial,
          certSource: row.cert_source,
          receivedDate: row.received_date,
        },
      ]),
    stockDups(stockId!, row.serial),
  );
  return { id, stockId: stockId! };
}

export async function moveStock(deps: Deps, auth: AuthContext, body: Body<'stock/move'>): Promise<StockChange> {
  await refuseBlindStock(deps.db, auth, body.stockId);
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'stock/move', body, async (tx) => {
    const row = await locked(tx, auth, body.stockId, body._rev);
    const warehouse = body.toWarehouse ?? (await stockByIds(tx, auth.orgId, [row.id]))[0]!.warehouse;
    const target = (await locationsByCode(tx, auth.orgId, [{ warehouse, code: body.toLocation }])).get(
      locationKey(warehouse, body.toLocation),
    );
    if (!target) throw badInput(`No location '${body.toLocation}' exists in warehouse '${warehouse}'`);
    await holdActiveLocation(tx, target.id, `${warehouse}/${body.toLocation}`);
    if (target.id === row.location_id) throw badInput(`'${row.stock_id}' is in '${body.toLocation}' already`);
    const unit = unitOf(row);
    const rule = moveRule(unit, body.qty);
    if (!rule.ok)
      throw ruleRefusal(rule.message === STOCK_RULE_MESSAGES.nothingToMove ? `'${row.stock_id}'` : 'The quantity to move', rule);
    const { have } = unit;
    const { qty } = rule;
    const move = { type: 'move' as const, fromLocationId: row.location_id, toLocationId: target.id, reason: null };
    const stamp = auditStamp(auth.accountId, row.audit);
    const changed = { stockIds: [row.stock_id], locationIds: [row.location_id, target.id] };
    if (qty === have) {
      // The whole record moves: its quantity stays, so the movement's delta is 0.
      const movementIds = await changeStock(
        tx,
        actor,
        row.id,
        { quantity: have, locationId: target.id, warehouseId: target.warehouseId, audit: stamp },
        [{ ...move, stockRecordId: row.id, qtyDelta: 0n, qtyAfter: have, relatedStockRecordId: null }],
      );
      return { response: await changeAnswer(tx, auth.orgId, row.id, undefined, movementIds), changed };
    }
    const made = await splitOff(tx, actor, row, qty, { locationId: target.id, warehouseId: target.warehouseId });
    const movementIds = await changeStock(tx, actor, row.id, { quantity: have - qty, audit: stamp }, [
      { ...move, stockRecordId: row.id, qtyDelta: -qty, qtyAfter: have - qty, relatedStockRecordId: made.id },
      { ...move, stockRecordId: made.id, qtyDelta: qty, qtyAfter: qty, relatedStockRecordId: row.id },
    ]);
    changed.stockIds.push(made.stockId);
    return { response: await changeAnswer(tx, auth.orgId, row.id, made.id, movementIds), changed };
  });
}

export async function splitStock(deps: Deps, auth: AuthContext, body: Body<'stock/split'>): Promise<StockChange> {
  await refuseBlindStock(deps.db, auth, body.stockId);
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'stock/split', body, async (tx) => {
    const row = await locked(tx, auth, body.stockId, body._rev);
    const unit = unitOf(row);
    const rule = splitRule(unit, body.qty);
    if (!rule.ok) throw ruleRefusal('The quantity to split', rule);
    const { have } = unit;
    const made = await splitOff(tx, actor, row, body.qty, { locationId: row.location_id, warehouseId: row.warehouse_id });
    const split = { type: 'split' as const, fromLocationId: row.location_id, toLocationId: row.location_id, reason: null };
    const movementIds = await changeStock(tx, actor, row.id, { quantity: have - body.qty, audit: auditStamp(auth.accountId, row.audit) }, [
      { ...split, stockRecordId: row.id, qtyDelta: -body.qty, qtyAfter: have - body.qty, relatedStockRecordId: made.id },
      { ...split, stockRecordId: made.id, qtyDelta: body.qty, qtyAfter: body.qty, relatedStockRecordId: row.id },
    ] satisfies NewMovement[]);
    return {
      response: await changeAnswer(tx, auth.orgId, row.id, made.id, movementIds),
      changed: { stockIds: [row.stock_id, made.stockId], locationIds: [row.location_id] },
    };
  });
}
