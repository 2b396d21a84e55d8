/*
 * SQL of a warehouse's count settings: the variance thresholds that send a line to a recount, and the
 * cycle frequencies (the warehouse's own and its locations') that make a location due for a count.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { arrayParam, query } from '../../db/sql.ts';

export async function thresholdOf(db: Db, warehouseId: string): Promise<{ max_qty: string | null; max_pct: string | null } | undefined> {
  const [row] = await query<{ max_qty: string | null; max_pct: string | null }>(
    db,
    sql`SELECT max_qty::text AS max_qty, max_pct::text AS max_pct FROM count_thresholds WHERE warehouse_id = ${warehouseId}`,
  );
  return row;
}

export async function upsertThreshold(
  db: Db,
  t: { orgId: string; warehouseId: string; maxQty: string | null; maxPct: string | null; audit: unknown },
): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_thresholds (org_id, warehouse_id, max_qty, max_pct, audit) VALUES (${t.orgId}, ${t.warehouseId}, ${t.maxQty}::numeric, ${t.maxPct}::numeric, ${JSON.stringify(t.audit)}::jsonb)
    ON CONFLICT (warehouse_id) DO UPDATE SET max_qty = excluded.max_qty, max_pct = excluded.max_pct, audit = excluded.audit`,
  );
}

/** The warehouse's frequency (code null) first, then its locations' by code. */
export async function frequenciesOf(db: Db, orgId: string, warehouseId: string): Promise<Array<{ code: string | null; days: number }>> {
  return query<{ code: string | null; days: number }>(
    db,
    sql`SELECT l.code, f.days FROM count_frequencies f LEFT JOIN locations l ON l.id = f.location_id WHERE f.org_id = ${orgId} AND f.warehouse_id = ${warehouseId}
    ORDER BY l.code COLLATE "C" NULLS FIRST`,
  );
}

/** The locations of a warehouse with these codes (any state). */
export async function warehouseLocations(db: Db, warehouseId: string, codes: string[]): Promise<Array<{ id: string; code: string }>> {
  return query<{ id: string; code: string }>(
    db,
    sql`SELECT id, code FROM locations WHERE warehouse_id = ${warehouseId} AND code = ANY(${arrayParam(codes)})`,
  );
}

export async function deleteFrequencies(db: Db, orgId: string, scopeIds: string[]): Promise<void> {
  await query(db, sql`DELETE FROM count_frequencies WHERE org_id = ${orgId} AND scope_id = ANY(${arrayParam(scopeIds)})`);
}

/** Sets the frequency of scopes: the warehouse itself (its id) or locations of it (theirs). */
export async function upsertFrequencies(
  db: Db,
  f: { orgId: string; warehouseId: string; scopeIds: string[]; days: number; audit: unknown },
): Promise<void> {
  await query(
    db,
    sql`INSERT INTO count_frequencies (scope_id, org_id, warehouse_id, location_id, days, audit)
    SELECT u.id, ${f.orgId}, ${f.warehouseId}, NULLIF(u.id, ${f.warehouseId}), ${f.days}, ${JSON.stringify(f.audit)}::jsonb FROM unnest(${arrayParam(f.scopeIds)}::text[]) AS u(id)
    ON CONFLICT (scope_id) DO UPDATE SET days = excluded.days, audit = excluded.audit`,
  );
}
