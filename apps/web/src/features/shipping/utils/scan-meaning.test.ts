import { describe, expect, it } from 'vitest';
import { boardScanMeaning, ISSUED_NOT_PACKED, packScanMeaning, SHIPPED_NOTHING_TO_PACK, START_PACKAGE_FIRST } from './scan-meaning.ts';

describe('what a scan means on the shipping screens', () => {
  it('on the pack board, opens the order', () => {
    expect(boardScanMeaning('SO-1')).toEqual({ kind: 'order', number: 'SO-1' });
  });

  it('on a pack screen, packs the stock into the open package', () => {
    expect(packScanMeaning({ production: false, packageId: 'p2' }, 'SO-1', 'S1')).toEqual({ kind: 'pack', packageId: 'p2' });
  });

  it('with no package open, refuses with what to do instead', () => {
    expect(packScanMeaning({ production: false, packageId: null }, 'SO-1', 'S1')).toEqual({
      kind: 'refused',
      message: START_PACKAGE_FIRST,
      params: {},
    });
  });

  it('on a shipped order with nothing left to pack, refuses: it is shipped', () => {
    expect(packScanMeaning({ production: false, packageId: null, shipped: true }, 'SO-1', 'S1')).toEqual({
      kind: 'refused',
      message: SHIPPED_NOTHING_TO_PACK,
      params: { number: 'SO-1' },
    });
  });

  it('on a production order, refuses: it is issued, not packed', () => {
    expect(packScanMeaning({ production: true, packageId: null }, 'WO-1', 'S1')).toEqual({
      kind: 'refused',
      message: ISSUED_NOT_PACKED,
      params: { number: 'WO-1' },
    });
  });

  it('on the pack screen of an order that does not exist, opens the scanned order, as the board does', () => {
    expect(packScanMeaning(null, 'SO-404', 'SO-1')).toEqual({ kind: 'order', number: 'SO-1' });
  });
});
