/*
 * CSV import plans of warehouses and locations (the runner is lib/csv-import.ts): upserted by their
 * code (warehouse + code for a location), a new code inserted, a known one updated, with the single
 * save's rules and messages (service.ts).
 */
import { sql } from 'drizzle-orm';
import { locationEntity, warehouseEntity } from '@floorhand/contract/locations';
import { auditStamp, newId } from '../../lib/audit.ts';
import { checkRows, refuseRepeats, type Planner } from '../../lib/csv-import.ts';
import { insertRows } from '../../db/sql.ts';
import { locationKey, locationsByCode, warehousesByCode } from '../stock/refs.ts';
import { placesHoldingStock, updateLocations, updateWarehouses } from './repository.ts';
import { locationHoldsStock, noWarehouse, warehouseHoldsStock, type LocationInput, type WarehouseInput } from './service.ts';

export const planWarehouses: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkRows<WarehouseInput>(warehouseEntity, sheet.rows, problems);
  refuseRepeats(rows, (v) => v.code, 'code', 'This code', problems);
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

export const planLocations: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkRows<LocationInput>(locationEntity, sheet.rows, problems);
  refuseRepeats(rows, (v) => locationKey(v.warehouse, v.code), 'code', 'This location', problems);
  const whs = await warehousesByCode(db, auth.orgId, rows.map((r) => r.value.warehouse));
  const known = await locationsByCode(db, auth.orgId, rows.map((r) => r.value));
  const holding = await placesHoldingStock(
    db,
    'location_id',
    rows.flatMap(({ value }) => {
      const loc = known.get(locationKey(value.warehouse, value.code));
      return value.active === false && loc?.active ? [loc.id] : [];
    }),
  );
  const fresh: Array<LocationInput & { warehouseId: string }> = [];
  const old: Array<LocationInput & { id: string }> = [];
  for (const { row, value } of rows) {
    const wh = whs.get(value.warehouse);
    const loc = known.get(locationKey(value.warehouse, value.code));
    if (!wh) problems.push({ row, field: 'warehouse', message: noWarehouse(value.warehouse) });
    else if (loc && holding.has(loc.id)) problems.push({ row, field: 'active', message: locationHoldsStock(value.code) });
    else if (loc) old.push({ ...value, id: loc.id });
    else fresh.push({ ...value, warehouseId: wh.id });
  }
  const audit = auditStamp(auth.accountId);
  return {
    problems,
    rows: sheet.count,
    async write(tx) {
      await insertRows(
        tx,
        'locations',
        { id: 'text', warehouseId: 'text', code: 'text', description: 'text', type: 'text', active: 'boolean' },
        fresh.map((r) => ({ id: newId(), warehouseId: r.warehouseId, code: r.code, description: r.description ?? '', type: r.type ?? 'bin', active: r.active ?? true })),
        { org_id: sql`${auth.orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` },
      );
      await updateLocations(tx, audit, old);
      return { inserted: fresh.length, updated: old.length, changed: { stockIds: [], locationIds: old.map((r) => r.id) } };
    },
  };
};
