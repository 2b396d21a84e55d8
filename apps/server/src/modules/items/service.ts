/*
 * Items: list, get, save (create without `_id`; update with `_id` and the `_rev` that was read, fields
 * left out keep their stored values). Records are checked by the record engine against itemEntity,
 * references by code in the database. The rules' messages are shared with the CSV import (csv-plan.ts).
 */
import type { CallResponse } from '@floorhand/contract/api';
import { itemEntity, type Tracking } from '@floorhand/contract/items';
import type { ValidationErrors } from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { checked, updatable } from '../../lib/checked-record.ts';
import { conflict, dup, invalidRecord as fieldProblem, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { blindPlaces } from '../../lib/blind-places.ts';
import { guarded, mapDuplicates } from '../../db/errors.ts';
import { activeCodes, barcodeOwners } from '../../lib/refs.ts';
import {
  deleteItemBarcodes,
  insertItem,
  insertItemBarcodes,
  itemById,
  itemByPartNumber,
  itemPage,
  itemRecordsHeld,
  itemStockByWarehouse,
  lockItem,
  toItem,
  updateItem,
} from './repository.ts';
import { tk } from '@floorhand/contract/i18n';

/** An item as typed or imported, once the record engine passed it. */
export interface ItemInput {
  partNumber: string;
  description: string;
  uom?: string;
  department?: string;
  tracking?: Tracking;
  barcodes?: string[];
  active?: boolean;
}

export const noDepartment = (department: string) => tk(`No active department '${department}' exists`);
export const trackingLocked = (partNumber: string) => tk(`The tracking of '${partNumber}' cannot change while it has stock on hand`);
export const barcodeTaken = (barcode: string, partNumber: string) => tk(`'Barcode' '${barcode}' already names the item '${partNumber}'`);

export async function listItems(db: Db, auth: AuthContext, body: Body<'item/list'>): Promise<CallResponse<'item/list'>> {
  const rows = await itemPage(db, auth.orgId, body);
  return { items: rows.slice(0, body.limit).map(toItem), more: rows.length > body.limit };
}

export async function getItem(db: Db, auth: AuthContext, body: Body<'item/get'>): Promise<CallResponse<'item/get'>> {
  const row = await itemByPartNumber(db, auth.orgId, body.partNumber);
  if (!row) throw notFound(`No item with part number '${body.partNumber}' exists`);
  // A warehouse holding some of the item in a location the caller counts blind is left out: its sum would tell (counts/blind.ts).
  const hidden = await blindPlaces(db, auth);
  const stock = (await itemStockByWarehouse(db, row.id, [...hidden.keys()])).filter((s) => !s.blind);
  return { item: toItem(row), stock: stock.map((s) => ({ warehouse: s.warehouse, records: s.records, quantity: Number(s.quantity) })) };
}

export async function saveItem(deps: Deps, auth: AuthContext, body: Body<'item/save'>): Promise<CallResponse<'item/save'>> {
  const input = checked<ItemInput>(itemEntity, body.record);
  const errors: ValidationErrors = {};
  if (input.department && !(await activeCodes(deps.db, auth.orgId, 'department', [input.department])).has(input.department)) {
    errors.department = [noDepartment(input.department)];
  }
  const barcodes = input.barcodes === undefined ? undefined : [...new Set(input.barcodes)];
  if (barcodes?.length) {
    const owners = await barcodeOwners(deps.db, auth.orgId, barcodes, input._id);
    if (owners.size > 0) errors.barcodes = [...owners].map(([code, part]) => barcodeTaken(code, part));
  }
  if (Object.keys(errors).length > 0) throw fieldProblem(errors);
  return idempotentWrite(deps, auth, 'item/save', body, async (tx) => {
    const dups = {
      items_org_part_number: () => dup('Item', input.partNumber),
      item_barcodes_org_barcode: () => dup('Barcode', barcodes?.join(', ') ?? ''),
    };
    let id: string;
    if (input._id === undefined) {
      id = newId();
      const values = {
        id,
        orgId: auth.orgId,
        partNumber: input.partNumber,
        description: input.description,
        uom: input.uom || 'EA',
        department: input.department || null,
        tracking: input.tracking ?? 'none',
        active: input.active ?? true,
        audit: auditStamp(auth.accountId),
      };
      await mapDuplicates(() => insertItem(tx, values), dups);
    } else {
      id = input._id;
      const itemId = id;
      const found = await guarded(() => lockItem(tx, auth.orgId, itemId));
      const current = updatable('Item', id, found, input._rev);
      const tracking = input.tracking ?? (current.tracking as Tracking);
      if (tracking !== current.tracking && (await itemRecordsHeld(tx, id)) > 0) throw conflict(trackingLocked(current.partNumber));
      const set = {
        partNumber: input.partNumber,
        description: input.description,
        uom: input.uom ?? current.uom,
        department: input.department === undefined ? current.department : input.department || null,
        tracking,
        active: input.active ?? current.active,
        rev: current.rev + 1,
        audit: auditStamp(auth.accountId, current.audit),
      };
      await mapDuplicates(() => updateItem(tx, itemId, set), dups);
      if (barcodes !== undefined) await guarded(() => deleteItemBarcodes(tx, itemId));
    }
    if (barcodes?.length) {
      await mapDuplicates(() => insertItemBarcodes(tx, auth.orgId, barcodes, id), dups);
    }
    const saved = await itemById(tx, id);
    return { response: { item: toItem(saved!) } };
  });
}
