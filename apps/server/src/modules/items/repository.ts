/*
 * The SQL of items: an item with its barcodes, lists and the stock that holds an item.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Item, Tracking } from '@floorhand/contract/items';
import type { Db } from '../../db/client.ts';
import { itemBarcodes, items, type AuditStamp } from '../../db/schema.ts';
import { arrayParam, BATCH_ROWS, insertRows, likeEscape, query } from '../../db/sql.ts';

export interface ItemRow {
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

export const toItem = (r: ItemRow): Item => ({
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

export interface ItemFilter {
  department?: string;
  active?: boolean;
  search?: string;
  offset: number;
  limit: number;
}

/** One page of items by part number, and one row more when there are more. */
export async function itemPage(db: Db, orgId: string, filter: ItemFilter): Promise<ItemRow[]> {
  const where: SQL[] = [sql`i.org_id = ${orgId}`];
  if (filter.department) where.push(sql`i.department = ${filter.department}`);
  if (filter.active !== undefined) where.push(sql`i.active = ${filter.active}`);
  if (filter.search)
    where.push(sql`(i.part_number LIKE ${`${likeEscape(filter.search)}%`} OR i.description ILIKE ${`%${likeEscape(filter.search)}%`})`);
  return query<ItemRow>(
    db,
    sql`${ITEM_SELECT} WHERE ${sql.join(where, sql` AND `)} ORDER BY i.part_number OFFSET ${filter.offset} LIMIT ${filter.limit + 1}`,
  );
}

export async function itemByPartNumber(db: Db, orgId: string, partNumber: string): Promise<ItemRow | undefined> {
  const [row] = await query<ItemRow>(db, sql`${ITEM_SELECT} WHERE i.org_id = ${orgId} AND i.part_number = ${partNumber}`);
  return row;
}

export async function itemById(db: Db, id: string): Promise<ItemRow | undefined> {
  const [row] = await query<ItemRow>(db, sql`${ITEM_SELECT} WHERE i.id = ${id}`);
  return row;
}

/** On-hand stock of an item per warehouse. */
export async function itemStockByWarehouse(
  db: Db,
  itemId: string,
  blindLocationIds: readonly string[] = [],
): Promise<Array<{ warehouse: string; records: number; quantity: string; blind: boolean }>> {
  return query<{ warehouse: string; records: number; quantity: string; blind: boolean }>(
    db,
    sql`SELECT w.code AS warehouse, count(*)::int AS records, sum(s.quantity)::text AS quantity, bool_or(s.location_id = ANY(${arrayParam(blindLocationIds)}::text[])) AS blind
    FROM stock_records s JOIN warehouses w ON w.id = s.warehouse_id
    WHERE s.item_id = ${itemId} AND s.quantity > 0 GROUP BY w.code ORDER BY w.code`,
  );
}

/** Stock records with a quantity above zero of an item. */
export async function itemRecordsHeld(db: Db, itemId: string): Promise<number> {
  const [held] = await query<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM stock_records WHERE item_id = ${itemId} AND quantity > 0`,
  );
  return held?.n ?? 0;
}

/** Of these items, the ones with stock on hand (a quantity above zero). */
export async function itemsWithStock(db: Db, itemIds: string[]): Promise<Set<string>> {
  if (itemIds.length === 0) return new Set();
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT DISTINCT item_id AS id FROM stock_records WHERE item_id = ANY(${arrayParam(itemIds)}) AND quantity > 0`,
  );
  return new Set(rows.map((r) => r.id));
}

const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => arrayParam(rows.map(pick));

/** Imported items updated by id: a value left out (undefined) keeps the stored one. */
export async function updateItems(
  db: Db,
  audit: AuditStamp,
  rows: ReadonlyArray<{
    id: string;
    description: string;
    uom?: string | undefined;
    department?: string | undefined;
    tracking?: Tracking | undefined;
    active?: boolean | undefined;
  }>,
): Promise<void> {
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const b = rows.slice(at, at + BATCH_ROWS);
    await query(
      db,
      sql`UPDATE items i SET description = u.description, uom = coalesce(u.uom, i.uom), department = coalesce(u.department, i.department),
        tracking = coalesce(u.tracking, i.tracking), active = coalesce(u.active, i.active), _rev = i._rev + 1,
        audit = jsonb_set(${JSON.stringify(audit)}::jsonb, '{create}', i.audit->'create')
      FROM unnest(${column(b, (r) => r.id)}::text[], ${column(b, (r) => r.description)}::text[], ${column(b, (r) => r.uom ?? null)}::text[],
        ${column(b, (r) => r.department ?? null)}::text[], ${column(b, (r) => r.tracking ?? null)}::text[], ${column(b, (r) => r.active ?? null)}::boolean[])
        AS u(id, description, uom, department, tracking, active)
      WHERE i.id = u.id`,
    );
  }
}

/** The barcodes of these items removed (an import with the barcodes column replaces them). */
export async function deleteBarcodes(db: Db, itemIds: readonly string[]): Promise<void> {
  for (let at = 0; at < itemIds.length; at += BATCH_ROWS) {
    await query(db, sql`DELETE FROM item_barcodes WHERE item_id = ANY(${arrayParam(itemIds.slice(at, at + BATCH_ROWS))})`);
  }
}

export async function insertItem(db: Db, values: typeof items.$inferInsert): Promise<void> {
  await db.insert(items).values(values);
}

/** The item of the organisation by id, locked for the update that follows. */
export async function lockItem(db: Db, orgId: string, itemId: string) {
  const [found] = await db
    .select()
    .from(items)
    .where(and(eq(items.orgId, orgId), eq(items.id, itemId)))
    .for('update');
  return found;
}

export async function updateItem(db: Db, itemId: string, set: Partial<typeof items.$inferInsert>): Promise<void> {
  await db.update(items).set(set).where(eq(items.id, itemId));
}

export async function deleteItemBarcodes(db: Db, itemId: string): Promise<void> {
  await db.delete(itemBarcodes).where(eq(itemBarcodes.itemId, itemId));
}

export async function insertItemBarcodes(db: Db, orgId: string, barcodes: readonly string[], itemId: string): Promise<void> {
  await db.insert(itemBarcodes).values(barcodes.map((barcode) => ({ orgId, barcode, itemId })));
}

/** A new item as the CSV import writes it (the organisation and audit stamp are the same for every row). */
export interface ItemImportRow extends Record<string, unknown> {
  id: string;
  partNumber: string;
  description: string;
  uom: string;
  department: string | null;
  tracking: string;
  active: boolean;
}

/** Inserts the CSV import's new items, in batches. */
export async function insertItemRows(db: Db, orgId: string, audit: AuditStamp, rows: readonly ItemImportRow[]): Promise<void> {
  await insertRows(
    db,
    'items',
    { id: 'text', partNumber: 'text', description: 'text', uom: 'text', department: 'text', tracking: 'text', active: 'boolean' },
    rows,
    { org_id: sql`${orgId}::text`, audit: sql`${JSON.stringify(audit)}::jsonb` },
  );
}

/** Inserts barcodes of items of the organisation, in batches. */
export async function insertBarcodeRows(db: Db, orgId: string, codes: readonly { barcode: string; itemId: string }[]): Promise<void> {
  await insertRows(db, 'item_barcodes', { barcode: 'text', itemId: 'text' }, codes, { org_id: sql`${orgId}::text` });
}
