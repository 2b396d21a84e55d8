import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { defaultPoolSize } from '../config.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool as the metrics read it (lib/metrics.ts); PGlite has none. */
  pool?: PoolWatch;
  close(): Promise<void>;
}

/** A connection pool's counts, and how long each request for a connection waited. */
export interface PoolWatch {
  counts(): { total: number; idle: number; waiting: number };
  /** The most connections the pool opens (DATABASE_POOL_SIZE). */
  size: number;
  /** Calls `listener` with each wait for a connection, in seconds; answers a function that stops it. */
  onWait(listener: (seconds: number) => void): () => void;
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, release: (e?: Error) => void) => void;

/**
 * Times every request for a connection of `pool`: drizzle asks through `pool.query` (which asks
 * `pool.connect` with a callback) and `pool.connect()` (transactions), so wrapping connect sees both.
 * A request that finds an idle connection waits microseconds; one that queues waits for a release.
 */
export function watchPool(pool: pg.Pool): PoolWatch {
  const listeners = new Set<(seconds: number) => void>();
  const waited = (start: bigint) => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    for (const listener of listeners) listener(seconds);
  };
  const connect = pool.connect.bind(pool) as (cb?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((cb?: ConnectCallback) => {
    const start = process.hrtime.bigint();
    if (cb)
      return connect((err, client, release) => {
        waited(start);
        cb(err, client, release);
      });
    return connect()!.finally(() => waited(start));
  }) as typeof pool.connect;
  return {
    counts: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    size: pool.options.max,
    onWait(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The migrations folder, found from the source tree and from the bundled dist alike. */
function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('Database migrations folder not found');
}

/**
 * PGlite in a data folder (or in memory when dataDir is undefined), or PostgreSQL with a URL.
 * `loadDataDir`: PGlite starts from that dump of a data folder (`dumpDataDir`) instead of an empty one.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  /** PostgreSQL's pool size (config.ts DATABASE_POOL_SIZE): defaultPoolSize() when not given. */
  poolSize?: number;
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // No JIT compiling on the server's connections (an `options` in DATABASE_URL replaces this): its
    // statements are short, and PostgreSQL compiles whatever its estimate puts past jit_above_cost, at
    // 100 ms and more a time; the stock lookup's batched statement, estimated at 100 values, would be
    // compiled on every run (docs/decisions.md).
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? defaultPoolSize(), options: '-c jit=off' });
    // An idle connection that the server drops (restart, failover, a dropped test database) must not
    // take the process down: the pool replaces it on the next query.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`));
    const db = drizzlePg({ client: pool, schema });
    await migratePg(db, { migrationsFolder: migrationsFolder() });
    return { db: db as unknown as Db, kind: 'postgres', pool: watchPool(pool), close: () => pool.end() };
  }
  let dataDir: string | undefined;
  if (opts.dataDir) {
    dataDir = resolve(opts.dataDir);
    mkdirSync(dataDir, { recursive: true });
  }
  const client = new PGlite({ dataDir, loadDataDir: opts.loadDataDir });
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: migrationsFolder() });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
