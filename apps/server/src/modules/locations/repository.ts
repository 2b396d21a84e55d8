/*
 * The SQL of warehouses and locations: rows as answered, lists, finds and what a place holds.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Location, Warehouse } from '@floorhand/contract/locations';
import type { Db } from '../../db/client.ts';
import { locations, warehouses, type AuditStamp } from '../../db/schema.ts';
import { arrayParam, BATCH_ROWS, insertColumns, insertRows, likeEscape, query } from '../../db/sql.ts';
import { selectStock } from '../stock/queries.ts';

export type WarehouseRow = typeof warehouses.$inferSelect;
export const toWarehouse = (r: WarehouseRow): Warehouse => ({
  _id: r.id,
  _rev: r.rev,
  x$audit: r.audit,
  code: r.code,
  name: r.name,
  active: r.active,
});

export interface LocationRow {
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

export const toLocation = (r: LocationRow): Location => ({
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

/** Quantity on hand anywhere in a warehouse or location (the reason it cannot be deactivated). */
export async function stockHeld(db: Db, column: 'warehouse_id' | 'location_id', id: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM stock_records WHERE ${sql.raw(column)} = ${id} AND quantity > 0`,
  );
  return row?.n ?? 0;
}

export interface LocationFilter {
  warehouse?: string | undefined;
  active?: boolean | undefined;
  search?: string | undefined;
  offset: number;
  limit: number;
}

/** What each listed location holds, counted for the page only (a lateral join per row, on the location index). */
export async function locationPage(db: Db, orgId: string, filter: LocationFilter): Promise<LocationRow[]> {
  const where = [sql`l.org_id = ${orgId}`];
  if (filter.warehouse) where.push(sql`w.code = ${filter.warehouse}`);
  if (filter.active !== undefined) where.push(sql`l.active = ${filter.active}`);
  // Location codes are typed on handhelds in either case; a warehouse's few thousand rows need no index here.
  if (filter.search)
    where.push(sql`(l.code ILIKE ${`${likeEscape(filter.search)}%`} OR l.description ILIKE ${`%${likeEscape(filter.search)}%`})`);
  return query<LocationRow>(
    db,
    sql`SELECT p.*, c.records, c.items, c.quantity FROM (${LOCATION_SELECT} WHERE ${sql.join(where, sql` AND `)}
      ORDER BY w.code, l.code OFFSET ${filter.offset} LIMIT ${filter.limit + 1}) p
    LEFT JOIN LATERAL (SELECT count(*)::int AS records, count(DISTINCT item_id)::int AS items, coalesce(sum(quantity), 0)::text AS quantity
      FROM stock_records s WHERE s.location_id = p.id AND s.quantity > 0) c ON true
    ORDER BY p.warehouse, p.code`,
  );
}

export async function findLocation(db: Db, orgId: string, warehouse: string, code: string, lock = false): Promise<LocationRow | undefined> {
  const [row] = await query<LocationRow>(
    db,
    sql`${LOCATION_SELECT} WHERE l.org_id = ${orgId} AND w.code = ${warehouse} AND l.code = ${code}${lock ? sql` FOR UPDATE OF l` : sql``}`,
  );
  return row;
}

export async function locationById(db: Db, orgId: string, id: string, lock = false): Promise<LocationRow | undefined> {
  const [row] = await query<LocationRow>(
    db,
    sql`${LOCATION_SELECT} WHERE l.org_id = ${orgId} AND l.id = ${id}${lock ? sql` FOR UPDATE OF l` : sql``}`,
  );
  return row;
}

/** Records with a quantity above zero in a location, their distinct items and total quantity. */
export async function locationCounts(
  db: Db,
  locationId: string,
): Promise<{ records: number; items: number; quantity: string } | undefined> {
  const [counts] = await query<{ records: number; items: number; quantity: string }>(
    db,
    sql`SELECT count(*)::int AS records, count(DISTINCT item_id)::int AS items, coalesce(sum(quantity), 0)::text AS quantity
    FROM stock_records WHERE location_id = ${locationId} AND quantity > 0`,
  );
  return counts;
}

/** Of these warehouses or locations, the ones that hold stock (a quantity above zero). */
export async function placesHoldingStock(db: Db, column: 'warehouse_id' | 'location_id', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT DISTINCT ${sql.raw(column)} AS id FROM stock_records WHERE ${sql.raw(column)} = ANY(${arrayParam(ids)}) AND quantity > 0`,
  );
  return new Set(rows.map((r) => r.id));
}

const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => arrayParam(rows.map(pick));

/** Imported warehouses updated by id: a value left out (undefined) keeps the stored one. */
export async function updateWarehouses(
  db: Db,
  audit: AuditStamp,
  rows: ReadonlyArray<{ id: string; name: string; active?: boolean | undefined }>,
): Promise<void> {
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const b = rows.slice(at, at + BATCH_ROWS);
    await query(
      db,
      sql`UPDATE warehouses w SET name = u.name, active = coalesce(u.active, w.active), _rev = w._rev + 1,
        audit = jsonb_set(${JSON.stringify(audit)}::jsonb, '{create}', w.audit->'create')
      FROM unnest(${column(b, (r) => r.id)}::text[], ${column(b, (r) => r.name)}::text[], ${column(b, (r) => r.active ?? null)}::boolean[]) AS u(id, name, active)
      WHERE w.id = u.id`,
    );
  }
}

/** Imported locations updated by id: a value left out (undefined) keeps the stored one. */
export async function updateLocations(
  db: Db,
  audit: AuditStamp,
  rows: ReadonlyArray<{ id: string; description?: string | undefined; type?: string | undefined; active?: boolean | undefined }>,
): Promise<void> {
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const b = rows.slice(at, at + BATCH_ROWS);
    await query(
      db,
      sql`UPDATE locations l SET description = coalesce(u.description, l.description), type = coalesce(u.type, l.type), active = coalesce(u.active, l.active),
        _rev = l._rev + 1, audit = jsonb_set(${JSON.stringify(audit)}::jsonb, '{create}', l.audit->'create')
      FROM unnest(${column(b, (r) => r.id)}::text[], ${column(b, (r) => r.description ?? null)}::text[], ${column(b, (r) => r.type ?? null)}::text[],
        ${column(b, (r) => r.active ?? null)}::boolean[]) AS u(id, description, type, active)
      WHERE l.id = u.id`,
    );
  }
}

/** The organisation's warehouses by code, active or not or both (`active` undefined), at most `limit`. */
export async function warehousePage(db: Db, orgId: string, active: boolean | undefined, limit: number): Promise<WarehouseRow[]> {
  return db
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.orgId, orgId), active === undefined ? undefined : eq(warehouses.active, active)))
    .orderBy(asc(warehouses.code))
    .limit(limit);
}

export async function insertWarehouse(db: Db, values: typeof warehouses.$inferInsert): Promise<WarehouseRow | undefined> {
  const [row] = await db.insert(warehouses).values(values).returning();
  return row;
}

/** The warehouse of the organisation by id, locked for the update that follows. */
export async function lockWarehouse(db: Db, orgId: string, id: string): Promise<WarehouseRow | undefined> {
  const [found] = await db
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.orgId, orgId), eq(warehouses.id, id)))
    .for('update');
  return found;
}

export async function updateWarehouse(db: Db, id: string, set: Partial<typeof warehouses.$inferInsert>): Promise<WarehouseRow | undefined> {
  const [row] = await db.update(warehouses).set(set).where(eq(warehouses.id, id)).returning();
  return row;
}

export async function insertLocation(db: Db, values: typeof locations.$inferInsert): Promise<void> {
  await db.insert(locations).values(values);
}

export async function updateLocation(db: Db, id: string, set: Partial<typeof locations.$inferInsert>): Promise<void> {
  await db.update(locations).set(set).where(eq(locations.id, id));
}

/** The stock records holding some of a location, by part number and stock id, at most `limit`. */
export async function stockInLocation(db: Db, orgId: string, locationId: string, limit: number) {
  return selectStock(
    db,
    sql`WHERE sr.org_id = ${orgId} AND sr.location_id = ${locationId} AND sr.quantity > 0 ORDER BY i.part_number, sr.stock_id LIMIT ${limit}`,
  );
}

/** Inserts the CSV import's new warehouses, in batches. */
export async function insertWarehouseRows(
  db: Db,
  orgId: string,
  audit: AuditStamp,
  rows: readonly { id: string; code: string; name: string; active: boolean }[],
): Promise<void> {
  await insertRows(db, 'warehouses', { id: 'text', code: 'text', name: 'text', active: 'boolean' }, rows, {
    org_id: sql`${orgId}::text`,
    audit: sql`${JSON.stringify(audit)}::jsonb`,
  });
}

/** Inserts the CSV import's new locations, one array per column. */
export async function insertLocationColumns(
  db: Db,
  orgId: string,
  audit: AuditStamp,
  columns: { id: string[]; warehouseId: string[]; code: string[]; description: string[]; type: string[]; active: boolean[] },
): Promise<void> {
  await insertColumns(
    db,
    'locations',
    { id: 'text', warehouseId: 'text', code: 'text', description: 'text', type: 'text', active: 'boolean' },
    columns,
    { org_id: sql`${orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` },
  );
}
