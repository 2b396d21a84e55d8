// Texts built with values outside a `t(key, params)` call: a validation message ("'Quantity' must be
// provided"), a scanner message with an error in it. They are English built from a key with numbered
// holes (`fill` in the contract), so the key is found again here, as the server finds its own.
import { compileCatalogue, translateText, type Catalogue, type CompiledCatalogue } from '@floorhand/contract/i18n';
import { i18n } from './i18n.ts';

/** Each loaded catalogue compiled once (a bundle is one object in i18next until it is replaced). */
const compiled = new WeakMap<Catalogue, CompiledCatalogue>();

/** A text in the screen's language: its exact key's translation, else its key with holes; else as it is. */
export function tText(text: string): string {
  const bundle = i18n.getResourceBundle(i18n.resolvedLanguage ?? i18n.language, 'translation') as Catalogue | undefined;
  if (!bundle) return text;
  let catalogue = compiled.get(bundle);
  if (!catalogue) {
    catalogue = compileCatalogue(bundle);
    compiled.set(bundle, catalogue);
  }
  return translateText(catalogue, text);
}

/**
 * A form's refusal: a key with named holes and their values (the stock rules), or a text without
 * values that may be built with numbered holes (a quantity's "must have at most 4 decimal places").
 */
export const tProblem = (p: { message: string; values?: Readonly<Record<string, string>> }): string =>
  p.values ? i18n.t(p.message, p.values) : tText(p.message);

/** A form's schema problems (zod issues), one line each: where, then what, in the screen's language. */
export const tIssues = (issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string[] =>
  issues.map((i) => `${i.path.map(String).join('.')}: ${tText(i.message)}`);
