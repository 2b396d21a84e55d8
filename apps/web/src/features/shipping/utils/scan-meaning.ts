import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * What a scan means on the shipping screens (docs/scanning.md). The scan router brings every scan here
 * whatever has the focus; these tables decide.
 *
 * The pack board:
 *
 * | state    | scan     | meaning                                                        |
 * |----------|----------|----------------------------------------------------------------|
 * | board    | anything | the order: its pack screen opens ("No order" when there is none) |
 *
 * An order's pack screen:
 *
 * | state                          | scan          | meaning                                             |
 * |--------------------------------|---------------|-----------------------------------------------------|
 * | no such order ("No order")     | anything      | the order: its pack screen opens, as on the board   |
 * | a production order             | anything      | refused: it is issued to production, not packed     |
 * | shipped, nothing left to pack  | anything      | refused: the order is shipped                       |
 * | no open package                | anything      | refused: start a package first                      |
 * | New package on its way         | anything      | held until it is open, then packed into it          |
 * | a package open (being packed)  | anything      | the stock label, packed into that package           |
 * | weight prompt open             | anything      | the same: packed; the Weight keeps what was typed   |
 *
 * The weight prompt does not change what a scan means: weighing a package and scanning stock into one
 * do not exclude each other (the router gives the field back what it held and swallows the Enter, so
 * nothing is saved), and a packer who puts one more item in the box before weighing loses nothing.
 */
export type BoardScanMeaning = { kind: 'order'; number: string };

export function boardScanMeaning(code: string): BoardScanMeaning {
  return { kind: 'order', number: code };
}

export interface PackScanState {
  /** The order is issued to production (WOS, MOS, RST), not packed. */
  production: boolean;
  /** The open package the scans go into (the chosen one, else the newest), if any. */
  packageId: string | null;
  /** Every package shipped and no picked stock left out of one: nothing more to pack (no New package either). */
  shipped?: boolean;
}

export type PackScanMeaning = { kind: 'pack'; packageId: string } | BoardScanMeaning | Refused;

export const START_PACKAGE_FIRST = tk('Start a package first, then scan the stock into it.');
export const ISSUED_NOT_PACKED = tk('{{number}} is issued to production, not packed.');
export const SHIPPED_NOTHING_TO_PACK = tk('{{number}} is shipped: nothing is left to pack.');
/** `state` null: the screen's order does not exist (or could not be read); `code` is what was scanned. */
export function packScanMeaning(state: PackScanState | null, order: string, code: string): PackScanMeaning {
  if (!state) return boardScanMeaning(code);
  if (state.production) return refused(ISSUED_NOT_PACKED, { number: order });
  if (state.packageId === null) return state.shipped ? refused(SHIPPED_NOTHING_TO_PACK, { number: order }) : refused(START_PACKAGE_FIRST);
  return { kind: 'pack', packageId: state.packageId };
}
