/*
 * Bulk loading of stock for the large benchmark data set (scripts/seed-large.ts), on PostgreSQL only.
 * PostgreSQL's own advice for populating a database ("Populating a Database" in its manual): COPY
 * instead of INSERT, and drop indexes and foreign keys before the load and create them again after,
 * because one sorted index build and one validating join are far cheaper than a million index
 * insertions and a million foreign-key probes (7 per stock record and its movement).
 *
 * Everything happens in the caller's transaction: the secondary indexes and foreign keys of the
 * loaded tables are read from the catalog (so they are exactly what the migrations made), dropped,
 * and created again from the same definitions before commit. Creating them again checks every row,
 * old and new, so a load that broke a foreign key or a unique index fails and leaves nothing behind.
 * The tables are locked (ACCESS EXCLUSIVE) until commit: run it with no server on the database.
 *
 * The ledger invariant holds as on every other path: each stock record is written with its receive
 * movement (qty_delta = qty_after = its quantity) in the same COPY pass.
 */
import { newId } from '../../lib/audit.ts';
import { formatQty } from '@floorhand/contract/quantity';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ResolvedReceipt } from './service.ts';
import type { Actor } from './ledger.ts';

/** The tables a stock load writes. */
export const STOCK_TABLES = ['stock_records', 'movements'] as const;

interface Definition {
  table: string;
  name: string;
  /** CREATE INDEX … or the constraint's definition for ALTER TABLE … ADD CONSTRAINT. */
  definition: string;
  kind: 'index' | 'foreignKey';
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The foreign keys of `tables` (their own and those of other tables pointing at them are not
 * touched: only constraints ON these tables), and their indexes that back no constraint.
 */
export async function droppableDefinitions(client: pg.ClientBase, tables: readonly string[]): Promise<Definition[]> {
  const { rows } = await client.query<Definition>(
    `SELECT c.relname AS table, con.conname AS name, pg_get_constraintdef(con.oid) AS definition, 'foreignKey' AS kind
       FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = ANY($1) AND con.contype = 'f'
     UNION ALL
     SELECT c.relname, i.relname, pg_get_indexdef(i.oid), 'index'
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = x.indexrelid)
     ORDER BY 4, 1, 2`,
    [tables],
  );
  return rows;
}

/**
 * Runs `load` with the foreign keys and secondary indexes of `tables` dropped, then creates them
 * again. Must run inside a transaction (the caller's); answers what `load` answered.
 */
export async function withoutIndexes<T>(client: pg.ClientBase, tables: readonly string[], load: () => Promise<T>): Promise<T> {
  const definitions = await droppableDefinitions(client, tables);
  // Index builds sort in memory up to this; the default (64 MB) spills a million keys to disk.
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const d of definitions) {
    await client.query(
      d.kind === 'index' ? `DROP INDEX ${ident(d.name)}` : `ALTER TABLE ${ident(d.table)} DROP CONSTRAINT ${ident(d.name)}`,
    );
  }
  const result = await load();
  for (const d of definitions) {
    await client.query(d.kind === 'index' ? d.definition : `ALTER TABLE ${ident(d.table)} ADD CONSTRAINT ${ident(d.name)} ${d.definition}`);
  }
  return result;
}

/** One value in COPY's text format: \N for null, backslash escapes for the characters it reserves. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : value;
}

const line = (values: ReadonlyArray<string | null>) => `${values.map(copyText).join('\t')}\n`;

async function copyRows(client: pg.ClientBase, table: string, columns: readonly string[], lines: Iterable<string>): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(lines), stream);
}

/**
 * Writes receipts as stock records, each with its receive movement, through COPY. `stockIds` gives
 * the stock ids of the receipts that have none (in order); ids of records are made here.
 */
export async function copyReceipts(
  client: pg.ClientBase,
  actor: Actor,
  receipts: readonly ResolvedReceipt[],
  stockIds: readonly string[],
): Promise<void> {
  let next = 0;
  const audit = JSON.stringify(actor.audit);
  const rows = receipts.map((r) => ({ ...r, id: newId(), stockId: r.stockId ?? stockIds[next++]!, qty: formatQty(r.quantity) }));
  if (next > stockIds.length) throw new Error(`${next} stock ids needed, ${stockIds.length} given`);
  await copyRows(
    client,
    'stock_records',
    [
      'id',
      'org_id',
      'stock_id',
      'item_id',
      'warehouse_id',
      'location_id',
      'quantity',
      'condition_code',
      'lot',
      'serial',
      'cert_source',
      'received_date',
      'audit',
    ],
    rows.map((r) =>
      line([
        r.id,
        actor.orgId,
        r.stockId,
        r.itemId,
        r.warehouseId,
        r.locationId,
        r.qty,
        r.conditionCode,
        r.lot,
        r.serial,
        r.certSource,
        r.receivedDate,
        audit,
      ]),
    ),
  );
  await copyRows(
    client,
    'movements',
    [
      'org_id',
      'site_id',
      'stock_record_id',
      'type',
      'qty_delta',
      'qty_after',
      'from_location_id',
      'to_location_id',
      'account_id',
      'idempotency_key',
    ],
    rows.map((r) =>
      line([actor.orgId, actor.siteId, r.id, 'receive', r.qty, r.qty, null, r.locationId, actor.accountId, actor.idempotencyKey]),
    ),
  );
}
