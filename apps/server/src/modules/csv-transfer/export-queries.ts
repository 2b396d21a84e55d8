/*
 * The SQL of CSV export (csv-export.ts streams it): one page of an entity's rows read by keyset (the
 * natural key's index), the import's columns in order, then the key columns.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CsvValue } from '@floorhand/contract/csv';
import { BARCODE_SEPARATOR, type CsvEntity } from '@floorhand/contract/csv-transfer';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';

/** Rows per page of an export. */
export const PAGE = 5000;

interface Source {
  /** One page after the last key (undefined for the first): the CSV columns in order, then the key columns (each named once). */
  page(orgId: string, warehouse: string | undefined, after: string[] | undefined): SQL;
  keyColumns: number;
}

const whFilter = (warehouse: string | undefined) => (warehouse ? sql` AND w.code = ${warehouse}` : sql``);

const SOURCES: Record<CsvEntity, Source> = {
  warehouses: {
    keyColumns: 1,
    page: (orgId, warehouse, after) =>
      sql`SELECT w.code, w.name, w.active::text AS active, w.code AS k1 FROM warehouses w WHERE w.org_id = ${orgId}${whFilter(warehouse)}
        ${after ? sql`AND w.code > ${after[0]}` : sql``} ORDER BY w.code LIMIT ${PAGE}`,
  },
  locations: {
    keyColumns: 2,
    page: (orgId, warehouse, after) =>
      sql`SELECT w.code AS warehouse, l.code, l.description, l.type, l.active::text AS active, w.code AS k1, l.code AS k2
        FROM locations l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.org_id = ${orgId}${whFilter(warehouse)}
        ${after ? sql`AND (w.code, l.code) > (${after[0]}, ${after[1]})` : sql``} ORDER BY w.code, l.code LIMIT ${PAGE}`,
  },
  items: {
    keyColumns: 1,
    page: (orgId, _warehouse, after) =>
      sql`SELECT i.part_number, i.description, i.uom, i.department, i.tracking,
          (SELECT string_agg(b.barcode, ${BARCODE_SEPARATOR} ORDER BY b.barcode) FROM item_barcodes b WHERE b.item_id = i.id) AS barcodes,
          i.active::text AS active, i.part_number AS k1
        FROM items i WHERE i.org_id = ${orgId} ${after ? sql`AND i.part_number > ${after[0]}` : sql``} ORDER BY i.part_number LIMIT ${PAGE}`,
  },
  stock: {
    keyColumns: 1,
    page: (orgId, warehouse, after) =>
      sql`SELECT sr.stock_id, i.part_number, w.code AS warehouse, l.code AS location, trim_scale(sr.quantity)::text AS quantity, sr.condition_code, sr.lot, sr.serial,
          sr.cert_source, to_char(sr.received_date, 'YYYY-MM-DD') AS received_date, sr.stock_id AS k1
        FROM stock_records sr JOIN items i ON i.id = sr.item_id JOIN locations l ON l.id = sr.location_id JOIN warehouses w ON w.id = sr.warehouse_id
        WHERE sr.org_id = ${orgId} AND sr.quantity > 0${whFilter(warehouse)} ${after ? sql`AND sr.stock_id > ${after[0]}` : sql``}
        ORDER BY sr.stock_id LIMIT ${PAGE}`,
  },
  // One row per line; cancelled orders are left out (they cannot be imported back).
  orders: {
    keyColumns: 3,
    page: (orgId, warehouse, after) =>
      sql`SELECT o.type AS order_type, o.number AS order_number, o.status, w.code AS warehouse, o.customer, to_char(o.due_date, 'YYYY-MM-DD') AS due_date,
          o.priority::text AS priority, o.notes, sl.code AS staging_location, o.department, ol.line_no::text AS line_no, i.part_number, trim_scale(ol.qty)::text AS qty,
          o.type AS k1, o.number AS k2, ol.line_no AS k3
        FROM order_lines ol JOIN orders o ON o.id = ol.order_id JOIN warehouses w ON w.id = o.warehouse_id JOIN items i ON i.id = ol.item_id
        LEFT JOIN locations sl ON sl.id = o.staging_location_id
        WHERE o.org_id = ${orgId} AND o.status <> 'cancelled'${whFilter(warehouse)}
        ${after ? sql`AND (o.type, o.number, ol.line_no) > (${after[0]}, ${after[1]}, ${Number(after[2])}::int)` : sql``}
        ORDER BY o.type, o.number, ol.line_no LIMIT ${PAGE}`,
  },
};

/** How many key columns end each row of `entity`'s pages. */
export const keyColumnsOf = (entity: CsvEntity): number => SOURCES[entity].keyColumns;

/** One page of `entity` after the key `after` (undefined for the first), in the warehouse if one is given. */
export async function exportPage(
  db: Db,
  orgId: string,
  entity: CsvEntity,
  warehouse: string | undefined,
  after: string[] | undefined,
): Promise<Record<string, CsvValue>[]> {
  return query<Record<string, CsvValue>>(db, SOURCES[entity].page(orgId, warehouse, after));
}
