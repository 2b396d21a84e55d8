import { formatQty, qtyUnits, wholeUnitsOnly } from '@floorhand/contract/quantity';
import { readQtyInput } from '../../../lib/inventory-format.ts';

// What a change would do to a record, worked out before it is sent: the preview under each form and
// the numbers of the confirmation. The server checks the same rules again; these only save a trip.

export type AdjustMode = 'add' | 'remove' | 'set';
/** A refusal's message is a translation key; `values` fill its placeholders. */
type Refusal = { ok: false; message: string; values?: Record<string, string> };
export type Outcome<T> = ({ ok: true } & T) | Refusal;

const num = (units: bigint) => Number(formatQty(units));

/** A fraction of an item counted in whole units (EA, BOX, …; the server's rule, wholeUnitProblem). */
const fractionOf = (units: bigint, uom: string | undefined): Refusal | undefined =>
  units % 10_000n !== 0n && wholeUnitsOnly(uom) ? { ok: false, message: 'must be a whole number: {{uom}} is counted in whole units', values: { uom: (uom ?? '').trim().toUpperCase() } } : undefined;

/** An adjustment: add or remove a quantity (deltaType delta) or set a new one (absolute). */
export function adjustOutcome(current: number, mode: AdjustMode, text: string, serial: boolean, uom?: string): Outcome<{ qty: string; after: number }> {
  const input = readQtyInput(text);
  if (!input.ok) return input;
  if (input.units < 0n) return { ok: false, message: 'must not be negative' };
  const fraction = fractionOf(input.units, uom);
  if (fraction) return fraction;
  const have = qtyUnits(current);
  const after = mode === 'set' ? input.units : mode === 'add' ? have + input.units : have - input.units;
  if (after === have) return { ok: false, message: 'leaves the quantity unchanged' };
  if (after < 0n) return { ok: false, message: 'is more than the {{have}} on hand', values: { have: formatQty(have) } };
  if (serial && after !== 0n && after !== 10_000n) return { ok: false, message: 'must leave a serial-tracked unit at 0 or 1' };
  // The qty sent: signed for a delta, the new quantity for an absolute adjustment.
  const qty = mode === 'set' ? formatQty(input.units) : formatQty(after - have);
  return { ok: true, qty, after: num(after) };
}

/** A move of all (blank) or part of a record. */
export function moveOutcome(current: number, text: string, serial: boolean, uom?: string): Outcome<{ qty?: string; moved: number; left: number; whole: boolean }> {
  const have = qtyUnits(current);
  if (have <= 0n) return { ok: false, message: 'has no quantity to move' };
  if (text.trim() === '') return { ok: true, moved: num(have), left: 0, whole: true };
  const input = readQtyInput(text);
  if (!input.ok) return input;
  if (input.units <= 0n) return { ok: false, message: 'must be greater than 0' };
  if (input.units > have) return { ok: false, message: 'is more than the {{have}} on hand', values: { have: formatQty(have) } };
  if (serial && input.units !== have) return { ok: false, message: 'cannot divide a serial-tracked unit' };
  const fraction = input.units === have ? undefined : fractionOf(input.units, uom);
  if (fraction) return fraction;
  return { ok: true, qty: formatQty(input.units), moved: num(input.units), left: num(have - input.units), whole: input.units === have };
}

/** A split: part of the quantity leaves for a new record; some must stay. */
export function splitOutcome(current: number, text: string, serial: boolean, uom?: string): Outcome<{ qty: string; remaining: number }> {
  if (serial) return { ok: false, message: 'cannot divide a serial-tracked unit' };
  const input = readQtyInput(text);
  if (!input.ok) return input;
  const have = qtyUnits(current);
  if (input.units <= 0n) return { ok: false, message: 'must be greater than 0' };
  if (input.units >= have) return { ok: false, message: 'must be less than the {{have}} on hand', values: { have: formatQty(have) } };
  const fraction = fractionOf(input.units, uom);
  if (fraction) return fraction;
  return { ok: true, qty: formatQty(input.units), remaining: num(have - input.units) };
}
