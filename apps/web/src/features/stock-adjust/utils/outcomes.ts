import { formatQty, qtyUnits } from '@floorhand/contract/quantity';
import { STOCK_RULE_MESSAGES, adjustRule, moveRule, splitRule, type StockRuleProblem } from '@floorhand/contract/stock-rules';
import { readQtyInput } from '../../../lib/inventory-format.ts';

// What a change would do to a record, worked out before it is sent: the preview under each form and
// the numbers of the confirmation. The rules are the contract's (stock-rules.ts), the ones the server
// checks again; this only reads the typed text and shapes the preview.

export type AdjustMode = 'add' | 'remove' | 'set';
/** A refusal's message is a translation key; `values` fill its placeholders. */
type Refusal = { ok: false } & StockRuleProblem;
export type Outcome<T> = ({ ok: true } & T) | Refusal;

const num = (units: bigint) => Number(formatQty(units));
const unitOf = (current: number, serial: boolean, uom: string | undefined) => ({ have: qtyUnits(current), serial, uom });

/** An adjustment: add or remove a quantity (deltaType delta) or set a new one (absolute). */
export function adjustOutcome(
  current: number,
  mode: AdjustMode,
  text: string,
  serial: boolean,
  uom?: string,
): Outcome<{ qty: string; after: number }> {
  const input = readQtyInput(text);
  if (!input.ok) return input;
  // The typed quantity is unsigned: the mode says which way it goes.
  if (input.units < 0n) return { ok: false, message: STOCK_RULE_MESSAGES.negative };
  const qty = mode === 'remove' ? -input.units : input.units;
  const rule = adjustRule(unitOf(current, serial, uom), mode === 'set' ? 'absolute' : 'delta', qty);
  if (!rule.ok) return rule;
  // The qty sent: signed for a delta, the new quantity for an absolute adjustment.
  return { ok: true, qty: formatQty(qty), after: num(rule.after) };
}

/** A move of all (blank) or part of a record. */
export function moveOutcome(
  current: number,
  text: string,
  serial: boolean,
  uom?: string,
): Outcome<{ qty?: string; moved: number; left: number; whole: boolean }> {
  const unit = unitOf(current, serial, uom);
  const blank = text.trim() === '';
  const input = blank ? undefined : readQtyInput(text);
  if (input && !input.ok && unit.have > 0n) return input;
  const rule = moveRule(unit, input?.ok ? input.units : undefined);
  if (!rule.ok) return rule;
  const moved = { moved: num(rule.qty), left: num(unit.have - rule.qty), whole: rule.whole };
  return blank ? { ok: true, ...moved } : { ok: true, qty: formatQty(rule.qty), ...moved };
}

/** A split: part of the quantity leaves for a new record; some must stay. */
export function splitOutcome(current: number, text: string, serial: boolean, uom?: string): Outcome<{ qty: string; remaining: number }> {
  if (serial) return { ok: false, message: STOCK_RULE_MESSAGES.serialDivided };
  const input = readQtyInput(text);
  if (!input.ok) return input;
  const rule = splitRule(unitOf(current, serial, uom), input.units);
  if (!rule.ok) return rule;
  return { ok: true, qty: formatQty(input.units), remaining: num(rule.remaining) };
}
