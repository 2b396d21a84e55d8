/*
 * Raw SQL through drizzle, the same from PGlite and node-postgres: rows of a query (with the data
 * layer's error mapping), array parameters, timestamps as ISO text, LIKE escaping, batched inserts.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { guarded } from './errors.ts';
import { pacer } from '../lib/pace.ts';

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export function query<T>(db: Db, statement: SQL): Promise<T[]> {
  return guarded(async () => ((await db.execute(statement)) as unknown as { rows: T[] }).rows);
}

/** A JavaScript array as one parameter (for `= ANY(...)` and `unnest(...)`), not a list of parameters. */
export const arrayParam = (values: readonly unknown[]) => sql.param(values);

/** A timestamp column as ISO 8601 in UTC, the same from both drivers. */
export const isoSql = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** LIKE pattern text with its wildcards escaped. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Rows per INSERT … SELECT FROM unnest(…): large enough to be fast, small enough to stay well inside memory. */
export const BATCH_ROWS = 5000;

/**
 * Inserts rows in batches, one array parameter per column (`column: 'pg type'`) through unnest():
 * a handful of parameters whatever the batch size. `constants` are the same for every row.
 */
export async function insertRows<R extends Record<string, unknown>>(
  db: Db,
  table: string,
  columns: Partial<Record<keyof R & string, string>>,
  rows: readonly R[],
  constants: Record<string, SQL> = {},
): Promise<void> {
  const names = Object.keys(columns) as Array<keyof R & string>;
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const target = sql.join(
    [...names.map(snake), ...Object.keys(constants)].map((n) => sql.identifier(n)),
    sql`, `,
  );
  const selected = sql.join([...names.map((n) => sql`u.${sql.identifier(snake(n))}`), ...Object.values(constants)], sql`, `);
  const alias = sql.join(
    names.map((n) => sql.identifier(snake(n))),
    sql`, `,
  );
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const batch = rows.slice(at, at + BATCH_ROWS);
    const arrays = sql.join(
      names.map((n) => sql`${arrayParam(batch.map((r) => r[n] ?? null))}::${sql.raw(columns[n]!)}[]`),
      sql`, `,
    );
    await query(db, sql`INSERT INTO ${sql.identifier(table)} (${target}) SELECT ${selected} FROM unnest(${arrays}) AS u(${alias})`);
  }
}

/**
 * insertColumns' rows per statement adapt so that one statement takes about STATEMENT_MS: on PGlite
 * the statement runs in this process and holds the event loop while it runs (a 2,000-location insert
 * took 460 ms on a loaded machine), on PostgreSQL it is a wait, and batches stay large.
 */
const STATEMENT_MS = 20;
const MIN_BATCH_ROWS = 100;

/**
 * insertRows of rows held as one array per column (`data[column][i]` is row i's value): a large import
 * keeps a few arrays instead of an object per row. Pauses between statements (lib/pace.ts).
 */
export async function insertColumns<C extends string>(
  db: Db,
  table: string,
  columns: Record<C, string>,
  data: Record<C, readonly unknown[]>,
  constants: Record<string, SQL> = {},
): Promise<void> {
  const names = Object.keys(columns) as C[];
  const length = data[names[0]!].length;
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const target = sql.join(
    [...names.map(snake), ...Object.keys(constants)].map((n) => sql.identifier(n)),
    sql`, `,
  );
  const selected = sql.join([...names.map((n) => sql`u.${sql.identifier(snake(n))}`), ...Object.values(constants)], sql`, `);
  const alias = sql.join(
    names.map((n) => sql.identifier(snake(n))),
    sql`, `,
  );
  const pace = pacer();
  let batch = 500;
  for (let at = 0; at < length;) {
    const arrays = sql.join(
      names.map((n) => sql`${arrayParam(data[n].slice(at, at + batch))}::${sql.raw(columns[n])}[]`),
      sql`, `,
    );
    const started = performance.now();
    await query(db, sql`INSERT INTO ${sql.identifier(table)} (${target}) SELECT ${selected} FROM unnest(${arrays}) AS u(${alias})`);
    const ms = Math.max(1, performance.now() - started);
    at += batch;
    batch = Math.round(Math.min(BATCH_ROWS, batch * 2, Math.max(MIN_BATCH_ROWS, (batch * STATEMENT_MS) / ms)));
    await pace();
  }
}
