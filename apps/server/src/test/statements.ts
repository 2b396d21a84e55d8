/*
 * The statements a piece of work sends to PostgreSQL, counted on the driver (node-postgres'
 * Client.query: pooled queries and those of a transaction alike, BEGIN and COMMIT included). On
 * PGlite nothing is counted: it has no round trips.
 */
import pg from 'pg';

/** The statements' texts sent while `run` runs. */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    sent.push(typeof first === 'string' ? first : first.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
