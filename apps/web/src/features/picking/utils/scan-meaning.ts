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
 */
export type PickStep = { kind: 'location' } | { kind: 'stock'; location: string } | { kind: 'qty'; location: string; scan: string };

export type PickScanMeaning = { kind: 'location' } | { kind: 'stock'; location: string } | Refused;

export const CONFIRM_PICK_FIRST = tk('Confirm or cancel the quantity of {{label}} first');
export const PICK_SCANNED_ALREADY = tk('{{label}} is scanned already: confirm the quantity, or type another');

export function pickScanMeaning(step: PickStep, code: string): PickScanMeaning {
  if (step.kind === 'location') return { kind: 'location' };
  if (step.kind === 'stock') return { kind: 'stock', location: step.location };
  if (code === step.scan) return refused(PICK_SCANNED_ALREADY, { label: step.scan });
  return refused(CONFIRM_PICK_FIRST, { label: step.scan });
}
