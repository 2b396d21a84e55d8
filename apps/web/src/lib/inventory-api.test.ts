import { describe, expect, it, vi } from 'vitest';
import { inventoryKeys, isAffected } from './inventory-api.ts';

vi.mock('./session.ts', () => ({ realtime: { on: () => () => true } }));

const ev = { stockIds: ['S000000001'], locationIds: ['loc-1'] };

describe('which queries a stockChanged event refreshes', () => {
  it('every lookup and location list', () => {
    expect(isAffected(inventoryKeys.lookup({ value: 'FH-10001' }), undefined, ev)).toBe(true);
    expect(isAffected(inventoryKeys.locations({ warehouse: 'MAIN' }), undefined, ev)).toBe(true);
  });

  it('a stock record only when it is named', () => {
    expect(isAffected(inventoryKeys.stock('S000000001'), undefined, ev)).toBe(true);
    expect(isAffected(inventoryKeys.stock('S000000002'), undefined, ev)).toBe(false);
  });

  it('a location only when its id is named', () => {
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-1'), { location: { _id: 'loc-1' } }, ev)).toBe(true);
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-2'), { location: { _id: 'loc-2' } }, ev)).toBe(false);
    expect(isAffected(inventoryKeys.location('MAIN', 'A-01-3'), undefined, ev)).toBe(false);
  });

  it('nothing else', () => {
    expect(isAffected(inventoryKeys.warehouses, undefined, ev)).toBe(false);
    expect(isAffected(['admin', 'accounts'], undefined, ev)).toBe(false);
  });
});
