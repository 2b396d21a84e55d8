/*
 * Stock lookups that queue run together (lookup.ts stockLookups, lib/coalesce.ts): with a pool of one
 * connection, lookups sent at once wait behind the first and go to the database as one statement
 * (lookupBatchSql). Each must answer exactly what it answers alone, byte for byte, whatever the
 * others in its statement are; lookups with other options never share one; one that fails fails alone.
 * Runs on PGlite, or PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { calls } from '@floorhand/contract/api';
import { call, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { query } from '../../db/sql.ts';
import { lookupAnswer, lookupBatchStatement, lookupStatement, shapeOf, type LookupRow } from './lookup-repository.ts';

const lookupRequest = calls['stock/lookup'].body;

let t: TestApp;
let clerk: string;

beforeAll(async () => {
  t = await createTestApp({ DATABASE_POOL_SIZE: '1' });
  clerk = await tokenFor(t.app, 'clerk');
});
afterAll(() => t?.close());

const first = async (q: ReturnType<typeof sql>) => (await query<{ v: string }>(t.db, q)).map((r) => r.v);

type Lookup = Record<string, unknown> & { value: string };
/** A lookup's status and answer. */
const lookup = async (body: Lookup) => {
  const { status, body: answer } = await call(t.app, 'stock/lookup', body, clerk);
  return { status, answer };
};

/** The answers of `bodies` sent all at once. */
const together = (bodies: Lookup[]) => Promise.all(bodies.map(lookup));

/** floorhand_stock_lookups_per_statement's count (statements) and sum (lookups) from /metrics. */
async function statements(): Promise<{ statements: number; lookups: number }> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const read = (name: string) => Number(new RegExp(`^floorhand_stock_lookups_per_statement_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { statements: read('count'), lookups: read('sum') };
}

describe('stock/lookup, lookups that queue run together', () => {
  it('answers each lookup sent at once exactly as it answers it alone, in fewer statements', async () => {
    const values = [
      ...(await first(sql`SELECT stock_id AS v FROM stock_records WHERE org_id = 'demo' AND quantity > 0 ORDER BY stock_id LIMIT 3`)),
      ...(await first(sql`SELECT part_number AS v FROM items WHERE org_id = 'demo' ORDER BY part_number LIMIT 3`)),
      ...(await first(sql`SELECT barcode AS v FROM item_barcodes WHERE org_id = 'demo' ORDER BY barcode LIMIT 2`)),
      ...(await first(sql`SELECT code AS v FROM locations WHERE org_id = 'demo' ORDER BY code LIMIT 3`)),
      ...(await first(sql`SELECT number AS v FROM orders WHERE org_id = 'demo' ORDER BY number LIMIT 2`)),
      // No match; and text that JSON and SQL both escape, which the batched statement carries as a JSON array.
      'NO-SUCH-CODE',
      `quote " back\\slash ] ' ; -- é 漢字 🙂`,
      '["a","b"]',
    ];
    expect(values.length).toBeGreaterThan(12);
    const bodies = values.map((value) => ({ value }));
    const alone: unknown[] = [];
    for (const body of bodies) alone.push(await lookup(body));
    const before = await statements();
    const atOnce = await together([...bodies, ...bodies, ...bodies]);
    const after = await statements();
    atOnce.forEach((answer, i) => expect(answer, bodies[i % bodies.length]!.value).toEqual(alone[i % bodies.length]));
    expect(atOnce.every((a) => a.status === 200)).toBe(true);
    expect(after.lookups - before.lookups).toBe(3 * bodies.length);
    // Without running together every lookup is a statement of its own. PGlite runs each statement
    // to its end before the next request gets on, so nothing waits there.
    if (t.database.kind === 'postgres') expect(after.statements - before.statements).toBeLessThan((3 * bodies.length) / 2);

    // The batched statement itself, on either database: each value's rows, and its answer, as alone.
    const shape = shapeOf(lookupRequest.parse({ ...DEMO_BASE, value: 'x' }));
    const params = { orgId: 'demo', zeroQtyMonths: 3, maxRows: 500 };
    const many = await lookupBatchStatement(t.db, shape)(params, values);
    expect(many).toHaveLength(values.length);
    for (const [i, value] of values.entries()) {
      const one = await lookupStatement(t.db, shape)({ ...params, value });
      expect(
        many[i]!.map(({ n: _n, rn: _rn, ...row }: LookupRow & { n?: unknown; rn?: unknown }) => row),
        value,
      ).toEqual(one);
      expect(lookupAnswer(many[i]!, 500)).toBe(lookupAnswer(one, 500));
    }
  });

  it('never puts lookups with other options in one statement, and answers each as alone', async () => {
    const [location] = await first(
      sql`SELECT code AS v FROM locations l WHERE org_id = 'demo' AND EXISTS (SELECT 1 FROM stock_records sr WHERE sr.location_id = l.id AND sr.quantity > 0) ORDER BY code LIMIT 1`,
    );
    const [part] = await first(
      sql`SELECT i.part_number AS v FROM items i WHERE org_id = 'demo' AND EXISTS (SELECT 1 FROM stock_records sr WHERE sr.item_id = i.id AND sr.quantity > 0) ORDER BY part_number LIMIT 1`,
    );
    const bodies: Lookup[] = [
      { value: location! },
      { value: location!, sort: 'partNumber', desc: true },
      { value: location!, maxRows: 1 },
      { value: part! },
      { value: part!, showZeroQty: true },
      { value: part!, warehouse: 'NO-SUCH-WAREHOUSE' },
      { value: location!, sort: 'quantity' },
    ];
    const alone: unknown[] = [];
    for (const body of bodies) alone.push(await lookup(body));
    expect((alone[2] as { answer: { more: boolean } }).answer.more).toBe(true);
    const atOnce = await together([...bodies, ...bodies]);
    atOnce.forEach((answer, i) => expect(answer, JSON.stringify(bodies[i % bodies.length])).toEqual(alone[i % bodies.length]));
  });

  it('answers a lookup the database refuses on its own, and the others beside it as usual', async () => {
    const [part] = await first(sql`SELECT part_number AS v FROM items WHERE org_id = 'demo' ORDER BY part_number LIMIT 1`);
    // A NUL character: PostgreSQL's text cannot hold it, and the batched statement's JSON cannot carry it.
    const bad = { value: `A\u0000B` };
    const good = { value: part! };
    const badAlone = await lookup(bad);
    const goodAlone = await lookup(good);
    expect(badAlone.status).not.toBe(500);
    const atOnce = await together([good, good, bad, good, bad, good]);
    expect(atOnce.map((a) => a.status)).toEqual([200, 200, badAlone.status, 200, badAlone.status, 200]);
    for (const i of [0, 1, 3, 5]) expect(atOnce[i]).toEqual(goodAlone);
    expect(atOnce[2]!.answer).toEqual(badAlone.answer);
  });

  it.runIf(!!process.env.DATABASE_URL)('has JIT compiling off on the server’s PostgreSQL connections', async () => {
    expect(await first(sql`SELECT current_setting('jit') AS v`)).toEqual(['off']);
  });
});
