import { formatQty, parseQty, qtyUnits, withDecimalPoint, withDecimalSeparator } from '@floorhand/contract/quantity';
import { screenDecimalSeparator } from './i18n.ts';
import { tk } from '@floorhand/contract/i18n';

// Quantities are exact decimals (four places): sums and previews are done in integer units of
// 1/10000, never in floating point, so 0.1 + 0.2 shows 0.3. They are typed and shown with the decimal
// separator of the screen's language ("2,5" in Spanish), never with thousands grouped; what is sent
// and stored is the canonical text with a point.

/** Canonical decimal text ("12.5") as the screen writes it: "12,5" in Spanish. */
export const showDecimal = (text: string, decimalSeparator: string = screenDecimalSeparator()): string =>
  withDecimalSeparator(text, decimalSeparator);

/** A quantity as the screen shows it ("12.5", "-3"; "12,5" in Spanish); with a unit of measure when given ("12.5 EA"). */
export function showQty(qty: number, uom?: string, decimalSeparator?: string): string {
  const text = showDecimal(formatQty(qtyUnits(qty)), decimalSeparator);
  return uom ? `${text} ${uom}` : text;
}

/** The exact sum of quantities. */
export function sumQty(values: readonly number[]): number {
  return Number(formatQty(values.reduce((sum, v) => sum + qtyUnits(v), 0n)));
}

/**
 * A typed quantity as units, or the reason it is not one (blank is "must be provided"): "2,5" is 2.5
 * where the screen's language writes a decimal comma; a point is read everywhere (a keypad or a
 * pasted value may bring one), and elsewhere a comma is refused ("1,500" could mean either).
 */
export function readQtyInput(
  text: string,
  decimalSeparator: string = screenDecimalSeparator(),
): { ok: true; units: bigint } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: tk('must be provided') };
  return parseQty(withDecimalPoint(text, decimalSeparator));
}

/** An ISO timestamp in the spec's display form, year-month-day hour:minute:second, in local time. */
export function showTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
