import { showQty } from '../../../lib/inventory-format.ts';
import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import type { AdjustType } from '../hooks/use-stock-adjust-prefs.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * What a scan means on Stock Adjust, in each of its states (docs/scanning.md). The scan router
 * brings every scan here whatever has the focus (the quantity prompt, the Reason select, the Stock
 * id field); this table decides. A scan is a wedge, camera or image-file read; an entry typed into
 * the Stock id field and ended with Enter comes here too, as `typedInLookup`.
 *
 * | state                           | scan                            | meaning                                           |
 * |---------------------------------|---------------------------------|---------------------------------------------------|
 * | no record open                  | anything                        | open the record it names                          |
 * | Move waits for its destination  | a scan (not typed in Stock id)  | the destination; a quantity typed stays           |
 * | a quantity typed, not confirmed | anything, typed in Stock id too | refused: confirm or cancel the quantity of S first |
 * | record open, nothing typed      | anything                        | open the record it names (the same one: reloaded) |
 *
 * "Typed" is the chosen form's quantity field holding something other than what its prompt proposed
 * (`isTyped`): opening another record would throw it away, so the worker confirms it (Enter) or
 * cancels it (Escape) first; the scan is never typed anywhere. A Stock id typed by hand is a record
 * even while Move waits for a destination: the worker chose that field to say which record.
 */
export type AdjustScanState =
  | { kind: 'none' }
  | {
      kind: 'record';
      stockId: string;
      /** Move is chosen and the next scan is its destination ("Scan the destination location"). */
      waitsForDest: boolean;
      /** The chosen form's quantity holds something the worker typed and has not confirmed. */
      typed: boolean;
    };

export type AdjustScanMeaning = { kind: 'open' } | { kind: 'destination' } | Refused;

export const CONFIRM_QTY_FIRST = tk('Confirm or cancel the quantity of {{stockId}} first');

export function adjustScanMeaning(state: AdjustScanState, typedInLookup: boolean): AdjustScanMeaning {
  if (state.kind === 'none') return { kind: 'open' };
  if (state.waitsForDest && !typedInLookup) return { kind: 'destination' };
  if (state.typed) return refused(CONFIRM_QTY_FIRST, { stockId: state.stockId });
  return { kind: 'open' };
}

/** The chosen form's quantity field: what it holds, and what its prompt proposed when it opened. */
export interface QtyField {
  text: string;
  proposed: string;
}

/**
 * What a quantity prompt proposes, selected so digits replace it: Set to, the record's quantity (the
 * worker types the new one, or confirms that it is right); add, remove, move and split nothing (an
 * amount to add or split off has no likely value, and an empty move moves the whole record).
 */
export function proposedQty(action: AdjustType, setTo: boolean, quantity: number): QtyField {
  const text = action === 'adjust' && setTo ? showQty(quantity) : '';
  return { text, proposed: text };
}

/** Something the worker typed and would lose: not empty, and not the proposal left as it was. */
export const isTyped = ({ text, proposed }: QtyField): boolean => text.trim() !== '' && text !== proposed;
