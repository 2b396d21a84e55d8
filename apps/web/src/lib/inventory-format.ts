import { formatQty, parseQty, qtyUnits } from '@floorhand/contract/quantity';

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

/** A typed quantity as units, or the reason it is not one (blank is "must be provided"). */
export function readQtyInput(text: string): { ok: true; units: bigint } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'must be provided' };
  return parseQty(text);
}

/** An ISO timestamp in the spec's display form, year-month-day hour:minute:second, in local time. */
export function showTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
