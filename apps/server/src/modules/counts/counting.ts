/*
 * Counting (docs/physical-inventory.md): a location scanned, then each count of it. A count line is
 * anchored to the ledger: it keeps the counted stock record's last movement and its quantity at the
 * scan; the post books counted minus that quantity on top of what the record holds then, so movements
 * after the scan carry through and nothing freezes the warehouse.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { tk } from '@floorhand/contract/i18n';
import { countAskDetail, isSheetCountable, type CounterLine } from '@floorhand/contract/counts';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { wholeUnitsMessage } from '@floorhand/contract/stock-rules';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, forbidden } from '../../lib/errors.ts';
import { requireFeatures } from '../../lib/features.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { itemsByPartNumber } from '../../lib/refs.ts';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../stock/ledger.ts';
import { invalidLines, postLines } from './post-repository.ts';
import { refusal } from './post.ts';
import {
  counterLines,
  countedStockById,
  countedStockBySerial,
  insertLine,
  lineFor,
  recountLine,
  stockOfItemIn,
  type CountedStock,
  type LineKey,
} from './repository.ts';
import { foundStockRefusal, scannedCode } from './scanned-code.ts';
import { mayCount, theSheet } from './sheet-access.ts';
import { setSheetState, sheetLocation, visitLocation, type SheetRow } from './sheet-repository.ts';

const ONE = 10_000n;

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
    return { location: loc.code, lines: await counterLines(tx, sheet, auth.accountId, { locationId: loc.location_id }) };
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
    const code = body.stockId;
    throw foundStockRefusal(
      barcodeOf.tracking === 'serial'
        ? tk(`'${code}' is the barcode of part '${part}': scan the serial, or give it to record found stock`)
        : here.length > 1
          ? tk(
              `'${code}' is the barcode of part '${part}': more than one record of it is here; scan its stock label, or give its lot to record found stock`,
            )
          : tk(`'${code}' is the barcode of part '${part}': none is expected here; give the quantity to record it as found stock`),
      { partNumber: part },
    );
  }
  if (!body.partNumber) {
    if (scanned && 'serials' in scanned)
      throw foundStockRefusal(tk(`The serial '${body.stockId}' is on hand in more than one item: give its part number`), {
        serial: body.stockId!,
      });
    throw badInput(
      body.stockId
        ? tk(`No stock record '${body.stockId}' exists: give its part number to record it as found stock`)
        : tk('Scan a stock label, or give the part number of found stock'),
      countAskDetail('partNumber'),
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
    if (body.qty === undefined && !serial) throw badInput('Enter the counted quantity', countAskDetail('qty'));
    const qty = body.qty ?? ONE;
    if (qty < 0n) throw badInput('The counted quantity cannot be negative');
    const fraction = wholeUnitsMessage(uom, qty);
    if (fraction) throw badInput(`The counted quantity ${fraction}`);
    if (serial && qty > ONE && !body.allowSwsgt1) throw badInput('A serial-tracked count cannot be above 1');
    const serialOver1 = serial && qty > ONE;
    if (!('stock' in counted) && qty === 0n) throw badInput('Found stock is counted above 0');

    const key: LineKey =
      'stock' in counted
        ? { stockRecordId: counted.stock.id }
        : counted.label
          ? { label: counted.label }
          : counted.serial
            ? { itemId: counted.itemId, serial: counted.serial }
            : { itemId: counted.itemId, locationId: loc.location_id, lot: counted.lot };
    const line = await lineFor(tx, sheet.id, key);
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
  const [line] = await counterLines(tx, sheet, auth.accountId, { lineId });
  return line!;
}
