import { APP_SETTINGS_DEFAULTS, appSettingsSchema, type AppSettings } from './site-admin.ts';
import { formatQty, wholeUnitsOnly } from './quantity.ts';
import { tk } from './i18n.ts';

// The rules of a stock change as plain functions of their inputs, with one set of messages: the
// server's ledger refuses what they refuse (inside the change's transaction, on the locked record),
// the web's forms show the same refusal before sending. Quantities are units of 1/10000 (quantity.ts).

const ONE = 10_000n;

/**
 * Why a quantity is refused, as a phrase without a label: the web shows it under its Quantity field
 * (a translation key; `values` fill its {{placeholders}}), the server prefixes what it is about
 * ("The quantity to move …").
 */
export interface StockRuleProblem {
  message: string;
  values?: Record<string, string>;
}
export type StockRuleOutcome<T> = ({ ok: true } & T) | ({ ok: false } & StockRuleProblem);

/** The phrases of the stock rules, the only copy of them. */
export const STOCK_RULE_MESSAGES = {
  negative: tk('must not be negative'),
  notPositive: tk('must be greater than 0'),
  unchanged: tk('leaves the quantity unchanged'),
  wouldLeave: tk('would leave {{after}}: only {{have}} is on hand'),
  moreThanOnHand: tk('is more than the {{have}} on hand'),
  lessThanOnHand: tk('must be less than the {{have}} on hand'),
  serialZeroOrOne: tk('must leave a serial-tracked unit at 0 or 1'),
  serialDivided: tk('cannot divide a serial-tracked unit'),
  nothingToMove: tk('has no quantity to move'),
  wholeUnits: tk('must be a whole number: {{uom}} is counted in whole units'),
} as const;

/** A problem's phrase with its placeholders filled ("is more than the 10 on hand"). */
export const ruleText = (p: StockRuleProblem): string => p.message.replace(/\{\{(\w+)\}\}/g, (_, key: string) => p.values?.[key] ?? '');

/** What the rules need to know of a stock record. */
export interface StockUnit {
  /** Units on hand. */
  have: bigint;
  /** Whether it is one serial-tracked unit (its quantity is 0 or 1, never divided). */
  serial: boolean;
  /** The item's unit of measure (whole units only for EA, BOX, …). */
  uom?: string | null;
}

const refuse = (message: string, values?: Record<string, string>): { ok: false } & StockRuleProblem =>
  values ? { ok: false, message, values } : { ok: false, message };

/** A fraction of an item counted in whole units (EA, BOX, …), or undefined. */
export function wholeUnitsProblem(uom: string | null | undefined, units: bigint): ({ ok: false } & StockRuleProblem) | undefined {
  if (units % ONE === 0n || !wholeUnitsOnly(uom)) return undefined;
  return refuse(STOCK_RULE_MESSAGES.wholeUnits, { uom: (uom ?? '').trim().toUpperCase() });
}

/** The same problem as a phrase ("must be a whole number: EA is counted in whole units"), or undefined. */
export function wholeUnitsMessage(uom: string | null | undefined, units: bigint): string | undefined {
  const problem = wholeUnitsProblem(uom, units);
  return problem && ruleText(problem);
}

/** An adjustment: `qty` is added (delta, may be negative) or is the new quantity (absolute). */
export function adjustRule(unit: StockUnit, deltaType: 'delta' | 'absolute', qty: bigint): StockRuleOutcome<{ after: bigint }> {
  if (deltaType === 'absolute' && qty < 0n) return refuse(STOCK_RULE_MESSAGES.negative);
  const fraction = wholeUnitsProblem(unit.uom, qty);
  if (fraction) return fraction;
  const after = deltaType === 'delta' ? unit.have + qty : qty;
  if (after === unit.have) return refuse(STOCK_RULE_MESSAGES.unchanged);
  if (after < 0n) return refuse(STOCK_RULE_MESSAGES.wouldLeave, { after: formatQty(after), have: formatQty(unit.have) });
  if (unit.serial && after !== 0n && after !== ONE) return refuse(STOCK_RULE_MESSAGES.serialZeroOrOne);
  return { ok: true, after };
}

/** A move of all (no qty) or part of a record; `whole` when all of it moves. */
export function moveRule(unit: StockUnit, qty: bigint | undefined): StockRuleOutcome<{ qty: bigint; whole: boolean }> {
  if (unit.have <= 0n) return refuse(STOCK_RULE_MESSAGES.nothingToMove);
  const moved = qty ?? unit.have;
  if (moved <= 0n) return refuse(STOCK_RULE_MESSAGES.notPositive);
  if (moved > unit.have) return refuse(STOCK_RULE_MESSAGES.moreThanOnHand, { have: formatQty(unit.have) });
  if (moved === unit.have) return { ok: true, qty: moved, whole: true };
  if (unit.serial) return refuse(STOCK_RULE_MESSAGES.serialDivided);
  return wholeUnitsProblem(unit.uom, moved) ?? { ok: true, qty: moved, whole: false };
}

/** A split: `qty` leaves for a new record in the same place; some must stay. */
export function splitRule(unit: StockUnit, qty: bigint): StockRuleOutcome<{ remaining: bigint }> {
  if (unit.serial) return refuse(STOCK_RULE_MESSAGES.serialDivided);
  if (qty <= 0n) return refuse(STOCK_RULE_MESSAGES.notPositive);
  if (qty >= unit.have) return refuse(STOCK_RULE_MESSAGES.lessThanOnHand, { have: formatQty(unit.have) });
  return wholeUnitsProblem(unit.uom, qty) ?? { ok: true, remaining: unit.have - qty };
}

export type StockAdjustSettings = AppSettings['stockAdjust'];

/** app_settings' stockAdjust section (its adjustment reasons), or the defaults where it is missing or broken. */
export function readStockAdjustSettings(appSettings: unknown): StockAdjustSettings {
  const raw = (appSettings as { stockAdjust?: unknown } | undefined)?.stockAdjust;
  const parsed = appSettingsSchema.shape.stockAdjust.safeParse(raw);
  return parsed.success ? parsed.data : { ...APP_SETTINGS_DEFAULTS.stockAdjust };
}

/** The adjustment reason `reason` is one of the site's, or the refusal's message. */
export function reasonProblem(reasons: readonly string[], reason: string): string | undefined {
  return reasons.includes(reason) ? undefined : tk(`The reason '${reason}' is not one of the adjustment reasons: ${reasons.join(', ')}`);
}
