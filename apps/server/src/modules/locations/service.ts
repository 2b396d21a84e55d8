/*
 * Warehouses, locations and items: list, get, save (create without `_id`; update with `_id` and the
 * `_rev` that was read, fields left out keep their stored values), location deactivation. Records are
 * checked by the record engine against the contract's EntityDefs, references by code in the database.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import { INVENTORY_MAX_ROWS } from '@floorhand/contract/common';
import { itemEntity, type Item, type Tracking } from '@floorhand/contract/items';
import { locationEntity, warehouseEntity, type Location, type Warehouse } from '@floorhand/contract/locations';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import { validateRecord, type ValidationErrors } from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import type { Db } from '../../db/client.ts';
import { itemBarcodes, items, locations, warehouses, type AuditStamp } from '../../db/schema.ts';
import { guarded } from '../../db/errors.ts';
import { checkRev, conflict, dup, invalidRecord as fieldProblem, notFound } from '../../lib/errors.ts';
import { likeEscape, query } from '../../db/sql.ts';
import { mapDuplicates } from '../../db/errors.ts';
import { type Body } from './db.ts';
import { idempotentWrite } from './idempotency.ts';
import { activeCodes, barcodeOwners, warehousesByCode } from './refs.ts';
import { selectStock } from './repository.ts';

/** The record checked against its entity; `_id` and `_rev` are the control fields of an update. */
function checked<T>(entity: EntityDef, input: Record<string, unknown>): T & { _id?: string; _rev?: number } {
  const result = validateRecord(entity, input);
  if (!result.ok) throw fieldProblem(result.errors);
  const { _id, _rev } = result.value;
  if (_id !== undefined && typeof _id !== 'string') throw fieldProblem({ _id: ["'_id' must be a string"] });
  if (_rev !== undefined && (typeof _rev !== 'number' || !Number.isInteger(_rev))) throw fieldProblem({ _rev: ["'_rev' must be a whole number"] });
  return result.value as T & { _id?: string; _rev?: number };
}

/** An update must name a record of this organisation and carry the revision it read. */
function updatable<R extends { rev: number }>(title: string, id: string, row: R | undefined, rev: number | undefined): R {
  if (!row) throw notFound(`No ${title.toLowerCase()} with id '${id}' exists`);
  if (rev === undefined) throw conflict(`The ${title.toLowerCase()} was sent without its revision (_rev); reload it and try again`);
  checkRev(`The ${title.toLowerCase()}`, row.rev, rev);
  return row;
}

/** Quantity on hand anywhere in a warehouse or location (the reason it cannot be deactivated). */
async function stockHeld(db: Db, column: 'warehouse_id' | 'location_id', id: string): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stock_records WHERE ${sql.raw(column)} = ${id} AND quantity > 0`);
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Warehouses

type WarehouseRow = typeof warehouses.$inferSelect;
const toWarehouse = (r: WarehouseRow): Warehouse => ({ _id: r.id, _rev: r.rev, x$audit: r.audit, code: r.code, name: r.name, active: r.active });

export async function listWarehouses(db: Db, auth: AuthContext, body: Body<'warehouse/list'>): Promise<CallResponse<'warehouse/list'>> {
  const rows = await guarded(() =>
    db
      .select()
      .from(warehouses)
      .where(and(eq(warehouses.orgId, auth.orgId), body.active === undefined ? undefined : eq(warehouses.active, body.active)))
      .orderBy(asc(warehouses.code))
      .limit(INVENTORY_MAX_ROWS + 1),
  );
  return { warehouses: rows.slice(0, INVENTORY_MAX_ROWS).map(toWarehouse), more: rows.length > INVENTORY_MAX_ROWS };
}

interface WarehouseInput {
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
      const values = { id: newId(), orgId: auth.orgId, code: input.code, name: input.name, active: input.active ?? true, audit: auditStamp(auth.accountId) };
      [row] = await mapDuplicates(() => guarded(() => tx.insert(warehouses).values(values).returning()), dups);
    } else {
      const id = input._id;
      const [found] = await guarded(() => tx.select().from(warehouses).where(and(eq(warehouses.orgId, auth.orgId), eq(warehouses.id, id))).for('update'));
      const current = updatable('Warehouse', id, found, input._rev);
      if (input.active === false && current.active && (await stockHeld(tx, 'warehouse_id', id)) > 0) {
        throw conflict(`The warehouse '${current.code}' holds stock; move it out before deactivating the warehouse`);
      }
      const set = { code: input.code, name: input.name, active: input.active ?? current.active, rev: current.rev + 1, audit: auditStamp(auth.accountId, current.audit) };
      [row] = await mapDuplicates(() => guarded(() => tx.update(warehouses).set(set).where(eq(warehouses.id, id)).returning()), dups);
    }
    return { response: { warehouse: toWarehouse(row!) } };
  });
}

// ---------------------------------------------------------------------------------------------
// Locations

interface LocationRow {
  id: string;
  rev: number;
  audit: AuditStamp;
  warehouse_id: string;
  warehouse: string;
  code: string;
  description: string;
  type: string;
  active: boolean;
  records?: number;
  items?: number;
  quantity?: string;
}

const toLocation = (r: LocationRow): Location => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  warehouseId: r.warehouse_id,
  warehouse: r.warehouse,
  code: r.code,
  description: r.description,
  type: r.type,
  active: r.active,
  ...(r.records === undefined ? {} : { counts: { records: r.records, items: r.items ?? 0, quantity: Number(r.quantity ?? 0) } }),
});

const LOCATION_SELECT = sql`SELECT l.id, l._rev AS rev, l.audit, l.warehouse_id, w.code AS warehouse, l.code, l.description, l.type, l.active
FROM locations l JOIN warehouses w ON w.id = l.warehouse_id`;

/** What each listed location holds, counted for the page only (a lateral join per row, on the location index). */
export async function listLocations(db: Db, auth: AuthContext, body: Body<'location/list'>): Promise<CallResponse<'location/list'>> {
  const where = [sql`l.org_id = ${auth.orgId}`];
  if (body.warehouse) where.push(sql`w.code = ${body.warehouse}`);
  if (body.active !== undefined) where.push(sql`l.active = ${body.active}`);
  // Location codes are typed on handhelds in either case; a warehouse's few thousand rows need no index here.
  if (body.search) where.push(sql`(l.code ILIKE ${`${likeEscape(body.search)}%`} OR l.description ILIKE ${`%${likeEscape(body.search)}%`})`);
  const rows = await query<LocationRow>(
    db,
    sql`SELECT p.*, c.records, c.items, c.quantity FROM (${LOCATION_SELECT} WHERE ${sql.join(where, sql` AND `)}
      ORDER BY w.code, l.code OFFSET ${body.offset} LIMIT ${body.limit + 1}) p
    LEFT JOIN LATERAL (SELECT count(*)::int AS records, count(DISTINCT item_id)::int AS items, coalesce(sum(quantity), 0)::text AS quantity
      FROM stock_records s WHERE s.location_id = p.id AND s.quantity > 0) c ON true
    ORDER BY p.warehouse, p.code`,
  );
  return { locations: rows.slice(0, body.limit).map(toLocation), more: rows.length > body.limit };
}

async function findLocation(db: Db, orgId: string, warehouse: string, code: string, lock = false): Promise<LocationRow | undefined> {
  const [row] = await query<LocationRow>(
    db,
    sql`${LOCATION_SELECT} WHERE l.org_id = ${orgId} AND w.code = ${warehouse} AND l.code = ${code}${lock ? sql` FOR UPDATE OF l` : sql``}`,
  );
  return row;
}

async function locationById(db: Db, orgId: string, id: string, lock = false): Promise<LocationRow | undefined> {
  const [row] = await query<LocationRow>(db, sql`${LOCATION_SELECT} WHERE l.org_id = ${orgId} AND l.id = ${id}${lock ? sql` FOR UPDATE OF l` : sql``}`);
  return row;
}

export async function getLocation(db: Db, auth: AuthContext, body: Body<'location/get'>): Promise<CallResponse<'location/get'>> {
  const location = await findLocation(db, auth.orgId, body.warehouse, body.code);
  if (!location) throw notFound(`No location '${body.code}' exists in warehouse '${body.warehouse}'`);
  const stock = await selectStock(
    db,
    sql`WHERE sr.org_id = ${auth.orgId} AND sr.location_id = ${location.id} AND sr.quantity > 0 ORDER BY i.part_number, sr.stock_id LIMIT ${INVENTORY_MAX_ROWS + 1}`,
  );
  const [counts] = await query<{ records: number; items: number; quantity: string }>(
    db,
    sql`SELECT count(*)::int AS records, count(DISTINCT item_id)::int AS items, coalesce(sum(quantity), 0)::text AS quantity
    FROM stock_records WHERE location_id = ${location.id} AND quantity > 0`,
  );
  return { location: toLocation({ ...location, ...counts }), stock: stock.slice(0, INVENTORY_MAX_ROWS), more: stock.length > INVENTORY_MAX_ROWS };
}

interface LocationInput {
  warehouse: string;
  code: string;
  description?: string;
  type?: string;
  active?: boolean;
}

export async function saveLocation(deps: Deps, auth: AuthContext, body: Body<'location/save'>): Promise<CallResponse<'location/save'>> {
  const input = checked<LocationInput>(locationEntity, body.record);
  const warehouse = (await warehousesByCode(deps.db, auth.orgId, [input.warehouse])).get(input.warehouse);
  if (!warehouse) throw fieldProblem({ warehouse: [`No warehouse '${input.warehouse}' exists`] });
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
      await mapDuplicates(() => guarded(() => tx.insert(locations).values(values)), dups);
    } else {
      id = input._id;
      const current = updatable('Location', id, await locationById(tx, auth.orgId, id, true), input._rev);
      if (current.warehouse_id !== warehouse.id) throw fieldProblem({ warehouse: [`A location cannot move to another warehouse (it is in '${current.warehouse}')`] });
      if (input.active === false && current.active && (await stockHeld(tx, 'location_id', id)) > 0) {
        throw conflict(`The location '${current.code}' holds stock; move it out before deactivating the location`);
      }
      const set = {
        code: input.code,
        description: input.description ?? current.description,
        type: input.type ?? current.type,
        active: input.active ?? current.active,
        rev: current.rev + 1,
        audit: auditStamp(auth.accountId, current.audit),
      };
      await mapDuplicates(() => guarded(() => tx.update(locations).set(set).where(eq(locations.id, id))), dups);
    }
    const saved = (await locationById(tx, auth.orgId, id))!;
    return { response: { location: toLocation(saved) }, changed: { stockIds: [], locationIds: [id] } };
  });
}

export async function deactivateLocation(deps: Deps, auth: AuthContext, body: Body<'location/deactivate'>): Promise<CallResponse<'location/deactivate'>> {
  return idempotentWrite(deps, auth, 'location/deactivate', body, async (tx) => {
    const current = await findLocation(tx, auth.orgId, body.warehouse, body.code, true);
    if (!current) throw notFound(`No location '${body.code}' exists in warehouse '${body.warehouse}'`);
    checkRev(`The location '${body.code}'`, current.rev, body._rev);
    const held = await stockHeld(tx, 'location_id', current.id);
    if (held > 0) throw conflict(`The location '${body.code}' holds ${held} stock record${held === 1 ? '' : 's'}; move them out before deactivating it`);
    if (current.active) {
      await guarded(() =>
        tx
          .update(locations)
          .set({ active: false, rev: current.rev + 1, audit: auditStamp(auth.accountId, current.audit) })
          .where(eq(locations.id, current.id)),
      );
    }
    const saved = (await locationById(tx, auth.orgId, current.id))!;
    return { response: { location: toLocation(saved) }, changed: { stockIds: [], locationIds: [current.id] } };
  });
}

// ---------------------------------------------------------------------------------------------
// Items

interface ItemRow {
  id: string;
  rev: number;
  audit: AuditStamp;
  part_number: string;
  description: string;
  uom: string;
  department: string | null;
  tracking: Tracking;
  active: boolean;
  barcodes: string[] | null;
}

const toItem = (r: ItemRow): Item => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  partNumber: r.part_number,
  description: r.description,
  uom: r.uom,
  department: r.department,
  tracking: r.tracking,
  barcodes: r.barcodes ?? [],
  active: r.active,
});

const ITEM_SELECT = sql`SELECT i.id, i._rev AS rev, i.audit, i.part_number, i.description, i.uom, i.department, i.tracking, i.active,
  (SELECT array_agg(b.barcode ORDER BY b.barcode) FROM item_barcodes b WHERE b.item_id = i.id) AS barcodes
FROM items i`;

export async function listItems(db: Db, auth: AuthContext, body: Body<'item/list'>): Promise<CallResponse<'item/list'>> {
  const where = [sql`i.org_id = ${auth.orgId}`];
  if (body.department) where.push(sql`i.department = ${body.department}`);
  if (body.active !== undefined) where.push(sql`i.active = ${body.active}`);
  if (body.search) where.push(sql`(i.part_number LIKE ${`${likeEscape(body.search)}%`} OR i.description ILIKE ${`%${likeEscape(body.search)}%`})`);
  const rows = await query<ItemRow>(
    db,
    sql`${ITEM_SELECT} WHERE ${sql.join(where, sql` AND `)} ORDER BY i.part_number OFFSET ${body.offset} LIMIT ${body.limit + 1}`,
  );
  return { items: rows.slice(0, body.limit).map(toItem), more: rows.length > body.limit };
}

export async function getItem(db: Db, auth: AuthContext, body: Body<'item/get'>): Promise<CallResponse<'item/get'>> {
  const [row] = await query<ItemRow>(db, sql`${ITEM_SELECT} WHERE i.org_id = ${auth.orgId} AND i.part_number = ${body.partNumber}`);
  if (!row) throw notFound(`No item with part number '${body.partNumber}' exists`);
  const stock = await query<{ warehouse: string; records: number; quantity: string }>(
    db,
    sql`SELECT w.code AS warehouse, count(*)::int AS records, sum(s.quantity)::text AS quantity
    FROM stock_records s JOIN warehouses w ON w.id = s.warehouse_id
    WHERE s.item_id = ${row.id} AND s.quantity > 0 GROUP BY w.code ORDER BY w.code`,
  );
  return { item: toItem(row), stock: stock.map((s) => ({ warehouse: s.warehouse, records: s.records, quantity: Number(s.quantity) })) };
}

interface ItemInput {
  partNumber: string;
  description: string;
  uom?: string;
  department?: string;
  tracking?: Tracking;
  barcodes?: string[];
  active?: boolean;
}

export async function saveItem(deps: Deps, auth: AuthContext, body: Body<'item/save'>): Promise<CallResponse<'item/save'>> {
  const input = checked<ItemInput>(itemEntity, body.record);
  const errors: ValidationErrors = {};
  if (input.department && !(await activeCodes(deps.db, auth.orgId, 'department', [input.department])).has(input.department)) {
    errors.department = [`No active department '${input.department}' exists`];
  }
  const barcodes = input.barcodes === undefined ? undefined : [...new Set(input.barcodes)];
  if (barcodes?.length) {
    const owners = await barcodeOwners(deps.db, auth.orgId, barcodes, input._id);
    if (owners.size > 0) errors.barcodes = [...owners].map(([code, part]) => `'Barcode' '${code}' already names the item '${part}'`);
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
      await mapDuplicates(() => guarded(() => tx.insert(items).values(values)), dups);
    } else {
      id = input._id;
      const itemId = id;
      const [found] = await guarded(() => tx.select().from(items).where(and(eq(items.orgId, auth.orgId), eq(items.id, itemId))).for('update'));
      const current = updatable('Item', id, found, input._rev);
      const tracking = input.tracking ?? (current.tracking as Tracking);
      if (tracking !== current.tracking) {
        const [held] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM stock_records WHERE item_id = ${id} AND quantity > 0`);
        if ((held?.n ?? 0) > 0) throw conflict(`The tracking of '${current.partNumber}' cannot change while it has stock on hand`);
      }
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
      await mapDuplicates(() => guarded(() => tx.update(items).set(set).where(eq(items.id, itemId))), dups);
      if (barcodes !== undefined) await guarded(() => tx.delete(itemBarcodes).where(eq(itemBarcodes.itemId, itemId)));
    }
    if (barcodes?.length) {
      await mapDuplicates(() => guarded(() => tx.insert(itemBarcodes).values(barcodes.map((barcode) => ({ orgId: auth.orgId, barcode, itemId: id })))), dups);
    }
    const [saved] = await query<ItemRow>(tx, sql`${ITEM_SELECT} WHERE i.id = ${id}`);
    return { response: { item: toItem(saved!) } };
  });
}
