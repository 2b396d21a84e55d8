import { z } from 'zod';
import { callBase, code, idempotencyKeySchema, withErr } from './common.ts';
import { english, type Translate } from './i18n.ts';
import { itemEntity } from './items.ts';
import { locationEntity, warehouseEntity } from './locations.ts';
import { orderCsvEntity, ORDER_CSV_COLUMNS } from './orders.ts';
import { stockRecordEntity } from './stock.ts';

// CSV import and export of the inventory masters and stock (docs/inventory.md): every entity's
// columns, the import report and the two calls. It names each area's EntityDef, so it sits above
// them; no area imports it.

/** import/csv's body limit; every other call has the server's 1 MB. A larger body is refused with 413. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Data rows one import/csv takes. Locations are checked and written a chunk at a time (bounded
 * memory: a million in under 600 MB of server RSS); warehouses, items, stock and orders are planned
 * with every checked row held until the one transaction commits, so for them this, not the bytes,
 * bounds the memory (docs/inventory.md, "Large CSV imports"). A longer file is refused (400, nothing
 * imported) as soon as its row 1,000,002 is read.
 */
export const IMPORT_MAX_ROWS = 1_000_000;
/** Rejected rows an import report lists; `rejectedCount` has them all. */
export const IMPORT_REPORT_MAX = 1000;
/** Separator of an item's barcodes in one CSV field. */
export const BARCODE_SEPARATOR = '|';

export const INVENTORY_ENTITIES = {
  warehouses: warehouseEntity,
  locations: locationEntity,
  items: itemEntity,
  stock: stockRecordEntity,
  orders: orderCsvEntity,
} as const;
/** `orders`: one row per order line (contract/orders.ts, orderCsvEntity). */
export const CSV_ENTITIES = ['warehouses', 'locations', 'items', 'stock', 'orders'] as const;
export type CsvEntity = (typeof CSV_ENTITIES)[number];
/** CSV columns per entity, in this order on export; an import needs the header and may leave optional columns out. */
export const CSV_COLUMNS: Record<CsvEntity, readonly string[]> = {
  warehouses: ['code', 'name', 'active'],
  locations: ['warehouse', 'code', 'description', 'type', 'active'],
  items: ['partNumber', 'description', 'uom', 'department', 'tracking', 'barcodes', 'active'],
  stock: ['stockId', 'partNumber', 'warehouse', 'location', 'quantity', 'conditionCode', 'lot', 'serial', 'certSource', 'receivedDate'],
  orders: ORDER_CSV_COLUMNS,
};

export const importProblemSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
/**
 * What an import did. All or nothing: with any rejected row nothing is imported, and the call
 * answers 400 ERR_BAD_INPUT whose `detail` is this report as JSON (see importReportOf).
 */
export const importReportSchema = z.object({
  entity: z.enum(CSV_ENTITIES),
  /** Data rows read (the header and blank lines not counted). */
  rows: z.number().int(),
  imported: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  rejectedCount: z.number().int(),
  /** The first IMPORT_REPORT_MAX problems: row (the header is row 1), field, message. */
  rejected: z.array(importProblemSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/**
 * What a refused import says: how many problems, and where, the header row told apart from the data
 * rows ("3 problems in the header row and 2 of 40 data rows"; never "12 problems in 2 of 1 rows").
 * Each count has its own key for one and for many, so a language keeps its own plurals.
 */
export function importRefusalSummary(r: ImportReport, t: Translate = english): string {
  const inHeader = r.rejected.some((p) => p.row === 1);
  const bad = new Set(r.rejected.filter((p) => p.row > 1).map((p) => p.row)).size;
  const problems = r.rejectedCount === 1 ? t('1 problem') : t('{{n}} problems', { n: r.rejectedCount });
  const rows = r.rows === 1 ? t('{{bad}} of 1 data row', { bad }) : t('{{bad}} of {{rows}} data rows', { bad, rows: r.rows });
  const header = t('the header row');
  const where = inHeader && bad > 0 ? t('{{header}} and {{rows}}', { header, rows }) : inHeader ? header : bad > 0 ? rows : undefined;
  return where
    ? t('{{problems}} in {{where}}; nothing was imported. Correct the file and import it again.', { problems, where })
    : t('{{problems}}; nothing was imported. Correct the file and import it again.', { problems });
}

/** The report of a refused import from its error, or undefined. */
export function importReportOf(err: { detail?: string } | undefined): ImportReport | undefined {
  try {
    const parsed = importReportSchema.safeParse(JSON.parse(err?.detail ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const csvTransferCalls = {
  'import/csv': {
    locId: undefined,
    auth: 'required',
    /** CSV text with a header row (CSV_COLUMNS); all or nothing in one transaction. */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema.optional(),
      entity: z.enum(CSV_ENTITIES),
      csv: z.string().min(1).max(IMPORT_MAX_BYTES),
    }),
    response: withErr({ report: importReportSchema.optional() }),
  },
  'export/csv': {
    locId: undefined,
    auth: 'required',
    /** Answers text/csv (not JSON) with the import's columns; also GET /api/export/csv?entity=…&warehouse=… with the bearer token. */
    body: callBase.extend({ entity: z.enum(CSV_ENTITIES), warehouse: code.optional() }),
    response: withErr({}),
  },
} as const;
