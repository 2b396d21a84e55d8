/*
 * stock/lookup's answer is JSON the server writes without its serializer: each record's by PostgreSQL,
 * the groups and the rest by lookupAnswer (lookup-repository.ts). These tests run it on the test
 * database (PGlite, or PostgreSQL with DATABASE_URL) with CHECK_RESPONSES=all, the test default: every
 * answer is also parsed, checked against the contract's schema and serialised again, and a byte of
 * difference is a 500. So each `200` here also says the JSON is exactly what the contract's
 * serializer writes (property order, escaping, number text).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { call, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { tokenFor } from '../../test/logins.ts';
import { query } from '../../db/sql.ts';

let t: TestApp;
let clerk: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await tokenFor(t.app, 'clerk');
});
afterAll(() => t?.close());

const rows = (q: ReturnType<typeof sql>) => query<Record<string, unknown>>(t.db, q);

/**
 * A new item (a copy of a demo item) with records of these quantities, written with SQL (the API
 * would refuse some of these magnitudes), alternating between two locations when `twoPlaces`.
 */
async function itemWith(quantities: string[], opts: { description?: string; twoPlaces?: boolean } = {}): Promise<string> {
  const part = `LKT-${++n}`;
  const itemId = `lkt-item-${n}`;
  await t.db.execute(sql`CREATE TEMP TABLE IF NOT EXISTS lkt_item AS SELECT * FROM items WITH NO DATA`);
  await t.db.execute(sql`DELETE FROM lkt_item`);
  await t.db.execute(sql`INSERT INTO lkt_item SELECT * FROM items WHERE org_id = 'demo' AND tracking = 'none' ORDER BY id LIMIT 1`);
  await t.db.execute(sql`UPDATE lkt_item SET id = ${itemId}, part_number = ${part}, description = ${opts.description ?? part}`);
  await t.db.execute(sql`INSERT INTO items SELECT * FROM lkt_item`);
  const places = await rows(sql`SELECT id, warehouse_id FROM locations WHERE org_id = 'demo' AND active ORDER BY code LIMIT 2`);
  await t.db.execute(sql`CREATE TEMP TABLE IF NOT EXISTS lkt_stock AS SELECT * FROM stock_records WITH NO DATA`);
  for (const [i, q] of quantities.entries()) {
    const place = places[opts.twoPlaces ? i % 2 : 0]!;
    await t.db.execute(sql`DELETE FROM lkt_stock`);
    await t.db.execute(sql`INSERT INTO lkt_stock SELECT * FROM stock_records WHERE org_id = 'demo' ORDER BY id LIMIT 1`);
    await t.db.execute(
      sql`UPDATE lkt_stock SET id = ${`lkt-${n}-${i}`}, stock_id = ${`LKT${n}S${String(i).padStart(4, '0')}`}, item_id = ${itemId}, quantity = ${q}::numeric,
        location_id = ${place.id as string}, warehouse_id = ${place.warehouse_id as string}, serial = NULL, lot = NULL`,
    );
    await t.db.execute(sql`INSERT INTO stock_records SELECT * FROM lkt_stock`);
  }
  return part;
}

const lookup = (value: string, extra: Record<string, unknown> = {}) => call(t.app, 'stock/lookup', { value, ...extra }, clerk);

/** What the sum must be: exact decimal arithmetic on bigint units. */
const exact = (quantities: string[]) => Number(formatQty(quantities.reduce((s, q) => s + qtyUnits(q), 0n)));

describe('stock/lookup, the answer written without the serializer', () => {
  it('sums stored quantities exactly, as decimal arithmetic would, and lists each as stored', async () => {
    const cases = [
      ['0.1000', '0.2000'],
      ['0.0001', '0.0002', '0.0003'],
      ['12345678901.2345', '0.0001'],
      ['99999999999.9999', '99999999999.9999'],
      Array.from({ length: 100 }, (_, i) => `${i}.${String((i * 7919) % 10_000).padStart(4, '0')}`),
      // Beyond 2^53 units.
      Array.from({ length: 20 }, () => '99999999999.9999'),
      ['12345678900.0007', '0.0000'],
    ];
    for (const quantities of cases) {
      const part = await itemWith(quantities);
      const res = await lookup(part, { showZeroQty: true });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      const [group] = res.body.groups!;
      expect(group!.quantity, quantities.slice(0, 3).join(' + ')).toBe(exact(quantities));
      expect(group!.records.map((r) => r.quantity)).toEqual(quantities.map(Number));
    }
  });

  it('groups by item and place where the first record of each comes, in the lookup order', async () => {
    const part = await itemWith(['1', '2', '3', '4'], { twoPlaces: true });
    const res = await lookup(part, { sort: 'stockId', desc: true });
    expect(res.status).toBe(200);
    expect(res.body.matchedAs).toEqual(['partNumber']);
    const groups = res.body.groups!;
    expect(groups.map((g) => [g.quantity, g.records.map((r) => r.quantity)])).toEqual([
      [6, [4, 2]],
      [4, [3, 1]],
    ]);
    expect(res.body.rowCount).toBe(4);
    expect(res.body.more).toBe(false);
  });

  it('says there are more past maxRows, and counts only what it lists', async () => {
    const part = await itemWith(['1', '2', '3']);
    const res = await lookup(part, { maxRows: 2, sort: 'stockId' });
    expect(res.status).toBe(200);
    expect(res.body.rowCount).toBe(2);
    expect(res.body.more).toBe(true);
    expect(res.body.groups!.flatMap((g) => g.records.map((r) => r.quantity))).toEqual([1, 2]);
    expect(res.body.groups![0]!.quantity).toBe(3);
  });

  it('writes text as JSON.stringify does: quotes, backslashes, control characters, other scripts', async () => {
    const description = 'Bolt "M8" \\ tab\there\nline \u0001 é ✓ 𝄞 </script>';
    const part = await itemWith(['5'], { description });
    const res = await lookup(part);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.groups![0]!.description).toBe(description);
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/stock/lookup',
      headers: { authorization: `Bearer ${clerk}` },
      payload: { ...DEMO_BASE, value: part },
    });
    expect(raw.body).toBe(JSON.stringify(JSON.parse(raw.body)));
  });

  it('answers an empty list, and what matched, when no stock does', async () => {
    const none = await lookup('NO-SUCH-CODE-ANYWHERE');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ matchedAs: [], groups: [], rowCount: 0, more: false });
    const part = await itemWith(['0']);
    const empty = await lookup(part);
    expect(empty.body).toEqual({ matchedAs: ['partNumber'], groups: [], rowCount: 0, more: false });
  });
});
