// The app's languages and the one catalogue rule shared by the web and the server.
//
// Keys are the English text itself ("Save", "The task '{{0}}' is not active"): English needs no
// catalogue of its own to show, and a text missing from a catalogue shows in English, never as a key.
// `locales/en.json` lists every key (written by `npm run i18n:extract`, key to itself) and each other
// language's file holds the same keys; scripts/i18n.test.ts fails when they differ.
//
// Messages the server builds with values in them ("The task 'PICK' is not active") are keys with
// numbered holes ({{0}}, {{1}}…): a text that matches no key exactly is matched against those, and the
// values it held are put into the translation's holes (`translateText`).

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** Each language's name in itself, for the pickers. */
export const LANGUAGE_NAMES: ReadonlyMap<Language, string> = new Map([
  ['en', 'English'],
  ['es', 'Español'],
]);
/** The request header that carries the screen's language to the server (its messages and documents follow it). */
export const LANGUAGE_HEADER = 'x-floorhand-lang';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** A BCP 47 tag ("es-ES", "es", "en-US") as one of ours, or undefined. */
export function languageOfTag(tag: string | null | undefined): Language | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : undefined;
}

/**
 * The language a screen shows: the workstation's own setting (a kiosk set to Spanish) before the
 * account's choice (My Account), before the device's browser languages, before English.
 */
export function pickLanguage(choice: {
  workstation?: string | null;
  account?: string | null;
  browser?: readonly string[] | null;
}): Language {
  if (isLanguage(choice.workstation)) return choice.workstation;
  if (isLanguage(choice.account)) return choice.account;
  for (const tag of choice.browser ?? []) {
    const lang = languageOfTag(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * Marks a text as a catalogue key where it is written (a label in a constant map) and returns it
 * unchanged; the screen translates it where it shows it (`t(LABELS.get(x))`). The extractor
 * (scripts/i18n-extract.mjs) collects these like `t('…')`; a template literal (a server message
 * built in a helper: tk(`No warehouse '${code}'`)) becomes a key with numbered holes, which the
 * server's `translateText` matches.
 */
export const tk = <const T extends string>(text: T): T => text;

/**
 * A translation function: i18next's `t` on the web. A builder of a text with values (an audit
 * sentence) takes one, so each piece is a key of its own; `english` is the default.
 */
export type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;

const NAMED_HOLE = /\{\{(\w+)\}\}/g;

/** A key in English: its holes ({{name}} or {{0}}) filled with the values; a hole without one stays. */
export const english: Translate = (key, params) =>
  key.replace(NAMED_HOLE, (hole, name: string) => (params && Object.hasOwn(params, name) ? String(params[name]) : hole));

/**
 * A message from a key with numbered holes that is held in a variable (a named pattern's `field`) or
 * uses a hole twice; a message written where it is made is `tk(`'${label}' must be provided`)`, whose
 * key the extractor makes. The text is English and `translateText` finds its key again.
 */
export const fill = (key: string, ...values: ReadonlyArray<string | number>): string =>
  english(key, Object.fromEntries(values.map((v, i) => [String(i), v])));

/** The decimal separator a language writes quantities with. */
export const decimalSeparatorOf = (lang: Language): '.' | ',' => (lang === 'es' ? ',' : '.');

export type Catalogue = Readonly<Record<string, string>>;

interface HolePattern {
  regex: RegExp;
  /** The translation as text and, between, the number of the regex group whose value goes there. */
  parts: readonly (string | number)[];
}

const HOLE = /\{\{(\d+)\}\}/g;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A catalogue made ready for `translateText`: exact keys in a map, keys with numbered holes as patterns. */
export interface CompiledCatalogue {
  exact: ReadonlyMap<string, string>;
  patterns: readonly HolePattern[];
}

export function compileCatalogue(catalogue: Catalogue): CompiledCatalogue {
  const exact = new Map<string, string>();
  const patterns: HolePattern[] = [];
  for (const [key, translation] of Object.entries(catalogue)) {
    if (typeof translation !== 'string' || translation === '') continue;
    exact.set(key, translation);
    if (!/\{\{\d+\}\}/.test(key)) continue;
    // Each hole takes the shortest run that lets the rest match; the holes' order in the key is kept
    // by their numbers, so a translation may put them in another order.
    const order: number[] = [];
    const source = key
      .split(HOLE)
      .map((part, i) => {
        if (i % 2 === 0) return escapeRegex(part);
        order.push(Number(part));
        return '([\\s\\S]*?)';
      })
      .join('');
    patterns.push({
      regex: new RegExp(`^${source}$`),
      parts: translation.split(HOLE).map((part, i) => (i % 2 === 0 ? part : order.indexOf(Number(part)) + 1)),
    });
  }
  // Longer keys first: "A batch runs at most {{0}} tasks at once" before "A {{0}}".
  patterns.sort((a, b) => b.regex.source.length - a.regex.source.length);
  return { exact, patterns };
}

/**
 * A text in the catalogue's language: its exact translation, else the first key with holes that it
 * matches, with the values put into the translation; else the text unchanged.
 */
export function translateText(compiled: CompiledCatalogue, text: string): string {
  const exact = compiled.exact.get(text);
  if (exact !== undefined) return exact;
  for (const { regex, parts } of compiled.patterns) {
    const m = regex.exec(text);
    if (!m) continue;
    return parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const value = m[part] ?? '';
        // A value that is itself a known text ("'Quantity' is required" inside a longer message) is translated too.
        return compiled.exact.get(value) ?? value;
      })
      .join('');
  }
  return text;
}
