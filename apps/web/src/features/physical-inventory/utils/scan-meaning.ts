import { refused, type Refused } from '../../../lib/scanning/meaning.ts';

/**
 * What a scan means on the counting screen, in each of its states (docs/scanning.md). The scan router
 * (lib/scanning/keyboard-wedge.ts) brings every scan here whatever has the focus; this table, not the
 * focus, decides what it does.
 *
 * | state                          | scan                          | meaning                                   |
 * |--------------------------------|-------------------------------|-------------------------------------------|
 * | quantity prompt open for L     | L again                       | one more unit (counting by scanning)      |
 * | quantity prompt open for L     | anything else                 | refused: confirm or cancel L's count first |
 * | no prompt                      | a location of the sheet       | the location step                          |
 * | no prompt, no location yet     | anything else                 | refused: scan a location first             |
 * | no prompt, at a location       | anything else                 | a stock label (known, or found stock)      |
 */
export type CountScanState = {
  /** The location being counted, once one was scanned. */
  location: string | null;
  /** The label whose quantity the prompt asks, while it is open. */
  prompt: string | null;
};

export type CountScanMeaning =
  | { kind: 'location' }
  | { kind: 'label' }
  | { kind: 'oneMore' }
  | Refused;

/** Names the refused scan too: the log shows which of several scans was not taken. */
export const CONFIRM_COUNT_FIRST = '{{text}}: confirm or cancel the count of {{label}} first';
export const LOCATION_FIRST = '{{text}}: scan a location of the sheet first';

export function countScanMeaning(state: CountScanState, code: string, isSheetLocation: boolean): CountScanMeaning {
  if (state.prompt !== null) {
    if (code === state.prompt) return { kind: 'oneMore' };
    return refused(CONFIRM_COUNT_FIRST, { text: code, label: state.prompt });
  }
  if (isSheetLocation) return { kind: 'location' };
  if (state.location === null) return refused(LOCATION_FIRST, { text: code });
  return { kind: 'label' };
}

export const TYPE_THE_COUNT = '{{label}}: type the quantity; a count that is not a whole number does not go up by scanning';

/**
 * The prompt's quantity after one more unit was scanned: the field's whole number plus one (an empty
 * field counts as 1, the scan that opened the prompt); undefined when the field holds something else.
 */
export function oneMore(qtyText: string): string | undefined {
  if (qtyText.trim() === '') return '2';
  return /^\s*\d{1,9}\s*$/.test(qtyText) ? String(Number(qtyText) + 1) : undefined;
}
