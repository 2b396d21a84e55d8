import { describe, expect, it } from 'vitest';
import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { groupStock } from './lookup.ts';

const row = (n: number, quantity: string, place = 'l1') => ({
  id: `id${n}`,
  stock_id: `S${n}`,
  rev: 1,
  quantity,
  condition_code: null,
  lot: null,
  serial: null,
  cert_source: null,
  received_date: null,
  changed_at: '2026-01-01T00:00:00.000Z',
  item_id: 'i1',
  part_number: 'P1',
  description: 'd',
  uom: 'EA',
  department: null,
  tracking: 'none' as const,
  warehouse_id: 'w1',
  warehouse: 'MAIN',
  location_id: place,
  location: place,
});

/** What the sum must be: exact decimal arithmetic on bigint units. */
const exact = (quantities: string[]) => Number(formatQty(quantities.reduce((s, q) => s + qtyUnits(q), 0n)));

describe('groupStock', () => {
  it('groups by item and location in the order of the rows', () => {
    const groups = groupStock([row(1, '1.0000', 'b'), row(2, '2.0000', 'a'), row(3, '3.0000', 'b')]);
    expect(groups.map((g) => [g.location, g.quantity, g.records.map((r) => r.stockId)])).toEqual([
      ['b', 4, ['S1', 'S3']],
      ['a', 2, ['S2']],
    ]);
  });

  it('sums stored quantities exactly, as decimal arithmetic would', () => {
    const cases = [
      ['0.1000', '0.2000'],
      ['0.0001', '0.0002', '0.0003'],
      ['12345678901.2345', '0.0001'],
      ['99999999999.9999', '99999999999.9999'],
      Array.from({ length: 100 }, (_, i) => `${i}.${String((i * 7919) % 10_000).padStart(4, '0')}`),
      // Beyond 2^53 units: summed again in bigint.
      Array.from({ length: 20 }, () => '99999999999.9999'),
    ];
    for (const quantities of cases) {
      const [group] = groupStock(quantities.map((q, i) => row(i, q)));
      expect(group!.quantity, quantities.slice(0, 3).join(' + ')).toBe(exact(quantities));
      expect(group!.records.map((r) => r.quantity)).toEqual(quantities.map(Number));
    }
    // Every four-decimal value of a range comes back as exactly its units.
    for (let units = 0; units < 200_000; units += 7) {
      const text = formatQty(BigInt(units) + 12_345_678_900_000n);
      const [group] = groupStock([row(0, text)]);
      expect(group!.quantity).toBe(Number(text));
    }
  });
});
