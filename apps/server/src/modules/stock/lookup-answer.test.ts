/*
 * lookupAnswer (lookup-repository.ts) puts the answer together from the statement's rows: grouping,
 * the groups' text and their exact quantities. Here without a database, on rows as PostgreSQL sends
 * them; lookup.test.ts runs the statement itself on both databases.
 */
import { describe, expect, it } from 'vitest';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { lookupAnswer } from './lookup-repository.ts';

type Row = Parameters<typeof lookupAnswer>[0][number];

/** A row of the statement: a record of item `item` at location `loc`, its quantity as numeric(15,4) text. */
function row(item: string, loc: string, quantity: string, matched = 'partNumber'): Row {
  return {
    matched,
    itemId: item,
    partNumber: `P-${item}`,
    description: `Item "${item}"\n\\`,
    uom: 'ea',
    tracking: 'none',
    department: null,
    warehouseId: 'w1',
    warehouse: 'MAIN',
    locationId: loc,
    location: `L-${loc}`,
    quantity,
    rec: JSON.stringify({ _id: `${item}-${loc}-${quantity}`, quantity: Number(quantity) }),
  };
}

/** numeric(15,4) text of a quantity in units of 1/10,000, as PostgreSQL writes it. */
const text = (units: bigint) => {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  return `${negative ? '-' : ''}${abs / 10_000n}.${(abs % 10_000n).toString().padStart(4, '0')}`;
};

/** A deterministic pseudo-random generator (no flaky seeds). */
function lcg(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe('lookupAnswer', () => {
  it('groups records by item and place where the first of each comes, as compact JSON in the contract order', () => {
    const rows = [row('a', '1', '1.0000'), row('b', '1', '2.5000'), row('a', '2', '3.0000'), row('a', '1', '0.1000')];
    const json = lookupAnswer(rows, 500);
    const parsed = JSON.parse(json);
    expect(json).toBe(JSON.stringify(parsed));
    expect(Object.keys(parsed)).toEqual(['matchedAs', 'groups', 'rowCount', 'more']);
    expect(Object.keys(parsed.groups[0])).toEqual([
      ...['itemId', 'partNumber', 'description', 'uom', 'tracking', 'department'],
      ...['warehouseId', 'warehouse', 'locationId', 'location', 'quantity', 'records'],
    ]);
    expect(parsed.matchedAs).toEqual(['partNumber']);
    expect(
      parsed.groups.map((g: { itemId: string; locationId: string; quantity: number; records: unknown[] }) => [
        g.itemId,
        g.locationId,
        g.quantity,
        g.records.length,
      ]),
    ).toEqual([
      ['a', '1', 1.1, 2],
      ['b', '1', 2.5, 1],
      ['a', '2', 3, 1],
    ]);
    expect(parsed.groups[0]!.description).toBe('Item "a"\n\\');
    expect([parsed.rowCount, parsed.more]).toEqual([4, false]);
  });

  it('gives every group its own item and place, however the rows run (sorted by place, by part number, or mixed)', () => {
    // Checked against grouping done the plain way, on runs of rows that share the item, the place
    // (a warehouse and a location), both, or neither, in every order: no group may get another's
    // item, place or records.
    const random = lcg(7);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    for (let trial = 0; trial < 300; trial++) {
      const rows: Row[] = [];
      let item = 'a';
      let wh = 'w1';
      let loc = '1';
      for (let n = 1 + Math.floor(random() * 30); n > 0; n--) {
        const change = pick(['none', 'item', 'place', 'both', 'warehouse']);
        if (change === 'item' || change === 'both') item = pick(['a', 'b', 'c']);
        if (change === 'place' || change === 'both') loc = pick(['1', '2', '3']);
        if (change === 'warehouse') wh = pick(['w1', 'w2']);
        rows.push({ ...row(item, loc, `${1 + Math.floor(random() * 9)}.0000`), warehouseId: wh, warehouse: `WH-${wh}` });
      }
      const expected = new Map<string, Record<string, unknown> & { quantity: number; records: unknown[] }>();
      for (const r of rows) {
        const key = JSON.stringify([r.itemId, r.warehouseId, r.locationId]);
        const { matched: _matched, quantity, rec, ...head } = r;
        const group = expected.get(key) ?? { ...head, quantity: 0, records: [] };
        group.quantity += Number(quantity);
        group.records.push(JSON.parse(rec!));
        expected.set(key, group);
      }
      const json = lookupAnswer(rows, 500);
      expect(json, JSON.stringify(rows.map((r) => [r.itemId, r.warehouseId, r.locationId]))).toBe(
        JSON.stringify({ matchedAs: ['partNumber'], groups: [...expected.values()], rowCount: rows.length, more: false }),
      );
    }
  });

  it('lists maxRows records and says there are more when the statement sent one past them', () => {
    const rows = [row('a', '1', '1.0000'), row('a', '1', '2.0000'), row('a', '1', '4.0000')];
    const parsed = JSON.parse(lookupAnswer(rows, 2));
    expect([parsed.rowCount, parsed.more, parsed.groups[0].quantity]).toEqual([2, true, 3]);
  });

  it('answers what matched, in the contract order, when no stock does', () => {
    const none = { ...row('a', '1', '0.0000', 'barcode,location'), itemId: null, locationId: null, quantity: null, rec: null };
    expect(JSON.parse(lookupAnswer([none], 500))).toEqual({ matchedAs: ['location', 'barcode'], groups: [], rowCount: 0, more: false });
    expect(JSON.parse(lookupAnswer([{ ...none, matched: null }], 500)).matchedAs).toEqual([]);
  });

  it('sums quantities exactly, as decimal arithmetic on bigints would, then rounds once', () => {
    const random = lcg(20261129);
    const max = 10n ** 15n - 1n;
    for (let trial = 0; trial < 2_000; trial++) {
      const n = 1 + Math.floor(random() * 40);
      // Small, fractional, and near numeric(15,4)'s largest: sums below and beyond 2^53 units.
      const scale = [10_000, 10 ** 8, 10 ** 15][trial % 3]!;
      const units = Array.from({ length: n }, () => {
        const u = BigInt(Math.floor(random() * scale));
        return u > max ? max : u;
      });
      const rows = units.map((u) => row('a', '1', text(u)));
      const expected = Number(formatQty(units.reduce((s, u) => s + qtyUnits(text(u)), 0n)));
      expect(JSON.parse(lookupAnswer(rows, 500)).groups[0].quantity, units.map(text).join(' + ')).toBe(expected);
    }
  });
});
