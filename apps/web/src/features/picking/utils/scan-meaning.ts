import { refused, type Refused } from '../../../lib/scanning/meaning.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * What a scan means on the pick screen of an order, in each step (docs/scanning.md). The scan router
 * brings every scan here whatever has the focus; this table decides.
 *
 * | step                                 | scan                | meaning                                           |
 * |--------------------------------------|---------------------|---------------------------------------------------|
 * | location (scan where to pick from)   | anything            | the location                                      |
 * | stock (at a location)                | anything            | the stock label or part number                    |
 * | quantity prompt open                 | the same label      | refused: the proposed quantity is already there   |
 * | quantity prompt open                 | anything else       | refused: confirm or cancel the quantity first     |
 * | no line the picker may pick          | anything            | refused: every line is picked, or the open ones   |
 * |                                      |                     | are someone else's (what the screen says)         |
 */
export type PickStep = { kind: 'location' } | { kind: 'stock'; location: string } | { kind: 'qty'; location: string; scan: string };

export type PickScanMeaning = { kind: 'location' } | { kind: 'stock'; location: string } | Refused;

export const CONFIRM_PICK_FIRST = tk('Confirm or cancel the quantity of {{label}} first');
export const PICK_SCANNED_ALREADY = tk('{{label}} is scanned already: confirm the quantity, or type another');
export const EVERY_LINE_PICKED = tk('Every line of this order is picked.');
export const OPEN_LINES_HELD = tk('The open lines are being picked by someone else.');

/** Why no line is up for the picker (`picked`: none open; `held`: the open ones are another picker's), as the screen says it. */
export const NO_LINE = { picked: EVERY_LINE_PICKED, held: OPEN_LINES_HELD } as const;
export type NoLine = keyof typeof NO_LINE;

export function pickScanMeaning(step: PickStep, code: string, noLine?: NoLine): PickScanMeaning {
  if (noLine) return refused(NO_LINE[noLine]);
  if (step.kind === 'location') return { kind: 'location' };
  if (step.kind === 'stock') return { kind: 'stock', location: step.location };
  if (code === step.scan) return refused(PICK_SCANNED_ALREADY, { label: step.scan });
  return refused(CONFIRM_PICK_FIRST, { label: step.scan });
}
