/*
 * Warehouses and locations: list, get, save (create without `_id`; update with `_id` and the `_rev`
 * that was read, fields left out keep their stored values), location deactivation. Records are checked
 * by the record engine against the contract's EntityDefs, references by code in the database. The
 * rules' messages are shared with the CSV import (csv-plan.ts).
 */
import type { CallResponse } from '@floorhand/contract/api';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { locationEntity, warehouseEntity } from '@floorhand/contract/locations';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { checked, updatable } from '../../lib/checked-record.ts';
import { checkRev, conflict, dup, invalidRecord as fieldProblem, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import type { Db } from '../../db/client.ts';
import { guarded, mapDuplicates } from '../../db/errors.ts';
import { warehousesByCode } from '../../lib/refs.ts';
import { blindPlaces, refuseBlind } from '../../lib/blind-places.ts';
import {
  findLocation,
  insertLocation,
  insertWarehouse,
  locationById,
  locationCounts,
  locationPage,
  lockWarehouse,
  stockHeld,
  stockInLocation,
  toLocation,
  toWarehouse,
  updateLocation,
  updateWarehouse,
  warehousePage,
  type WarehouseRow,
} from './repository.ts';
import { tk } from '@floorhand/contract/i18n';

export const noWarehouse = (code: string) => tk(`No warehouse '${code}' exists`);
export const warehouseHoldsStock = (code: string) =>
  tk(`The warehouse '${code}' holds stock; move it out before deactivating the warehouse`);
export const locationHoldsStock = (code: string) => tk(`The location '${code}' holds stock; move it out before deactivating the location`);

// ---------------------------------------------------------------------------------------------
// Warehouses

export async function listWarehouses(db: Db, auth: AuthContext, body: Body<'warehouse/list'>): Promise<CallResponse<'warehouse/list'>> {
  const rows = await guarded(() => warehousePage(db, auth.orgId, body.active, INVENTORY_MAX_ROWS + 1));
  return { warehouses: rows.slice(0, INVENTORY_MAX_ROWS).map(toWarehouse), more: rows.length > INVENTORY_MAX_ROWS };
}

export interface WarehouseInput {
  code: string;
  name: string;
  active?: boolean;
}

export async function saveWarehouse(deps: Deps, auth: AuthContext, body: Body<'warehouse/save'>): Promise<CallResponse<'warehouse/save'>> {
  const input = checked<WarehouseInput>(warehouseEntity, body.record);
  return idempotentWrite(deps, auth, 'warehouse/save', body, async (tx) => {
    const dups = { warehouses_org_code: () => dup('Warehouse', input.code) };
    let row: WarehouseRow | undefined;
    if (input._id === undefined) {
      const values = {
        id: newId(),
        orgId: auth.orgId,
        code: input.code,
        name: input.name,
        active: input.active ?? true,
        audit: auditStamp(auth.accountId),
      };
      row = await mapDuplicates(() => insertWarehouse(tx, values), dups);
    } else {
      const id = input._id;
      const found = await guarded(() => lockWarehouse(tx, auth.orgId, id));
      const current = updatable('Warehouse', id, found, input._rev);
      if (input.active === false && current.active && (await stockHeld(tx, 'warehouse_id', id)) > 0) {
        throw conflict(warehouseHoldsStock(current.code));
      }
      const set = {
        code: input.code,
        name: input.name,
        active: input.active ?? current.active,
        rev: current.rev + 1,
        audit: auditStamp(auth.accountId, current.audit),
      };
      row = await mapDuplicates(() => updateWarehouse(tx, id, set), dups);
    }
    return { response: { warehouse: toWarehouse(row!) } };
  });
}

// ---------------------------------------------------------------------------------------------
// Locations

export async function listLocations(db: Db, auth: AuthContext, body: Body<'location/list'>): Promise<CallResponse<'location/list'>> {
  const rows = await locationPage(db, auth.orgId, body);
  // A location counted blind by the caller is listed without what it holds (counts/blind.ts).
  const hidden = await blindPlaces(db, auth);
  const shown =
    hidden.size === 0
      ? rows
      : rows.map((r) => (hidden.has(r.id) ? { ...r, records: undefined, items: undefined, quantity: undefined } : r));
  return { locations: shown.slice(0, body.limit).map(toLocation), more: rows.length > body.limit };
}

export async function getLocation(db: Db, auth: AuthContext, body: Body<'location/get'>): Promise<CallResponse<'location/get'>> {
  const location = await findLocation(db, auth.orgId, body.warehouse, body.code);
  if (!location) throw notFound(`No location '${body.code}' exists in warehouse '${body.warehouse}'`);
  refuseBlind(await blindPlaces(db, auth), [location.id]);
  const stock = await stockInLocation(db, auth.orgId, location.id, INVENTORY_MAX_ROWS + 1);
  const counts = await locationCounts(db, location.id);
  return {
    location: toLocation({ ...location, ...counts }),
    stock: stock.slice(0, INVENTORY_MAX_ROWS),
    more: stock.length > INVENTORY_MAX_ROWS,
  };
}

export interface LocationInput {
  warehouse: string;
  code: string;
  description?: string;
  type?: string;
  active?: boolean;
}

export async function saveLocation(deps: Deps, auth: AuthContext, body: Body<'location/save'>): Promise<CallResponse<'location/save'>> {
  const input = checked<LocationInput>(locationEntity, body.record);
  const warehouse = (await warehousesByCode(deps.db, auth.orgId, [input.warehouse])).get(input.warehouse);
  if (!warehouse) throw fieldProblem({ warehouse: [noWarehouse(input.warehouse)] });
  return idempotentWrite(deps, auth, 'location/save', body, async (tx) => {
    const dups = { locations_warehouse_code: () => dup('Location', input.code, `in warehouse '${input.warehouse}'`) };
    let id: string;
    if (input._id === undefined) {
      id = newId();
      const values = {
        id,
        orgId: auth.orgId,
        warehouseId: warehouse.id,
        code: input.code,
        description: input.description ?? '',
        type: input.type ?? 'bin',
        active: input.active ?? true,
        audit: auditStamp(auth.accountId),
      };
      await mapDuplicates(() => insertLocation(tx, values), dups);
    } else {
      id = input._id;
      const current = updatable('Location', id, await locationById(tx, auth.orgId, id, true), input._rev);
      if (current.warehouse_id !== warehouse.id)
        throw fieldProblem({ warehouse: [`A location cannot move to another warehouse (it is in '${current.warehouse}')`] });
      if (input.active === false && current.active && (await stockHeld(tx, 'location_id', id)) > 0) {
        throw conflict(locationHoldsStock(current.code));
      }
      const set = {
        code: input.code,
        description: input.description ?? current.description,
        type: input.type ?? current.type,
        active: input.active ?? current.active,
        rev: current.rev + 1,
        audit: auditStamp(auth.accountId, current.audit),
      };
      await mapDuplicates(() => updateLocation(tx, id, set), dups);
    }
    const saved = (await locationById(tx, auth.orgId, id))!;
    return { response: { location: toLocation(saved) }, changed: { stockIds: [], locationIds: [id] } };
  });
}

export async function deactivateLocation(
  deps: Deps,
  auth: AuthContext,
  body: Body<'location/deactivate'>,
): Promise<CallResponse<'location/deactivate'>> {
  return idempotentWrite(deps, auth, 'location/deactivate', body, async (tx) => {
    const current = await findLocation(tx, auth.orgId, body.warehouse, body.code, true);
    if (!current) throw notFound(`No location '${body.code}' exists in warehouse '${body.warehouse}'`);
    checkRev(`The location '${body.code}'`, current.rev, body._rev);
    const held = await stockHeld(tx, 'location_id', current.id);
    if (held > 0)
      throw conflict(
        `The location '${body.code}' holds ${held} stock record${held === 1 ? '' : 's'}; move them out before deactivating it`,
      );
    if (current.active) {
      await guarded(() =>
        updateLocation(tx, current.id, { active: false, rev: current.rev + 1, audit: auditStamp(auth.accountId, current.audit) }),
      );
    }
    const saved = (await locationById(tx, auth.orgId, current.id))!;
    return { response: { location: toLocation(saved) }, changed: { stockIds: [], locationIds: [current.id] } };
  });
}
