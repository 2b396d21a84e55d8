/*
 * CSV export with the import's columns, so an exported file imports back. Streamed in pages read by
 * keyset (the natural key's index), so a million stock records never sit in memory at once. Stock
 * exports what is on hand (quantity above zero): a file of receipts.
 */
import { Readable } from 'node:stream';
import { csvLine } from '@floorhand/contract/csv';
import { CSV_COLUMNS, type CsvEntity } from '@floorhand/contract/csv-transfer';
import type { Db } from '../../db/client.ts';
import { exportPage, keyColumnsOf, PAGE } from './export-queries.ts';
import type { BlindPlaces } from '../../lib/blind-places.ts';

async function* lines(
  db: Db,
  orgId: string,
  entity: CsvEntity,
  warehouse: string | undefined,
  skip: ReadonlySet<string>,
): AsyncGenerator<string> {
  const keyColumns = keyColumnsOf(entity);
  yield csvLine(CSV_COLUMNS[entity]);
  let after: string[] | undefined;
  for (;;) {
    const rows = await exportPage(db, orgId, entity, warehouse, after);
    if (rows.length === 0) return;
    let chunk = '';
    for (const row of rows) {
      const values = Object.values(row);
      if (skip.size > 0 && skip.has(`${String(row.warehouse)}\u0000${String(row.location)}`)) continue;
      chunk += csvLine(values.slice(0, values.length - keyColumns));
      after = values.slice(values.length - keyColumns).map(String);
    }
    yield chunk;
    if (rows.length < PAGE) return;
  }
}

/** The export as a stream of CSV text. */
export function exportCsv(db: Db, orgId: string, entity: CsvEntity, warehouse?: string, blind: BlindPlaces = new Map()): Readable {
  // Stock in a location the caller counts blind is left out of a stock export (counts/blind.ts).
  const skip = new Set(entity === 'stock' ? [...blind.values()].map((p) => `${p.warehouse}\u0000${p.location}`) : []);
  return Readable.from(lines(db, orgId, entity, warehouse, skip));
}
