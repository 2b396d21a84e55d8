import { formatQty, parseQty, qtyUnits, withDecimalPoint } from '@floorhand/contract/quantity';
import { tk } from '@floorhand/contract/i18n';

// Quantities are exact decimals (four places): sums and previews are done in integer units of
// 1/10000, never in floating point, so 0.1 + 0.2 shows 0.3.

/** A quantity as canonical text ("12.5", "-3"); with a unit of measure when given ("12.5 EA"). */
export function showQty(qty: number, uom?: string): string {
  const text = formatQty(qtyUnits(qty));
  return uom ? `${text} ${uom}` : text;
}

/** The exact sum of quantities. */
export function sumQty(values: readonly number[]): number {
  return Number(formatQty(values.reduce((sum, v) => sum + qtyUnits(v), 0n)));
}

/** The decimal separator of the browser's language (',' in de, fr, es, pt…; '.' in en). */
export function localeDecimalSeparator(locale: string | undefined = globalThis.navigator?.language): string {
  try {
    return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

/** A typed quantity as units, or the reason it is not one (blank is "must be provided"); "1,5" is 1.5 where the locale writes it so. */
export function readQtyInput(
  text: string,
  decimalSeparator: string = localeDecimalSeparator(),
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
