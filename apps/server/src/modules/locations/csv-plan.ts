/*
 * CSV import plans of warehouses and locations (the runner is lib/csv-import.ts): upserted by their
 * code (warehouse + code for a location), a new code inserted, a known one updated, with the single
 * save's rules and messages (service.ts).
 */
import { sql } from 'drizzle-orm';
import { auditStamp, newId } from '../../lib/audit.ts';
import { checkedOf, refuseRepeats, type Planner } from '../../lib/csv-import.ts';
import { pacer } from '../../lib/pace.ts';
import { insertColumns, insertRows } from '../../db/sql.ts';
import { locationKey, locationsByCode, warehousesByCode } from '../stock/refs.ts';
import { placesHoldingStock, updateLocations, updateWarehouses } from './repository.ts';
import { locationHoldsStock, noWarehouse, warehouseHoldsStock, type LocationInput, type WarehouseInput } from './service.ts';

export const planWarehouses: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkedOf<WarehouseInput>(sheet);
  await refuseRepeats(rows, (v) => v.code, 'code', 'This code', problems);
  const known = await warehousesByCode(db, auth.orgId, rows.map((r) => r.value.code));
  const offIds = rows.flatMap(({ value }) => (value.active === false && known.get(value.code)?.active ? [known.get(value.code)!.id] : []));
  const holding = await placesHoldingStock(db, 'warehouse_id', offIds);
  for (const { row, value } of rows) {
    if (holding.has(known.get(value.code)?.id ?? '')) problems.push({ row, field: 'active', message: warehouseHoldsStock(value.code) });
  }
  const audit = auditStamp(auth.accountId);
  const fresh = rows.filter((r) => !known.has(r.value.code)).map((r) => r.value);
  const old = rows.filter((r) => known.has(r.value.code)).map((r) => ({ ...r.value, id: known.get(r.value.code)!.id }));
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await insertRows(
        tx,
        'warehouses',
        { id: 'text', code: 'text', name: 'text', active: 'boolean' },
        fresh.map((r) => ({ id: newId(), code: r.code, name: r.name, active: r.active ?? true })),
        { org_id: sql`${auth.orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` },
      );
      await updateWarehouses(tx, audit, old);
      return { inserted: fresh.length, updated: old.length };
    },
  };
};

/** A warehouse code of each checked row, one at a time (no second list of a million codes). */
function* warehouseCodes(rows: ReadonlyArray<{ value: LocationInput }>): Generator<string> {
  for (const { value } of rows) yield value.warehouse;
}

/** The checked rows' values, one at a time. Not a closure inside the planner: one would keep the checked rows alive as long as write() is (V8 gives a function's closures one shared context). */
function* values<T>(rows: ReadonlyArray<{ value: T }>): Generator<T> {
  for (const { value } of rows) yield value;
}

export const planLocations: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkedOf<LocationInput>(sheet);
  await refuseRepeats(rows, (v) => locationKey(v.warehouse, v.code), 'code', 'This location', problems);
  const whs = await warehousesByCode(db, auth.orgId, warehouseCodes(rows));
  const known = await locationsByCode(db, auth.orgId, values(rows));
  const offIds: string[] = [];
  for (const { value } of rows) {
    const loc = known.size > 0 ? known.get(locationKey(value.warehouse, value.code)) : undefined;
    if (value.active === false && loc?.active) offIds.push(loc.id);
  }
  const holding = await placesHoldingStock(db, 'location_id', offIds);
  // New locations as one array per column (insertColumns), not an object per row: a million rows
  // keep a few arrays of the values the checked rows already hold.
  const fresh = { id: [] as string[], warehouseId: [] as string[], code: [] as string[], description: [] as string[], type: [] as string[], active: [] as boolean[] };
  const old: Array<LocationInput & { id: string }> = [];
  const pace = pacer();
  for (let i = 0; i < rows.length; i++) {
    if ((i & 1023) === 1023) await pace();
    const { row, value } = rows[i]!;
    const wh = whs.get(value.warehouse);
    const loc = known.size > 0 ? known.get(locationKey(value.warehouse, value.code)) : undefined;
    if (!wh) problems.push({ row, field: 'warehouse', message: noWarehouse(value.warehouse) });
    else if (loc && holding.has(loc.id)) problems.push({ row, field: 'active', message: locationHoldsStock(value.code) });
    else if (loc) old.push({ ...value, id: loc.id });
    else {
      fresh.id.push(newId());
      fresh.warehouseId.push(wh.id);
      fresh.code.push(value.code);
      fresh.description.push(value.description ?? '');
      fresh.type.push(value.type ?? 'bin');
      fresh.active.push(value.active ?? true);
    }
  }
  const audit = auditStamp(auth.accountId);
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await insertColumns(
        tx,
        'locations',
        { id: 'text', warehouseId: 'text', code: 'text', description: 'text', type: 'text', active: 'boolean' },
        fresh,
        { org_id: sql`${auth.orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` },
      );
      await updateLocations(tx, audit, old);
      return { inserted: fresh.id.length, updated: old.length, changed: { stockIds: [], locationIds: old.map((r) => r.id) } };
    },
  };
};
