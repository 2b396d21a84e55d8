/*
 * Small pieces every inventory file uses: raw SQL through drizzle with the record layer's error
 * mapping (a unique violation leaves as DuplicateKeyError, anything else as DB_ERR with the cause
 * logged), the spec's DUP message per unique constraint, and the usual 4xx answers.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CallPath, calls } from '@floorhand/contract/api';
import { AppError, ERR, article } from '@floorhand/contract/errors';
import type { ValidationErrors } from '@floorhand/contract/records/validate';
import type { Db } from '../../db/client.ts';
import { DuplicateKeyError, guarded } from '../records/repository.ts';
import { invalidRecord } from '../records/service.ts';

/** A call's body as the server sees it: parsed and transformed by its schema (quantities are bigint units). */
export type Body<P extends CallPath> = z.output<(typeof calls)[P]['body']>;

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

/** The unique constraint a DuplicateKeyError broke, from the driver's error (PGlite and node-postgres). */
export function constraintOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
  }
  return undefined;
}

/** The spec's DUP: "A/An {type} with id '{id}' already exists." */
export const dup = (title: string, id: string, detail?: string) =>
  new AppError(409, { code: ERR.dup, message: `${article(title)} ${title} with id '${id}' already exists.`, ...(detail ? { detail } : {}) });

/** Runs a write; a unique violation of a named constraint becomes its DUP answer. */
export async function mapDuplicates<T>(write: () => Promise<T>, byConstraint: Record<string, () => AppError>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      const make = byConstraint[constraintOf(error) ?? ''];
      if (make) throw make();
      throw new AppError(409, { code: ERR.dup, message: 'A record with this id already exists.' });
    }
    throw error;
  }
}

export const notFound = (message: string) => new AppError(404, { code: ERR.notFound, message });
export const badInput = (message: string, detail?: string) => new AppError(400, { code: ERR.badInput, message, ...(detail ? { detail } : {}) });
export const conflict = (message: string, detail?: string) => new AppError(409, { code: ERR.conflict, message, ...(detail ? { detail } : {}) });
/** A 400 with the record layer's per-field detail (`record.<field>: message`). */
export const fieldProblem = (errors: ValidationErrors, path = 'record') => invalidRecord(errors, path);

/** Refuses a stale revision when the client sent the one it read. */
export function checkRev(what: string, stored: number, sent: number | undefined): void {
  if (sent !== undefined && sent !== stored) throw conflict(`${what} was changed by someone else; reload it and try again`, `revision sent: ${sent}, stored: ${stored}`);
}

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
  const target = sql.join([...names.map(snake), ...Object.keys(constants)].map((n) => sql.identifier(n)), sql`, `);
  const selected = sql.join([...names.map((n) => sql`u.${sql.identifier(snake(n))}`), ...Object.values(constants)], sql`, `);
  const alias = sql.join(names.map((n) => sql.identifier(snake(n))), sql`, `);
  for (let at = 0; at < rows.length; at += BATCH_ROWS) {
    const batch = rows.slice(at, at + BATCH_ROWS);
    const arrays = sql.join(names.map((n) => sql`${arrayParam(batch.map((r) => r[n] ?? null))}::${sql.raw(columns[n]!)}[]`), sql`, `);
    await query(db, sql`INSERT INTO ${sql.identifier(table)} (${target}) SELECT ${selected} FROM unnest(${arrays}) AS u(${alias})`);
  }
}
