// The shared idempotent write (issue 30): a keyed write whose key nobody holds sends one statement
// before its work (the key's lock and its stored answer together; each statement is a hop through the
// event loop while the transaction holds a connection and its row locks, docs/performance.md), on
// PostgreSQL in one message with BEGIN, and its stored answer in one message with COMMIT; a retry that
// races the first past that statement answers the first's answer, not a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '../db/schema.ts';
import { poolOf, type Db } from '../db/client.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import type { AuthContext } from './auth-context.ts';
import type { Deps } from './calls.ts';
import { badInput } from './errors.ts';
import { idempotentWrite, requestHash } from './idempotent-write.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const auth = { orgId: 'demo', accountId: 'admin' } as AuthContext;
const STATEMENTS = new Set(['execute', 'select', 'insert', 'update', 'delete']);

/** Deps whose database counts the statements each transaction sends (`log`, in order). */
function counting(log: string[]): Deps {
  const wrap = (tx: Db): Db =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof prop === 'string' && STATEMENTS.has(prop) && typeof value === 'function') {
          return (...args: unknown[]) => {
            log.push(prop);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value;
      },
    });
  const db = new Proxy(t.db, {
    get(target, prop, receiver) {
      if (prop === 'transaction') return (fn: (tx: Db) => Promise<unknown>) => target.transaction((tx) => fn(wrap(tx as Db)));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db, metrics: { replayed: () => {} }, realtime: { emit: () => {} } } as unknown as Deps;
}

/**
 * Deps whose PostgreSQL pool logs what each of its connections is sent, one entry per message (a hop
 * to PostgreSQL and back): BEGIN with the key's statement, COMMIT with the stored key, or a statement.
 */
function countingHops(log: string[]): Deps {
  const pool = poolOf(t.db)!;
  const kind = (text: string) =>
    /^BEGIN; SELECT pg_try_advisory_xact_lock/.test(text)
      ? 'begin+key'
      : /^INSERT INTO idempotency_keys[^]*; COMMIT$/.test(text)
        ? 'key+commit'
        : /^(COMMIT|ROLLBACK)$/.test(text)
          ? text.toLowerCase()
          : 'statement';
  const logged = (client: pg.PoolClient) =>
    new Proxy(client, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'query')
          return (...args: unknown[]) => {
            const first = args[0] as string | { text: string };
            log.push(kind(typeof first === 'string' ? first : first.text));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const countedPool = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'connect') return async () => logged(await target.connect());
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const db = new Proxy(t.db, { get: (target, prop, receiver) => (prop === '$client' ? countedPool : Reflect.get(target, prop, receiver)) });
  return { db, metrics: { replayed: () => {} }, realtime: { emit: () => {} } } as unknown as Deps;
}

const onPostgres = Boolean(process.env.DATABASE_URL);
const key = () => `iw-${crypto.randomUUID()}`;
const storedKey = async (k: string) =>
  (
    await t.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.orgId, 'demo'), eq(idempotencyKeys.key, k)))
  )[0];

describe('idempotentWrite', () => {
  it.runIf(!onPostgres)('a free key is one statement before the work; the work, then the stored key', async () => {
    const log: string[] = [];
    const deps = counting(log);
    const idempotencyKey = key();
    const answer = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('work');
      return { response: { ok: 1 } };
    });
    expect(answer).toEqual({ ok: 1 });
    expect(log).toEqual(['execute', 'work', 'execute']);
    // The retry: one statement, which finds the stored answer; the work does not run.
    log.length = 0;
    const again = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('work');
      return { response: { ok: 2 } };
    });
    expect(again).toEqual({ ok: 1 });
    expect(log).toEqual(['execute']);
  });

  it.runIf(onPostgres)(
    'on PostgreSQL, a free key is two hops besides the work: BEGIN with the key, the stored key with COMMIT',
    async () => {
      const log: string[] = [];
      const deps = countingHops(log);
      const idempotencyKey = key();
      const answer = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async (tx) => {
        log.push('work');
        await tx.select().from(idempotencyKeys).limit(1);
        return { response: { ok: 1 } };
      });
      expect(answer).toEqual({ ok: 1 });
      expect(log).toEqual(['begin+key', 'work', 'statement', 'key+commit']);
      // The retry: the key's statement finds the stored answer; COMMIT; the work does not run.
      log.length = 0;
      const again = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
        log.push('work');
        return { response: { ok: 2 } };
      });
      expect(again).toEqual({ ok: 1 });
      expect(log).toEqual(['begin+key', 'commit']);
    },
  );

  it.runIf(onPostgres)(
    'on PostgreSQL, a refused write rolls back on its connection, and the connection serves the next write',
    async () => {
      const log: string[] = [];
      const deps = countingHops(log);
      const other = key();
      await expect(
        idempotentWrite(deps, auth, 'stock/move', { idempotencyKey: key() }, async (tx) => {
          // A change made before the refusal: rolled back with it.
          await tx
            .insert(idempotencyKeys)
            .values({ orgId: 'demo', key: other, call: 'stock/move', requestHash: 'x', response: {}, accountId: 'admin' });
          throw badInput('Only 0 left');
        }),
      ).rejects.toThrow('Only 0 left');
      expect(log).toEqual(['begin+key', 'statement', 'rollback']);
      expect(await storedKey(other)).toBeUndefined();
      // Every connection of the pool, lent again, is outside any transaction.
      const pool = poolOf(t.db)!;
      const clients = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
      try {
        for (const c of clients)
          expect((await c.query<{ open: boolean }>('SELECT now() <> statement_timestamp() AS open')).rows[0]!.open).toBe(false);
      } finally {
        for (const c of clients) c.release();
      }
      expect(await idempotentWrite(deps, auth, 'stock/move', { idempotencyKey: key() }, async () => ({ response: { ok: true } }))).toEqual({
        ok: true,
      });
    },
  );

  it('a key and an answer with quotes, backslashes and other scripts are stored and replayed exactly', async () => {
    // The key's statement and its stored answer carry their values as literals in the text (sent with BEGIN and COMMIT).
    const idempotencyKey = `o'k\\"x';--${crypto.randomUUID()}`;
    const response = {
      note: `it's a \\ "quote" \u00e9 \u4e2d \ud83d\ude00 \n\t\u0001 $$ $1 '; DROP TABLE stock_records; --`,
      n: [1.5, 0, 1e21],
    };
    const deps = counting([]);
    expect(await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey }, async () => ({ response }))).toEqual(response);
    expect((await storedKey(idempotencyKey))?.response).toEqual(response);
    const again = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey }, async () => ({ response: { other: true } }));
    expect(again).toEqual(response);
  });

  it('a write without a key sends nothing of its own', async () => {
    const log: string[] = [];
    await idempotentWrite(counting(log), auth, 'stock/adjust', { n: 1 }, async () => {
      log.push('work');
      return { response: {} };
    });
    expect(log).toEqual(['work']);
  });

  // The race needs a second connection to store the first's answer while this transaction is open.
  it.runIf(Boolean(process.env.DATABASE_URL))(
    "a retry refused by what the first did, the first's answer stored meanwhile, answers the first's answer",
    async () => {
      const idempotencyKey = key();
      const body = { idempotencyKey, n: 3 };
      const first = { moved: 3 };
      const answer = await idempotentWrite(counting([]), auth, 'stock/move', body, async () => {
        // The first commits its answer now, after this one's first statement saw the key free.
        await t.db.insert(idempotencyKeys).values({
          orgId: 'demo',
          key: idempotencyKey,
          call: 'stock/move',
          requestHash: requestHash('stock/move', body),
          response: first,
          accountId: 'admin',
        });
        throw badInput('Only 0 left');
      });
      expect(answer).toEqual(first);
    },
  );

  it('a refusal with no stored answer is the refusal', async () => {
    await expect(
      idempotentWrite(counting([]), auth, 'stock/move', { idempotencyKey: key() }, async () => {
        throw badInput('Only 0 left');
      }),
    ).rejects.toThrow('Only 0 left');
  });
});
