import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { watchPool } from './client.ts';

// The pool's wait times for /metrics (lib/metrics.ts), on a pg.Pool of one connection whose client
// needs no server: a request queued behind a held connection waits until it is released.

class FakeClient extends EventEmitter {
  // What pg-pool reads to keep a released client idle.
  _queryable = true;
  _ending = false;
  connect(cb: (err?: Error) => void) {
    setImmediate(() => cb());
  }
  query(_text: string, _values: unknown, cb: (err: Error | undefined, res: { rows: unknown[] }) => void) {
    setImmediate(() => cb(undefined, { rows: [] }));
  }
  end(cb?: () => void) {
    this.emit('end');
    cb?.();
    return Promise.resolve();
  }
}

let pool: pg.Pool | undefined;
afterEach(async () => {
  await pool?.end();
  pool = undefined;
});

function watched() {
  pool = new pg.Pool({ max: 1, Client: FakeClient as unknown as typeof pg.Client });
  const watch = watchPool(pool);
  const waits: number[] = [];
  watch.onWait((s) => waits.push(s));
  return { pool, watch, waits };
}

describe('watchPool', () => {
  it('times a transaction queued behind a held connection, and counts it waiting meanwhile', async () => {
    const { pool, watch, waits } = watched();
    const first = await pool.connect();
    expect(waits).toHaveLength(1);
    const second = pool.connect();
    expect(watch.counts()).toEqual({ total: 1, idle: 0, waiting: 1 });
    await sleep(30);
    first.release();
    (await second).release();
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThanOrEqual(0.025);
    expect(watch.counts()).toEqual({ total: 1, idle: 1, waiting: 0 });
  });

  it('times a plain query (pool.query asks for its connection with a callback)', async () => {
    const { pool, waits } = watched();
    const held = await pool.connect();
    const queued = pool.query('SELECT 1');
    await sleep(30);
    held.release();
    await queued;
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThanOrEqual(0.025);
  });

  it('stops telling a listener that was removed', async () => {
    const { pool, watch, waits } = watched();
    const more: number[] = [];
    const stop = watch.onWait((s) => more.push(s));
    (await pool.connect()).release();
    stop();
    (await pool.connect()).release();
    expect([waits.length, more.length]).toEqual([2, 1]);
  });
});
