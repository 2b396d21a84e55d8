import { countAskSchema, foundStockHintSchema } from '@floorhand/contract/counts';
import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import { tk } from '@floorhand/contract/i18n';

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
 *
 * A "stock label" goes to `counts/record`, and the server says what it is (`labelAnswer` below): a stock
 * id, a serial on hand or an item barcode with one record here is counted (or asks its quantity); an
 * item barcode otherwise, or an unknown label, opens the found-stock form (filled with the part number
 * the barcode names); a location of the warehouse that is not on the sheet is refused with the server's
 * words ("… is not on the count sheet CS…"), never found stock. The screen knows only the sheet's own
 * location codes; the server knows every other code, at no cost to a known label.
 */
export type CountScanState = {
  /** The location being counted, once one was scanned. */
  location: string | null;
  /** The label whose quantity the prompt asks, while it is open. */
  prompt: string | null;
};

export type CountScanMeaning = { kind: 'location' } | { kind: 'label' } | { kind: 'oneMore' } | Refused;

/** Names the refused scan too: the log shows which of several scans was not taken. */
export const CONFIRM_COUNT_FIRST = tk('{{text}}: confirm or cancel the count of {{label}} first');
export const LOCATION_FIRST = tk('{{text}}: scan a location of the sheet first');

export function countScanMeaning(state: CountScanState, code: string, isSheetLocation: boolean): CountScanMeaning {
  if (state.prompt !== null) {
    if (code === state.prompt) return { kind: 'oneMore' };
    return refused(CONFIRM_COUNT_FIRST, { text: code, label: state.prompt });
  }
  if (isSheetLocation) return { kind: 'location' };
  if (state.location === null) return refused(LOCATION_FIRST, { text: code });
  return { kind: 'label' };
}

export const TYPE_THE_COUNT = tk('{{label}}: type the quantity; a count that is not a whole number does not go up by scanning');

/**
 * The prompt's quantity after one more unit was scanned: the field's whole number plus one (an empty
 * field counts as 1, the scan that opened the prompt); undefined when the field holds something else.
 */
export function oneMore(qtyText: string): string | undefined {
  if (qtyText.trim() === '') return '2';
  return /^\s*\d{1,9}\s*$/.test(qtyText) ? String(Number(qtyText) + 1) : undefined;
}

/** What the server's refusal of a label scan (`counts/record` with `stockId` only) means for the screen. */
export type LabelAnswer =
  { kind: 'quantity' } | { kind: 'found'; note: string | null; partNumber: string; serial: string } | { kind: 'refused'; message: string };

export const NEEDS_QTY = 'Enter the counted quantity';
const UNKNOWN_LABEL = /give its part number/;

function detailOf(detail: string | undefined): unknown {
  if (!detail) return undefined;
  try {
    return JSON.parse(detail);
  } catch {
    return undefined;
  }
}

/** A 400's message and detail, read: ask the quantity, open the found-stock form (filled), or refuse. */
export function labelAnswer(message: string, detail?: string): LabelAnswer {
  const parsed = detailOf(detail);
  // The detail says what is asked whatever the message's language; the English words are read too,
  // for a refusal from a server before the detail carried it.
  const ask = countAskSchema.safeParse(parsed).data?.ask;
  if (ask === 'qty' || message === NEEDS_QTY) return { kind: 'quantity' };
  const hint = foundStockHintSchema.safeParse(parsed).data?.found;
  if (hint) return { kind: 'found', note: message, partNumber: hint.partNumber ?? '', serial: hint.serial ?? '' };
  if (ask === 'partNumber' || UNKNOWN_LABEL.test(message)) return { kind: 'found', note: null, partNumber: '', serial: '' };
  return { kind: 'refused', message };
}
