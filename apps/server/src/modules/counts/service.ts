/*
 * Physical inventory (docs/physical-inventory.md). A count line is anchored to the ledger: it keeps the
 * counted stock record's last movement and its quantity at the scan; the post books counted minus that
 * quantity on top of what the record holds then, so movements after the scan carry through and nothing
 * freezes the warehouse. A blind sheet's system quantities are never selected for a counter's answer.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import {
  CHART_LOCATIONS_MAX,
  isSheetCountable,
  isSheetDecidable,
  isSheetReviewable,
  mayTransition,
  SHEET_TRANSITIONS,
  type CounterLine,
  type InvalidLine,
  type SheetTransition,
} from '@floorhand/contract/counts';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { wholeUnitsMessage } from '@floorhand/contract/stock-rules';
import { csvLine } from '@floorhand/contract/csv';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, checkRev, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { requireFeatures, visibleFeaturesOf } from '../../lib/features.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';
import { actorOf } from '../stock/ledger.ts';
import { itemsByPartNumber, warehousesByCode } from '../../lib/refs.ts';
import {
  closeCounting,
  countedStockById,
  countedStockBySerial,
  counterLines,
  decideLines,
  insertLine,
  invalidLines,
  lineFor,
  nextSheetCode,
  postLines,
  sheetCandidates,
  varianceByLocation,
  recountLine,
  reviewLines,
  reviewSummary,
  selectSheets,
  setSheetState,
  sheetById,
  sheetLocation,
  sheetLocations,
  sheetRow,
  visitLocation,
  type CountedStock,
  type SheetRow,
} from './repository.ts';
import { blindPlaces } from '../../lib/blind-places.ts';
import { foundStockRefusal, scannedCode, stockOfItemIn } from './scanned-code.ts';

const ONE = 10_000n;
const SHEET_LIST_MAX = 499;

async function theSheet(db: Db, auth: AuthContext, sheetId: string, lock?: 'update' | 'share'): Promise<SheetRow> {
  const row = await sheetRow(db, auth.orgId, sheetId, lock);
  if (!row) throw notFound(`No count sheet '${sheetId}' exists`);
  return row;
}

async function sheetAnswer(db: Db, auth: AuthContext, id: string) {
  return { sheet: await sheetById(db, auth.orgId, id) };
}

// ---------------------------------------------------------------------------------------------
// Sheets

export async function listSheets(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/list'>,
): Promise<CallResponse<'counts/sheet/list'>> {
  const where = [sql`s.org_id = ${auth.orgId}`];
  if (body.fromDate) where.push(sql`s.created_at >= ${body.fromDate}::date`);
  if (body.filterSheetOpen) where.push(sql`s.state IN ('open', 'counting', 'review')`);
  if (body.filterSheetSelf) where.push(sql`s.assignees @> ${JSON.stringify([auth.accountId])}::jsonb`);
  if (body.sheet) where.push(sql`(s.code ILIKE ${`%${body.sheet.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} OR s.id = ${body.sheet})`);
  if (body.warehouse) where.push(sql`w.code = ${body.warehouse}`);
  const sheets = await selectSheets(deps.db, sql.join(where, sql` AND `), SHEET_LIST_MAX + 1, auth.accountId);
  return { sheets: sheets.slice(0, SHEET_LIST_MAX), more: sheets.length > SHEET_LIST_MAX };
}

/** What a new sheet is made of: counts/sheet/create's body, or a row of counts/sheet/import. */
export interface SheetInput {
  warehouse: string;
  description: string;
  locations?: string[] | undefined;
  fromLocation?: string | undefined;
  toLocation?: string | undefined;
  assignees: string[];
  blind: boolean;
  due: boolean;
}

/** A sheet checked and ready to insert. */
export interface SheetPlan {
  warehouseId: string;
  description: string;
  blind: boolean;
  locationIds: string[];
  assigneeIds: string[];
}

/**
 * Checks a new sheet and finds its locations and counters. Every problem is reported (field and
 * message), not only the first: the import lists them all. Names are looked up in Maps and Sets only.
 */
export async function planSheet(
  db: Db,
  auth: AuthContext,
  input: SheetInput,
): Promise<{ plan?: SheetPlan; problems: Array<{ field: string; message: string }> }> {
  const problems: Array<{ field: string; message: string }> = [];
  const warehouse = (await warehousesByCode(db, auth.orgId, [input.warehouse])).get(input.warehouse);
  if (!warehouse) problems.push({ field: 'warehouse', message: `No warehouse '${input.warehouse}' exists` });
  else if (!warehouse.active) problems.push({ field: 'warehouse', message: `The warehouse '${input.warehouse}' is inactive` });
  const list = input.locations && input.locations.length > 0 ? input.locations : undefined;
  if (list && (input.fromLocation || input.toLocation))
    problems.push({ field: 'locations', message: 'Give a list of locations or a range, not both' });
  let locationIds: string[] = [];
  if (warehouse?.active && !problems.length) {
    const located = await sheetCandidates(db, warehouse.id, { list, from: input.fromLocation, to: input.toLocation });
    if (list) {
      const known = new Set(located.map((l) => l.code));
      const missing = [...new Set(list)].filter((c) => !known.has(c));
      if (missing.length)
        problems.push({
          field: 'locations',
          message: `No active location ${missing.map((c) => `'${c}'`).join(', ')} in warehouse '${input.warehouse}'`,
        });
    }
    const chosen = input.due ? located.filter((l) => l.due) : located;
    if (located.length === 0 && !list)
      problems.push({
        field: list ? 'locations' : 'fromLocation',
        message: `No active location of warehouse '${input.warehouse}' is in the range`,
      });
    else if (located.length > 0 && chosen.length === 0) {
      problems.push({
        field: 'due',
        message: `No location of warehouse '${input.warehouse}' in the selection is due for a count by its count frequency`,
      });
    }
    locationIds = chosen.map((l) => l.id);
  }
  const wanted = [...new Set(input.assignees.map((a) => a.toLowerCase()))];
  const people = wanted.length
    ? await query<{ id: string; name: string }>(
        db,
        sql`SELECT id, lower(user_name) AS name FROM accounts WHERE org_id = ${auth.orgId} AND active AND lower(user_name) = ANY(${arrayParam(wanted)})`,
      )
    : [];
  const byName = new Map(people.map((p) => [p.name, p.id]));
  const unknown = wanted.filter((n) => !byName.has(n));
  if (unknown.length) problems.push({ field: 'assignees', message: `No active account ${unknown.map((n) => `'${n}'`).join(', ')}` });
  if (problems.length || !warehouse) return { problems };
  return {
    plan: { warehouseId: warehouse.id, description: input.description, blind: input.blind, locationIds, assigneeIds: [...byName.values()] },
    problems,
  };
}

/** Inserts a planned sheet; returns its id. */
export async function insertSheet(tx: Db, auth: AuthContext, plan: SheetPlan): Promise<string> {
  const id = newId();
  const code = await nextSheetCode(tx);
  await query(
    tx,
    sql`INSERT INTO count_sheets (id, org_id, code, warehouse_id, description, blind, assignees, created_by, audit)
    VALUES (${id}, ${auth.orgId}, ${code}, ${plan.warehouseId}, ${plan.description}, ${plan.blind}, ${JSON.stringify(plan.assigneeIds)}::jsonb, ${auth.accountId}, ${JSON.stringify(auditStamp(auth.accountId))}::jsonb)`,
  );
  await query(
    tx,
    sql`INSERT INTO count_sheet_locations (org_id, sheet_id, location_id) SELECT ${auth.orgId}, ${id}, u.id FROM unnest(${arrayParam(plan.locationIds)}::text[]) AS u(id)`,
  );
  return id;
}

export async function createSheet(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/create'>,
): Promise<CallResponse<'counts/sheet/create'>> {
  const { plan, problems } = await planSheet(deps.db, auth, body);
  if (!plan) throw badInput(problems.map((p) => p.message).join('; '));
  const id = await deps.db.transaction((tx) => insertSheet(tx, auth, plan));
  return sheetAnswer(deps.db, auth, id);
}

/** Whether the caller may count on the sheet: an assignee, or anyone when it has none. */
function mayCount(sheet: SheetRow, auth: AuthContext): void {
  if (sheet.assignees.length > 0 && !sheet.assignees.includes(auth.accountId))
    throw forbidden(`The count sheet ${sheet.code} is assigned to other counters`);
}

export async function getSheet(deps: Deps, auth: AuthContext, body: Body<'counts/sheet/get'>): Promise<CallResponse<'counts/sheet/get'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  let lines: CounterLine[] = [];
  if (body.location) {
    const loc = await sheetLocation(deps.db, sheet.id, body.location);
    if (!loc) throw badInput(`The location '${body.location}' is not on the count sheet ${sheet.code}`);
    lines = await counterLines(deps.db, sheet, auth.accountId, sql`cl.location_id = ${loc.location_id}`);
  }
  return { ...(await sheetAnswer(deps.db, auth, sheet.id)), locations: await sheetLocations(deps.db, sheet.id), lines };
}

type Transition = SheetTransition;

export async function changeSheetState(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/start'>,
  transition: Transition,
): Promise<CallResponse<'counts/sheet/start'>> {
  const actor = actorOf(auth);
  await deps.db.transaction(async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    checkRev(`The count sheet ${sheet.code}`, sheet.rev, body._rev);
    if (!mayTransition(transition, sheet.state))
      throw conflict(
        `The count sheet ${sheet.code} is ${sheet.state}: it cannot be ${transition === 'start' ? 'started' : transition === 'submit' ? 'sent to review' : 'cancelled'}`,
      );
    if (transition !== 'cancel') mayCount(sheet, auth);
    if (transition === 'submit') await closeCounting(tx, sheet, auth.orgId);
    await setSheetState(tx, sheet.id, SHEET_TRANSITIONS.get(transition)!.to, actor);
  });
  return sheetAnswer(deps.db, auth, body.sheetId);
}

// ---------------------------------------------------------------------------------------------
// Counting

/**
 * The sheet a count goes on, locked before any row of its lines or locations: FOR SHARE (a submit or
 * post waits, counters go on side by side), or FOR UPDATE when it is open, and the count starts it.
 * The lock is taken once, never raised from SHARE to UPDATE: two first scans that both held SHARE and
 * both asked UPDATE waited on each other, a deadlock (issue 25). A sheet never goes back to open, so
 * the unlocked look at the state only picks the lock; the locked row decides.
 */
async function countingSheet(tx: Db, auth: AuthContext, sheetId: string): Promise<SheetRow> {
  const peek = await theSheet(tx, auth, sheetId);
  const sheet = await theSheet(tx, auth, sheetId, peek.state === 'open' ? 'update' : 'share');
  if (sheet.state === 'open') {
    mayCount(sheet, auth);
    await setSheetState(tx, sheet.id, 'counting', actorOf(auth));
    return { ...sheet, state: 'counting' };
  }
  if (!isSheetCountable(sheet.state)) throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: nothing more can be counted on it`);
  return sheet;
}

async function countedLocation(tx: Db, auth: AuthContext, sheet: SheetRow, code: string) {
  const loc = await sheetLocation(tx, sheet.id, code);
  if (!loc) throw badInput(`The location '${code}' is not on the count sheet ${sheet.code}`);
  if (!loc.visited) await visitLocation(tx, auth.orgId, sheet.id, loc.location_id, auth.accountId);
  return loc;
}

export async function scanLocation(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/scanLocation'>,
): Promise<CallResponse<'counts/scanLocation'>> {
  return deps.db.transaction(async (tx) => {
    const sheet = await countingSheet(tx, auth, body.sheetId);
    if (sheet.state === 'counting') mayCount(sheet, auth);
    const loc = await countedLocation(tx, auth, sheet, body.location);
    return { location: loc.code, lines: await counterLines(tx, sheet, auth.accountId, sql`cl.location_id = ${loc.location_id}`) };
  });
}

/** What a count names: a known stock record, or found stock of an item. */
type Counted =
  | { stock: CountedStock }
  | { itemId: string; tracking: string; uom: string; label: string | null; lot: string | null; serial: string | null };

async function whatWasCounted(
  tx: Db,
  auth: AuthContext,
  body: Body<'counts/record'>,
  sheet: SheetRow,
  locationId: string,
): Promise<Counted> {
  const warehouseId = sheet.warehouse_id;
  const known = body.stockId ? await countedStockById(tx, auth.orgId, body.stockId) : undefined;
  if (known) {
    if (known.warehouse_id !== warehouseId)
      throw badInput(`The stock record '${known.stock_id}' belongs to another warehouse: count it on that warehouse's sheet`);
    return { stock: known };
  }
  // Not a stock label: a location, a serial on hand or an item's barcode (issue 25), else an unknown label.
  const scanned = body.stockId ? await scannedCode(tx, auth.orgId, sheet, body.stockId) : undefined;
  if (scanned && 'stock' in scanned) {
    if (scanned.stock.warehouse_id !== warehouseId)
      throw badInput(`The serial '${body.stockId}' is on hand in another warehouse (stock record '${scanned.stock.stock_id}')`);
    return { stock: scanned.stock };
  }
  const barcodeOf = scanned && 'item' in scanned ? scanned.item : undefined;
  if (barcodeOf && !body.partNumber) {
    const part = barcodeOf.part_number;
    if (!barcodeOf.active) throw badInput(`The item '${part}' is inactive`);
    const here = barcodeOf.tracking === 'serial' ? [] : await stockOfItemIn(tx, auth.orgId, barcodeOf.id, locationId);
    if (here.length === 1) return { stock: (await countedStockById(tx, auth.orgId, here[0]!))! };
    const what = `'${body.stockId}' is the barcode of part '${part}'`;
    throw foundStockRefusal(
      barcodeOf.tracking === 'serial'
        ? `${what}: scan the serial, or give it to record found stock`
        : here.length > 1
          ? `${what}: more than one record of it is here; scan its stock label, or give its lot to record found stock`
          : `${what}: none is expected here; give the quantity to record it as found stock`,
      { partNumber: part },
    );
  }
  if (!body.partNumber) {
    if (scanned && 'serials' in scanned)
      throw foundStockRefusal(`The serial '${body.stockId}' is on hand in more than one item: give its part number`, {
        serial: body.stockId!,
      });
    throw badInput(
      body.stockId
        ? `No stock record '${body.stockId}' exists: give its part number to record it as found stock`
        : 'Scan a stock label, or give the part number of found stock',
    );
  }
  const item = (await itemsByPartNumber(tx, auth.orgId, [body.partNumber])).get(body.partNumber);
  if (!item) throw badInput(`No item with part number '${body.partNumber}' exists`);
  if (!item.active) throw badInput(`The item '${body.partNumber}' is inactive`);
  if (item.tracking === 'lot' && !body.lot) throw badInput(`'Lot' must be provided: part '${item.partNumber}' is lot-tracked`);
  if (item.tracking === 'serial' && !body.serial) throw badInput(`'Serial' must be provided: part '${item.partNumber}' is serial-tracked`);
  if (item.tracking !== 'serial' && body.serial) throw badInput(`'Serial' is only for serial-tracked parts; '${item.partNumber}' is not`);
  if (item.tracking !== 'lot' && body.lot) throw badInput(`'Lot' is only for lot-tracked parts; '${item.partNumber}' is not`);
  if (body.serial) {
    const bySerial = await countedStockBySerial(tx, auth.orgId, item.id, body.serial);
    if (bySerial) {
      if (bySerial.warehouse_id !== warehouseId)
        throw badInput(`The serial '${body.serial}' is on hand in another warehouse (stock record '${bySerial.stock_id}')`);
      return { stock: bySerial };
    }
  }
  // An item's barcode is no stock label: found stock scanned by it is keyed by item, lot and location; its lot's one record here is that record.
  if (barcodeOf) {
    if (barcodeOf.id === item.id && item.tracking === 'lot' && body.lot) {
      const here = await stockOfItemIn(tx, auth.orgId, item.id, locationId, body.lot);
      if (here.length === 1) return { stock: (await countedStockById(tx, auth.orgId, here[0]!))! };
    }
    return { itemId: item.id, tracking: item.tracking, uom: item.uom, label: null, lot: body.lot ?? null, serial: body.serial ?? null };
  }
  return {
    itemId: item.id,
    tracking: item.tracking,
    uom: item.uom,
    label: body.stockId ?? null,
    lot: body.lot ?? null,
    serial: body.serial ?? null,
  };
}

export async function recordCount(deps: Deps, auth: AuthContext, body: Body<'counts/record'>): Promise<CallResponse<'counts/record'>> {
  if (body.adjustWithCount) await requireFeatures(deps, auth, 'physicalInventory.post');
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite<CallResponse<'counts/record'>>(deps, auth, 'counts/record', body, async (tx) => {
    const sheet = await countingSheet(tx, auth, body.sheetId);
    const loc = await countedLocation(tx, auth, sheet, body.location);
    const counted = await whatWasCounted(tx, auth, body, sheet, loc.location_id);
    const tracking = 'stock' in counted ? counted.stock.tracking : counted.tracking;
    const uom = 'stock' in counted ? counted.stock.uom : counted.uom;
    const serial = tracking === 'serial';
    if (body.qty === undefined && !serial) throw badInput('Enter the counted quantity');
    const qty = body.qty ?? ONE;
    if (qty < 0n) throw badInput('The counted quantity cannot be negative');
    const fraction = wholeUnitsMessage(uom, qty);
    if (fraction) throw badInput(`The counted quantity ${fraction}`);
    if (serial && qty > ONE && !body.allowSwsgt1) throw badInput('A serial-tracked count cannot be above 1');
    const serialOver1 = serial && qty > ONE;
    if (!('stock' in counted) && qty === 0n) throw badInput('Found stock is counted above 0');

    const match =
      'stock' in counted
        ? sql`stock_record_id = ${counted.stock.id}`
        : counted.label
          ? sql`stock_record_id IS NULL AND stock_label = ${counted.label}`
          : counted.serial
            ? sql`item_id = ${counted.itemId} AND serial = ${counted.serial}`
            : sql`stock_record_id IS NULL AND stock_label IS NULL AND item_id = ${counted.itemId} AND location_id = ${loc.location_id} AND lot IS NOT DISTINCT FROM ${counted.lot}`;
    const line = await lineFor(tx, sheet.id, match);
    if (sheet.state === 'review' && line?.status !== 'recount')
      throw conflict(`The count sheet ${sheet.code} is in review: only lines due for a recount can be counted`);
    if (sheet.state === 'counting' || line?.status !== 'recount') mayCount(sheet, auth);
    const anchor = 'stock' in counted ? (counted.stock.anchor === null ? null : Number(counted.stock.anchor)) : null;
    const systemQty = 'stock' in counted ? counted.stock.quantity : '0';
    const found = 'stock' in counted ? counted.stock.location_id !== loc.location_id || qtyUnits(counted.stock.quantity) === 0n : true;
    let lineId: string;
    if (!line) {
      lineId = newId();
      await insertLine(tx, {
        id: lineId,
        orgId: auth.orgId,
        sheetId: sheet.id,
        locationId: loc.location_id,
        stockRecordId: 'stock' in counted ? counted.stock.id : null,
        itemId: 'stock' in counted ? counted.stock.item_id : counted.itemId,
        stockLabel: 'stock' in counted ? counted.stock.stock_id : counted.label,
        lot: 'stock' in counted ? counted.stock.lot : counted.lot,
        serial: 'stock' in counted ? counted.stock.serial : counted.serial,
        found,
        anchorMovementId: anchor,
        systemQty,
        counted: formatQty(qty),
        serialOver1,
        accountId: auth.accountId,
      });
    } else {
      lineId = line.id;
      if (line.status === 'accepted' || line.status === 'excluded') throw conflict('This line was decided in review already');
      if (line.status === 'posted' && !body.adjustWithCount) throw conflict('This line is posted already');
      if (line.status === 'recount' && line.previous_counter === auth.accountId) throw forbidden('A recount is done by another counter');
      // A serial scanned again in the same round counts once.
      if (serial && line.status === 'counted' && !serialOver1 && qtyUnits(line.counted) === qty) {
        return { response: { line: await oneLine(tx, sheet, auth, lineId), duplicate: true } };
      }
      const disputed =
        line.status === 'counted' && line.counted_by !== null && line.counted_by !== auth.accountId && qtyUnits(line.counted) !== qty;
      await recountLine(tx, auth.orgId, lineId, {
        locationId: loc.location_id,
        anchorMovementId: anchor,
        systemQty,
        counted: formatQty(qty),
        serialOver1,
        accountId: auth.accountId,
        disputed,
        round: line.round,
        found,
      });
    }
    if (!body.adjustWithCount) return { response: { line: await oneLine(tx, sheet, auth, lineId) } };
    const invalid = await invalidLines(tx, auth.orgId, sheet.id, lineId);
    if (invalid.length) throw refusal(invalid);
    const posted = await postLines(tx, actor, sheet, lineId);
    return {
      response: { line: await oneLine(tx, sheet, auth, lineId), posted: true },
      changed: { stockIds: posted.stockIds, locationIds: posted.locationIds },
    };
  });
}

async function oneLine(tx: Db, sheet: SheetRow, auth: AuthContext, lineId: string): Promise<CounterLine> {
  const [line] = await counterLines(tx, sheet, auth.accountId, sql`cl.id = ${lineId}`);
  return line!;
}

// ---------------------------------------------------------------------------------------------
// Review and posting

function reviewable(sheet: SheetRow): void {
  if (!isSheetReviewable(sheet.state))
    throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: it is reviewed once counting is done`);
}

/**
 * The locations of the sheet's lines due for a recount that the caller may recount (counts/blind.ts):
 * review and the variance export show their system quantity and first count, so they are closed to
 * such a caller until the recount is in (a reviewer who also recounts would not count blind).
 */
async function recountsOf(deps: Deps, auth: AuthContext, sheet: SheetRow): Promise<string[]> {
  if (sheet.state !== 'review') return [];
  const places = await blindPlaces(deps.db, auth);
  if (places.size === 0) return [];
  const rows = await query<{ location_id: string }>(
    deps.db,
    sql`SELECT DISTINCT location_id FROM count_lines WHERE sheet_id = ${sheet.id} AND status = 'recount'`,
  );
  return rows.flatMap((r) => places.get(r.location_id)?.location ?? []).sort();
}

export async function reviewSheet(deps: Deps, auth: AuthContext, body: Body<'counts/review'>): Promise<CallResponse<'counts/review'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  reviewable(sheet);
  const mine = await recountsOf(deps, auth, sheet);
  if (mine.length) {
    const named = mine.slice(0, 5).join(', ') + (mine.length > 5 ? ` and ${mine.length - 5} more` : '');
    throw forbidden(
      `You may recount ${mine.length === 1 ? 'a location' : `${mine.length} locations`} of the count sheet ${sheet.code} (${named}); its review is closed to you until they are recounted`,
    );
  }
  const lines = await reviewLines(deps.db, sheet.id, body.onlyVariances, body.offset, body.limit + 1);
  return {
    ...(await sheetAnswer(deps.db, auth, sheet.id)),
    summary: await reviewSummary(deps.db, sheet.id),
    byLocation: await varianceByLocation(deps.db, sheet.id, CHART_LOCATIONS_MAX),
    lines: lines.slice(0, body.limit),
    more: lines.length > body.limit,
  };
}

export async function decide(deps: Deps, auth: AuthContext, body: Body<'counts/decide'>): Promise<CallResponse<'counts/decide'>> {
  if (!body.all && body.lineIds.length === 0) throw badInput('Name the lines to decide, or all');
  return deps.db.transaction(async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    if (!isSheetDecidable(sheet.state)) throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: lines are decided in review`);
    const ids = [...new Set(body.lineIds)];
    const { changed, named } = await decideLines(tx, sheet.id, body.decision, body.all ? 'all' : ids);
    if (!body.all && named < ids.length)
      throw notFound(`${ids.length - named} of the lines named are not on the count sheet ${sheet.code}`);
    return { changed };
  });
}

function refusal(invalid: InvalidLine[]) {
  const first = invalid[0]!;
  const message = `${invalid.length} ${invalid.length === 1 ? 'line cannot' : 'lines cannot'} be posted; the first: ${first.stockId ?? first.location}: ${first.problems.join('; ')}`;
  return badInput(message, JSON.stringify({ invalid }));
}

export async function postSheet(deps: Deps, auth: AuthContext, body: Body<'counts/post'>): Promise<CallResponse<'counts/post'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'counts/post', body, async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    if (sheet.state === 'posted') throw conflict(`The count sheet ${sheet.code} is posted already`);
    if (!isSheetDecidable(sheet.state)) throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: it is posted from review`);
    const invalid = await invalidLines(tx, auth.orgId, sheet.id);
    if (invalid.length) throw refusal(invalid);
    const posted = await postLines(tx, actor, sheet);
    await setSheetState(tx, sheet.id, 'posted', actor);
    const { sheet: answer } = await sheetAnswer(tx, auth, sheet.id);
    return {
      response: { sheet: answer, movements: posted.movements, created: posted.created },
      changed: { stockIds: posted.stockIds, locationIds: posted.locationIds },
    };
  });
}

const EXPORT_MAX = 100_000;

export async function exportSheet(deps: Deps, auth: AuthContext, body: Body<'counts/export'>): Promise<CallResponse<'counts/export'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  const visible = await visibleFeaturesOf(deps, auth);
  // Variances only once counting is over, and only for reviewers: the export of a blind count leaks nothing.
  const withVariances =
    isSheetReviewable(sheet.state) && visible['physicalInventory.post'] !== false && (await recountsOf(deps, auth, sheet)).length === 0;
  let csv = '';
  if (withVariances) {
    csv += csvLine([
      'sheet',
      'location',
      'stockId',
      'partNumber',
      'description',
      'lot',
      'serial',
      'status',
      'systemQty',
      'counted',
      'variance',
      'variancePct',
      'movedSince',
      'locationNow',
      'flags',
      'countedBy',
    ]);
    for (let offset = 0; offset < EXPORT_MAX; offset += 1000) {
      const page = await reviewLines(deps.db, sheet.id, false, offset, 1000);
      for (const l of page) {
        csv += csvLine([
          sheet.code,
          l.location,
          l.stockId,
          l.partNumber,
          l.description,
          l.lot,
          l.serial,
          l.status,
          l.systemQty,
          l.counted,
          l.variance,
          l.variancePct,
          l.movedSince,
          l.locationNow,
          [...l.flags, ...(l.notFound ? ['notFound'] : []), ...(l.found ? ['found'] : [])].join(' '),
          l.countedBy,
        ]);
      }
      if (page.length < 1000) break;
    }
  } else {
    csv += csvLine([
      'sheet',
      'location',
      'stockId',
      'partNumber',
      'description',
      'lot',
      'serial',
      'status',
      'myCount',
      ...(sheet.blind ? [] : ['expected']),
    ]);
    const lines = await counterLines(deps.db, sheet, auth.accountId, sql`true`);
    for (const l of lines)
      csv += csvLine([
        sheet.code,
        l.location,
        l.stockId,
        l.partNumber,
        l.description,
        l.lot,
        l.serial,
        l.status,
        l.myCount,
        ...(sheet.blind ? [] : [l.expected]),
      ]);
  }
  return { csv, fileName: `${sheet.code}${withVariances ? '-variances' : ''}.csv` };
}

// ---------------------------------------------------------------------------------------------
// Thresholds

async function warehouseOf(deps: Deps, auth: AuthContext, code: string) {
  const warehouse = (await warehousesByCode(deps.db, auth.orgId, [code])).get(code);
  if (!warehouse) throw notFound(`No warehouse '${code}' exists`);
  return warehouse;
}

export async function getThreshold(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/threshold/get'>,
): Promise<CallResponse<'counts/threshold/get'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  const [row] = await query<{ max_qty: string | null; max_pct: string | null }>(
    deps.db,
    sql`SELECT max_qty::text AS max_qty, max_pct::text AS max_pct FROM count_thresholds WHERE warehouse_id = ${warehouse.id}`,
  );
  return {
    threshold: {
      warehouse: warehouse.code,
      maxQty: row?.max_qty == null ? null : Number(row.max_qty),
      maxPct: row?.max_pct == null ? null : Number(row.max_pct),
    },
  };
}

export async function putThreshold(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/threshold/put'>,
): Promise<CallResponse<'counts/threshold/put'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  if (body.maxQty !== null && body.maxQty < 0n) throw badInput('The quantity threshold cannot be negative');
  const maxQty = body.maxQty === null ? null : formatQty(body.maxQty);
  const maxPct = body.maxPct === null ? null : (Math.round(body.maxPct * 100) / 100).toFixed(2);
  await query(
    deps.db,
    sql`INSERT INTO count_thresholds (org_id, warehouse_id, max_qty, max_pct, audit) VALUES (${auth.orgId}, ${warehouse.id}, ${maxQty}::numeric, ${maxPct}::numeric, ${JSON.stringify(auditStamp(auth.accountId))}::jsonb)
    ON CONFLICT (warehouse_id) DO UPDATE SET max_qty = excluded.max_qty, max_pct = excluded.max_pct, audit = excluded.audit`,
  );
  return getThreshold(deps, auth, body);
}

// ---------------------------------------------------------------------------------------------
// Cycle frequencies

export async function getFrequency(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/frequency/get'>,
): Promise<CallResponse<'counts/frequency/get'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  const rows = await query<{ code: string | null; days: number }>(
    deps.db,
    sql`SELECT l.code, f.days FROM count_frequencies f LEFT JOIN locations l ON l.id = f.location_id WHERE f.org_id = ${auth.orgId} AND f.warehouse_id = ${warehouse.id}
    ORDER BY l.code COLLATE "C" NULLS FIRST`,
  );
  const own = rows.find((r) => r.code === null);
  return {
    frequency: {
      warehouse: warehouse.code,
      days: own?.days ?? null,
      locations: rows.flatMap((r) => (r.code === null ? [] : [{ code: r.code, days: r.days }])),
    },
  };
}

export async function putFrequency(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/frequency/put'>,
): Promise<CallResponse<'counts/frequency/put'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  let scopes: Array<{ id: string; locationId: string | null }> = [{ id: warehouse.id, locationId: null }];
  if (body.locations) {
    const codes = [...new Set(body.locations)];
    if (codes.length === 0) throw badInput('Name the locations, or leave them out for the whole warehouse');
    const found = await query<{ id: string; code: string }>(
      deps.db,
      sql`SELECT id, code FROM locations WHERE warehouse_id = ${warehouse.id} AND code = ANY(${arrayParam(codes)})`,
    );
    const known = new Set(found.map((l) => l.code));
    const missing = codes.filter((c) => !known.has(c));
    if (missing.length) throw badInput(`No location ${missing.map((c) => `'${c}'`).join(', ')} in warehouse '${warehouse.code}'`);
    scopes = found.map((l) => ({ id: l.id, locationId: l.id }));
  }
  const ids = arrayParam(scopes.map((s) => s.id));
  if (body.days === null) {
    await query(deps.db, sql`DELETE FROM count_frequencies WHERE org_id = ${auth.orgId} AND scope_id = ANY(${ids})`);
  } else {
    await query(
      deps.db,
      sql`INSERT INTO count_frequencies (scope_id, org_id, warehouse_id, location_id, days, audit)
      SELECT u.id, ${auth.orgId}, ${warehouse.id}, NULLIF(u.id, ${warehouse.id}), ${body.days}, ${JSON.stringify(auditStamp(auth.accountId))}::jsonb FROM unnest(${ids}::text[]) AS u(id)
      ON CONFLICT (scope_id) DO UPDATE SET days = excluded.days, audit = excluded.audit`,
    );
  }
  return getFrequency(deps, auth, body);
}

// ---------------------------------------------------------------------------------------------
// Count requests from other work areas (picking: "Location empty?" answered No, docs/orders.md)

export interface CountRequest {
  warehouseId: string;
  locationId: string;
  /** Who asks and why, shown in the sheet list (at most 200 characters are kept). */
  description: string;
}

/**
 * Asks for a count of one location, in the caller's transaction: a blind one-location sheet, open,
 * with no counters named (anyone with the work area counts it; a sheet without counters hides
 * nothing from whoever has not counted on it), made by the caller. While an open or counting sheet
 * covers the location already, that sheet is the answer and nothing is made (`created` false). The
 * location's row is locked (FOR NO KEY UPDATE: stock and pick writes referring to it do not wait) so
 * two requests for one location at once make one sheet. The caller calls forgetBlind after commit.
 */
export async function requestLocationCount(
  tx: Db,
  auth: AuthContext,
  req: CountRequest,
): Promise<{ sheet: { _id: string; code: string; state: string }; created: boolean }> {
  await query(tx, sql`SELECT id FROM locations WHERE org_id = ${auth.orgId} AND id = ${req.locationId} FOR NO KEY UPDATE`);
  const [existing] = await query<{ id: string; code: string; state: string }>(
    tx,
    sql`SELECT s.id, s.code, s.state FROM count_sheets s JOIN count_sheet_locations sl ON sl.sheet_id = s.id
    WHERE s.org_id = ${auth.orgId} AND sl.location_id = ${req.locationId} AND s.state IN ('open', 'counting')
    ORDER BY s.created_at, s.code LIMIT 1`,
  );
  if (existing) return { sheet: { _id: existing.id, code: existing.code, state: existing.state }, created: false };
  const id = await insertSheet(tx, auth, {
    warehouseId: req.warehouseId,
    description: req.description.slice(0, 200),
    blind: true,
    locationIds: [req.locationId],
    assigneeIds: [],
  });
  const sheet = (await sheetRow(tx, auth.orgId, id))!;
  return { sheet: { _id: sheet.id, code: sheet.code, state: sheet.state }, created: true };
}
