import { formatQty, withDecimalSeparator } from '@floorhand/contract/quantity';
import { MEASURE_NEGATIVE, PACKAGE_TEXT_MAX } from '@floorhand/contract/shipping';
import { readQtyInput } from '../../../lib/inventory-format.ts';
import { screenDecimalSeparator } from '../../../lib/i18n.ts';
import { tk } from '@floorhand/contract/i18n';

/**
 * The pack screen's writes, one at a time in the order the packer asked for them: a task starts when
 * the one before it has settled (done or refused). A Ship clicked while the package's Save is still
 * on its way therefore ships the saved package, never the one the server had before the save.
 */
export function createOneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}

/** What a package card's form holds, as sent to `package/save` (blank fields are left out). */
export interface PackageForm {
  type: string;
  weight: string;
  length: string;
  width: string;
  height: string;
  carrier: string;
  service: string;
  tracking: string;
}
export type PackageField = keyof PackageForm;

/** The form's fields in the order the card shows them (and the first with a problem takes the focus). */
export const PACKAGE_FIELDS: readonly PackageField[] = ['type', 'weight', 'length', 'width', 'height', 'carrier', 'service', 'tracking'];
const MEASURES: ReadonlySet<PackageField> = new Set(['weight', 'length', 'width', 'height']);
const TEXT_MAX: ReadonlyMap<PackageField, number> = PACKAGE_TEXT_MAX;

/** A measure as sent: "1,5" typed where the screen writes a decimal comma is 1.5; text that is no number is left as typed (formProblems says why). */
function measureText(text: string, decimalSeparator: string): string {
  const parsed = readQtyInput(text, decimalSeparator);
  return parsed.ok ? formatQty(parsed.units) : text;
}

/**
 * A form of canonical values (the package as the server has it) as the card shows it: the measures
 * in the screen's decimal separator ("1,5" in Spanish), read back by formChanges.
 */
export function shownForm(form: PackageForm, decimalSeparator = screenDecimalSeparator()): PackageForm {
  const out = { ...form };
  for (const key of MEASURES) out[key] = withDecimalSeparator(form[key], decimalSeparator);
  return out;
}

/** The form's non-blank fields, trimmed, measures as numbers: the body of a save. */
export function formChanges(form: PackageForm, decimalSeparator = screenDecimalSeparator()): Partial<PackageForm> {
  const out: Partial<PackageForm> = {};
  for (const key of PACKAGE_FIELDS) {
    const v = form[key].trim();
    if (v) out[key] = MEASURES.has(key) ? measureText(v, decimalSeparator) : v;
  }
  return out;
}

/**
 * What is wrong with the form, by field, in the contract's rules (shipping.ts: a measure is a
 * quantity of at most 4 decimals and not below 0; the texts have their longest); empty when nothing.
 * A blank field is never wrong: a save leaves it as it is.
 */
export function formProblems(form: PackageForm, decimalSeparator = screenDecimalSeparator()): Map<PackageField, string> {
  const problems = new Map<PackageField, string>();
  for (const key of PACKAGE_FIELDS) {
    const v = form[key].trim();
    if (!v) continue;
    if (MEASURES.has(key)) {
      const parsed = readQtyInput(v, decimalSeparator);
      if (!parsed.ok) problems.set(key, parsed.message);
      else if (parsed.units < 0n) problems.set(key, MEASURE_NEGATIVE);
    } else if (v.length > (TEXT_MAX.get(key) ?? Infinity)) problems.set(key, tk(`must be at most ${TEXT_MAX.get(key) ?? ''} characters`));
  }
  return problems;
}

/** Whether the form holds something the server has not acknowledged (a blank field changes nothing: saves never clear). */
export function formDirty(form: PackageForm, saved: PackageForm, decimalSeparator = screenDecimalSeparator()): boolean {
  const changes = formChanges(form, decimalSeparator);
  return PACKAGE_FIELDS.some((key) => {
    const v = changes[key];
    if (v === undefined) return false;
    return MEASURES.has(key) ? Number(v) !== Number(saved[key] || Number.NaN) : v !== saved[key].trim();
  });
}

/**
 * The carrier that asks for a weight the package would ship without (contract shipProblem: a named
 * carrier needs a weight above 0), judged on what a Ship sends: the saved package with the form's
 * changes saved first. Undefined when nothing is missing.
 */
export function weightNeededBy(form: PackageForm, saved: PackageForm, decimalSeparator = screenDecimalSeparator()): string | undefined {
  const sent = { ...saved, ...formChanges(form, decimalSeparator) };
  const carrier = sent.carrier.trim();
  if (!carrier) return undefined;
  return Number(sent.weight) > 0 ? undefined : carrier;
}
