/*
 * Hot statements as named prepared statements. PostgreSQL parses and plans an unnamed statement on
 * every call; a named one is parsed once per connection and, after a few calls, may run a cached
 * plan. Only for the few statements every scan runs (authentication, stock lookup): their text is
 * one of a small fixed set, so each connection holds a handful of them. The name is derived from
 * the text, so two texts never share a name. PGlite runs the same call unprepared.
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

interface Internals {
  dialect: { sqlToQuery(s: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      q: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ): { execute(values?: Record<string, unknown>): Promise<unknown> };
  };
}

const names = new Map<string, string>();
/** At most this many distinct texts get a name; any more run unnamed (a guard, not a limit we expect to reach). */
const MAX_NAMES = 500;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `fh_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A statement built and prepared once (per database handle), run with values for its placeholders
 * (`sql.placeholder('name')`): the hottest calls skip building the statement, rendering its text and
 * hashing it on every call (drizzle's query builder was 5 % of a stock lookup's CPU). Only for the
 * pool-level handle, not a transaction's.
 */
export function preparedStatement<T>(db: Db, statement: SQL): (values: Record<string, unknown>) => Promise<T[]> {
  const d = db as unknown as Internals;
  const built = d.dialect.sqlToQuery(statement);
  const prepared = d.session.prepareQuery(built, undefined, nameOf(built.sql), false);
  return async (values) => ((await prepared.execute(values)) as { rows: T[] }).rows;
}

/** Runs `statement` as a named prepared statement and answers its rows. */
export async function preparedRows<T>(db: Db, statement: SQL): Promise<T[]> {
  const d = db as unknown as Internals;
  const built = d.dialect.sqlToQuery(statement);
  const result = (await d.session.prepareQuery(built, undefined, nameOf(built.sql), false).execute()) as { rows: T[] };
  return result.rows;
}
