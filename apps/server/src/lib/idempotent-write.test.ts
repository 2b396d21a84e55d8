// The shared idempotent write (issue 30): a keyed write whose key nobody holds sends one statement
// before its work (the key's lock and its stored answer together; each statement is a hop through the
// event loop while the transaction holds a connection and its row locks, docs/performance.md), and a
// retry that races the first past that statement answers the first's answer, not a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
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

const key = () => `iw-${crypto.randomUUID()}`;

describe('idempotentWrite', () => {
  it('a free key is one statement before the work; the work, then the stored key', async () => {
    const log: string[] = [];
    const deps = counting(log);
    const idempotencyKey = key();
    const answer = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('work');
      return { response: { ok: 1 } };
    });
    expect(answer).toEqual({ ok: 1 });
    expect(log).toEqual(['execute', 'work', 'insert']);
    // The retry: one statement, which finds the stored answer; the work does not run.
    log.length = 0;
    const again = await idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('work');
      return { response: { ok: 2 } };
    });
    expect(again).toEqual({ ok: 1 });
    expect(log).toEqual(['execute']);
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

  it('a retry sent while the first is under way on this node waits for it without a statement, then answers its answer', async () => {
    const log: string[] = [];
    const deps = counting(log);
    const idempotencyKey = key();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inWork!: () => void;
    const working = new Promise<void>((r) => (inWork = r));
    const first = idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('first works');
      inWork();
      await gate;
      return { response: { ok: 1 } };
    });
    await working;
    const retry = idempotentWrite(deps, auth, 'stock/adjust', { idempotencyKey, n: 1 }, async () => {
      log.push('retry works');
      return { response: { ok: 2 } };
    });
    await new Promise((r) => setTimeout(r, 100));
    // While the first is under way the retry sends nothing: no transaction, no connection waiting on the key's lock.
    expect(log).toEqual(['execute', 'first works']);
    release();
    expect(await first).toEqual({ ok: 1 });
    expect(await retry).toEqual({ ok: 1 });
    expect(log).toEqual(['execute', 'first works', 'insert', 'execute']);
  });

  it('a retry of a refused write, sent while it was under way, is refused the same way by its own work', async () => {
    const log: string[] = [];
    const deps = counting(log);
    const idempotencyKey = key();
    const refuse = async (): Promise<never> => {
      log.push('work');
      await new Promise((r) => setTimeout(r, 20));
      throw badInput('Only 0 left');
    };
    const both = await Promise.allSettled([
      idempotentWrite(deps, auth, 'stock/move', { idempotencyKey }, refuse),
      idempotentWrite(deps, auth, 'stock/move', { idempotencyKey }, refuse),
    ]);
    expect(both.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'answered'))).toEqual(['Only 0 left', 'Only 0 left']);
    // One after the other, never both at once.
    expect(log.filter((l) => l === 'work')).toHaveLength(2);
  });
});
