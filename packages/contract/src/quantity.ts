// Stock quantities are exact decimals: numeric(15,4) in the database, scaled bigints in arithmetic,
// never binary floating point. 15 significant digits fit a JavaScript number exactly when read back
// from decimal text, so answers carry plain numbers while every sum is done on integers of 1/10000.

import { tk } from './i18n.ts';

export const QTY_SCALE = 4;
const FACTOR = 10n ** BigInt(QTY_SCALE);
/** The largest quantity numeric(15,4) holds: 99,999,999,999.9999. */
export const QTY_MAX_UNITS = 10n ** 15n - 1n;
export const QTY_MAX_TEXT = '99999999999.9999';

export type QtyResult = { ok: true; units: bigint } | { ok: false; message: string };

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$|^([+-]?)\.(\d+)$/;
const EXPONENT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+$/;

/** Phrases after a field's name; keys with numbered holes, so a screen finds them again (`translateText`). */
export const QTY_MESSAGES = {
  number: tk('must be a number'),
  scale: tk(`must have at most ${QTY_SCALE} decimal places`),
  max: tk(`exceeds max value of ${QTY_MAX_TEXT}`),
} as const;

/**
 * A quantity as integer units of 1/10^QTY_SCALE. Accepts a finite number or decimal text (exponent
 * form too, as spreadsheets write it); refuses NaN, Infinity (JSON's 1e309), blanks, more than four
 * decimal places and magnitudes above QTY_MAX_TEXT. Messages are phrases without a label.
 */
export function parseQty(value: unknown): QtyResult {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, message: QTY_MESSAGES.number };
    if (Math.abs(value) >= 1e15) return { ok: false, message: QTY_MESSAGES.max };
    // Below 1e15, String() writes plain decimals except for magnitudes under 1e-6, all too precise.
    text = String(value);
    if (text.includes('e')) return { ok: false, message: QTY_MESSAGES.scale };
  } else if (typeof value === 'string') text = value.trim();
  else return { ok: false, message: QTY_MESSAGES.number };
  if (EXPONENT.test(text)) {
    // Decimal text is parsed correctly rounded and printed back shortest-first, so any value of at
    // most 15 significant digits comes back exact; anything smaller than 1e-6 prints as "1e-7".
    const n = Number(text);
    return Number.isFinite(n) ? parseQty(n) : { ok: false, message: QTY_MESSAGES.number };
  }
  const m = DECIMAL.exec(text);
  if (!m) return { ok: false, message: QTY_MESSAGES.number };
  const sign = m[1] ?? m[4] ?? '';
  const whole = m[2] ?? '0';
  const fraction = (m[3] ?? m[5] ?? '').replace(/0+$/, '');
  if (fraction.length > QTY_SCALE) return { ok: false, message: QTY_MESSAGES.scale };
  const magnitude = BigInt(whole) * FACTOR + BigInt(fraction.padEnd(QTY_SCALE, '0') || '0');
  if (magnitude > QTY_MAX_UNITS) return { ok: false, message: QTY_MESSAGES.max };
  return { ok: true, units: sign === '-' ? -magnitude : magnitude };
}

/**
 * Typed text with the locale's decimal separator made a point: where the locale writes 1,5 (an
 * Android keypad offers only a comma there), "1,5" is 1.5. Only a lone comma between digits is read
 * so; where the locale's separator is a point, a comma stays what it is (refused as no number, since
 * "1,500" could mean either).
 */
export function withDecimalPoint(text: string, decimalSeparator: string): string {
  const t = text.trim();
  return decimalSeparator === ',' && /^[+-]?\d*,\d+$/.test(t) ? t.replace(',', '.') : t;
}

/**
 * Decimal text ("12.5", as formatQty writes it) in the separator a screen shows numbers with: "12,5"
 * where it is a comma. The inverse of withDecimalPoint; thousands are never grouped.
 */
export const withDecimalSeparator = (text: string, decimalSeparator: string): string =>
  decimalSeparator === '.' ? text : text.replace('.', decimalSeparator);

/** Units as canonical decimal text: no trailing zeros, no exponent ("12.5", "-3", "0"). */
export function formatQty(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / FACTOR;
  const fraction = (abs % FACTOR).toString().padStart(QTY_SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Units as a JavaScript number (exact to 15 significant digits, which is all numeric(15,4) holds). */
export const qtyNumber = (units: bigint): number => Number(formatQty(units));

/** Units of a value known to be valid (database numeric text); throws on anything else. */
export function qtyUnits(value: string | number): bigint {
  const parsed = parseQty(value);
  if (!parsed.ok) throw new Error(`Not a quantity: ${String(value)} (${parsed.message})`);
  return parsed.units;
}

/**
 * Units of measure counted in whole units only: half an each, a third of a box or 0.5 of a pair is
 * not stock anyone can pick. An item's unit is free text (up to 10 characters); these codes, in any
 * case, carry the "whole units only" flag, every other unit (KG, M, L, …) takes up to four decimals.
 * The server refuses a fraction for such an item on every stock change; the forms say so before
 * sending (stock-rules.ts wholeUnitsProblem). A Map, not a plain object: a unit named `constructor` is simply not whole-units-only.
 */
export const WHOLE_UNIT_UOMS: ReadonlyMap<string, string> = new Map([
  ['EA', 'each'],
  ['EACH', 'each'],
  ['PC', 'piece'],
  ['PCS', 'pieces'],
  ['UNIT', 'unit'],
  ['PR', 'pair'],
  ['PAIR', 'pair'],
  ['SET', 'set'],
  ['KIT', 'kit'],
  ['BX', 'box'],
  ['BOX', 'box'],
  ['CS', 'case'],
  ['CASE', 'case'],
  ['CTN', 'carton'],
  ['PK', 'pack'],
  ['PACK', 'pack'],
  ['BAG', 'bag'],
  ['BTL', 'bottle'],
  ['CAN', 'can'],
  ['ROLL', 'roll'],
  ['RL', 'roll'],
  ['DZ', 'dozen'],
  ['PLT', 'pallet'],
]);

/** Whether an item's unit of measure takes whole units only (WHOLE_UNIT_UOMS). */
export const wholeUnitsOnly = (uom: string | null | undefined): boolean => WHOLE_UNIT_UOMS.has((uom ?? '').trim().toUpperCase());
