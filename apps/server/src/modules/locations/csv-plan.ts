/*
 * CSV import plans of warehouses and locations (the runner is lib/csv-import.ts): upserted by their
 * code (warehouse + code for a location), a new code inserted, a known one updated, with the single
 * save's rules and messages (service.ts).
 */
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { FirstRows } from '../../lib/first-rows.ts';
import { checkedOf, refuseRepeats, type Checked, type ChunkPlan, type Planner } from '../../lib/csv-import.ts';
import { locationKey, locationsByCode, warehousesByCode, type WarehouseRef } from '../../lib/refs.ts';
import { insertLocationColumns, insertWarehouseRows, placesHoldingStock, updateLocations, updateWarehouses } from './repository.ts';
import { locationHoldsStock, noWarehouse, warehouseHoldsStock, type LocationInput, type WarehouseInput } from './service.ts';
import { tk } from '@floorhand/contract/i18n';

export const planWarehouses: Planner = async (db, auth, sheet) => {
  const { problems } = sheet;
  const rows = checkedOf<WarehouseInput>(sheet);
  await refuseRepeats(rows, (v) => v.code, 'code', tk('This code'), problems);
  const known = await warehousesByCode(
    db,
    auth.orgId,
    rows.map((r) => r.value.code),
  );
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
      await insertWarehouseRows(
        tx,
        auth.orgId,
        audit,
        fresh.map((r) => ({ id: newId(), code: r.code, name: r.name, active: r.active ?? true })),
      );
      await updateWarehouses(tx, audit, old);
      return { inserted: fresh.length, updated: old.length };
    },
  };
};

/**
 * Locations a chunk at a time (lib/csv-import.ts, ChunkPlan): a location file may have a million rows.
 * Checking keeps each row's key (warehouse and code, against repeats in the file, as a hash:
 * lib/first-rows.ts) and the warehouses seen; writing looks the chunk's locations up again in the transaction.
 */
export const planLocations = (auth: AuthContext): ChunkPlan<LocationInput> => {
  const firstRow = new FirstRows();
  const warehouses = new Map<string, WarehouseRef | undefined>();
  const audit = auditStamp(auth.accountId);

  /** The chunk's warehouses, looked up once per import. */
  async function warehousesOf(db: Db, rows: ReadonlyArray<Checked<LocationInput>>) {
    const unseen = new Set<string>();
    for (const { value } of rows) if (!warehouses.has(value.warehouse)) unseen.add(value.warehouse);
    if (unseen.size > 0) {
      const found = await warehousesByCode(db, auth.orgId, unseen);
      for (const code of unseen) warehouses.set(code, found.get(code));
    }
  }
  const values = (rows: ReadonlyArray<Checked<LocationInput>>) => rows.map((r) => r.value);

  return {
    async check(db, rows, problems) {
      for (const { row, value } of rows) {
        const seen = firstRow.firstOrAdd(locationKey(value.warehouse, value.code), row);
        if (seen !== undefined) problems.push({ row, field: 'code', message: tk(`This location is in row ${seen} already`) });
      }
      await warehousesOf(db, rows);
      const known = await locationsByCode(db, auth.orgId, values(rows));
      const offIds: string[] = [];
      for (const { value } of rows) {
        const loc = known.get(locationKey(value.warehouse, value.code));
        if (value.active === false && loc?.active) offIds.push(loc.id);
      }
      const holding = await placesHoldingStock(db, 'location_id', offIds);
      for (const { row, value } of rows) {
        const loc = known.get(locationKey(value.warehouse, value.code));
        if (!warehouses.get(value.warehouse)) problems.push({ row, field: 'warehouse', message: noWarehouse(value.warehouse) });
        else if (loc && holding.has(loc.id)) problems.push({ row, field: 'active', message: locationHoldsStock(value.code) });
      }
    },

    async write(tx, rows) {
      const known = await locationsByCode(tx, auth.orgId, values(rows));
      // New locations as one array per column (insertColumns).
      const fresh = {
        id: [] as string[],
        warehouseId: [] as string[],
        code: [] as string[],
        description: [] as string[],
        type: [] as string[],
        active: [] as boolean[],
      };
      const old: Array<LocationInput & { id: string }> = [];
      for (const { value } of rows) {
        const loc = known.get(locationKey(value.warehouse, value.code));
        if (loc) {
          old.push({ ...value, id: loc.id });
          continue;
        }
        fresh.id.push(newId());
        fresh.warehouseId.push(warehouses.get(value.warehouse)!.id);
        fresh.code.push(value.code);
        fresh.description.push(value.description ?? '');
        fresh.type.push(value.type ?? 'bin');
        fresh.active.push(value.active ?? true);
      }
      await insertLocationColumns(tx, auth.orgId, audit, fresh);
      await updateLocations(tx, audit, old);
      return { inserted: fresh.id.length, updated: old.length, locationIds: old.map((r) => r.id) };
    },
  };
};
