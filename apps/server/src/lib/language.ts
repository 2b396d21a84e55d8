/*
 * The language of a request and the server's texts in it (issue 29): error messages, PDFs and the
 * report of a refused import follow the screen that asked. The web sends its language in the
 * LANGUAGE_HEADER of every call, a socket in its handshake; a link (no headers) as `?lang=`.
 * Anything else (no language, an unknown one, `__proto__`) is English, the texts as written.
 * Texts are the contract's catalogue keys (packages/contract/src/i18n.ts): a message with values
 * in it matches its key with numbered holes; a PDF's texts are `t('…')` calls, which the extractor
 * (scripts/i18n-extract.mjs) collects.
 */
import es from '@floorhand/contract/locales/es.json';
import {
  compileCatalogue,
  DEFAULT_LANGUAGE,
  LANGUAGE_HEADER,
  languageOfTag,
  translateText,
  type CompiledCatalogue,
  type Language,
} from '@floorhand/contract/i18n';
import type { ServerErr } from '@floorhand/contract/errors';
import { z } from 'zod';

/** What a language can be read from: a request (headers, query) or a socket's handshake (headers, query, auth). */
export interface LanguageSource {
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  query?: unknown;
  auth?: unknown;
}

const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** A `lang` member of a parsed query or a handshake's auth, whatever its prototype. */
function langMember(holder: unknown): string | undefined {
  if (typeof holder !== 'object' || holder === null || !Object.hasOwn(holder, 'lang')) return undefined;
  const value = firstOf((holder as { lang: unknown }).lang);
  return typeof value === 'string' ? value : undefined;
}

/** The language a request or socket asks for: its header, else `lang` in its query, else in its auth, else English. */
export function languageOf(source: LanguageSource): Language {
  const header = firstOf(source.headers?.[LANGUAGE_HEADER]);
  for (const tag of [typeof header === 'string' ? header : undefined, langMember(source.query), langMember(source.auth)]) {
    const lang = languageOfTag(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

/** A text in the request's language; `params` fill i18next-style `{{name}}` holes after translation. */
export type Translate = (text: string, params?: Readonly<Record<string, string | number>>) => string;

/** The catalogue of every language but English (whose keys are its texts), compiled once. */
const COMPILED = new Map<Language, CompiledCatalogue>([['es', compileCatalogue(es)]]);

const NAMED_HOLE = /\{\{\s*(\w+)\s*\}\}/g;

function interpolate(text: string, params: Readonly<Record<string, string | number>>): string {
  return text.replace(NAMED_HOLE, (hole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : hole));
}

/**
 * The longest text matched against the catalogue. A message can hold what a caller sent (a body's
 * unknown keys), and a key with several holes is a pattern whose matching time grows with the text:
 * a longer message, which no screen shows whole anyway, stays as written.
 */
export const TRANSLATED_MAX = 1000;

/** `t` for one language; `catalogue` replaces the language's own (tests). */
export function translator(lang: Language, catalogue: CompiledCatalogue | undefined = COMPILED.get(lang)): Translate {
  return (text, params) => {
    const shown = catalogue && text.length <= TRANSLATED_MAX ? translateText(catalogue, text) : text;
    return params ? interpolate(shown, params) : shown;
  };
}

/** `t` in the language of a request or socket. */
export const translatorOf = (source: LanguageSource): Translate => translator(languageOf(source));

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refused import's problems (lib/csv-import.ts, counts' sheet import): `rejected: [{ row, field, message }]`. */
function translateRejected(rejected: unknown, t: Translate): unknown {
  if (!Array.isArray(rejected)) return rejected;
  return rejected.map((p: unknown) => (isObject(p) && typeof p.message === 'string' ? { ...p, message: t(p.message) } : p));
}

/** A record's field errors (lib/errors.ts invalidRecord, which forms show by their fields): `errors: { field: [message] }`. */
function translateFieldErrors(errors: unknown, t: Translate): unknown {
  if (!isObject(errors)) return errors;
  return Object.fromEntries(
    Object.entries(errors).map(([field, list]) => [
      field,
      Array.isArray(list) ? list.map((m: unknown) => (typeof m === 'string' ? t(m) : m)) : list,
    ]),
  );
}

/**
 * A detail in the language: the messages a screen shows from it (a refused import's problems, a
 * record's field errors) are translated; any other detail is for the technician and stays as written.
 */
function translateDetail(detail: string, t: Translate): string {
  if (!detail.includes('"rejected"') && !detail.includes('"errors"')) return detail;
  try {
    const parsed: unknown = JSON.parse(detail);
    if (!isObject(parsed)) return detail;
    return JSON.stringify({
      ...parsed,
      ...(Object.hasOwn(parsed, 'rejected') ? { rejected: translateRejected(parsed.rejected, t) } : {}),
      ...(Object.hasOwn(parsed, 'errors') ? { errors: translateFieldErrors(parsed.errors, t) } : {}),
    });
  } catch {
    return detail;
  }
}

/** A server error in the language: its message (and msg), its cause's, and a refused import's problems. */
export function translateErr(err: ServerErr, t: Translate): ServerErr {
  return {
    ...err,
    message: t(err.message),
    ...(err.msg === undefined ? {} : { msg: t(err.msg) }),
    ...(err.detail === undefined ? {} : { detail: translateDetail(err.detail, t) }),
    ...(err.causedByErr === undefined ? {} : { causedByErr: translateErr(err.causedByErr, t) }),
  };
}

/** A server error in the request's language (unchanged in English). */
export function errInLanguage(err: ServerErr, source: LanguageSource): ServerErr {
  const lang = languageOf(source);
  return lang === DEFAULT_LANGUAGE ? err : translateErr(err, translator(lang));
}

// ── zod's own messages ──
// A body that fails its schema is refused with zod's messages ("Too small: expected string to have
// >=1 characters"), which no catalogue holds: zod's own translation of the issue is used instead,
// when the message is zod's English one (a message our schema wrote is a catalogue key).

type ZodErrorMap = (issue: Record<string, unknown>) => string | { message: string } | undefined | null;
const ZOD_LOCALES = new Map<Language, () => { localeError: ZodErrorMap }>([
  ['en', z.locales.en as unknown as () => { localeError: ZodErrorMap }],
  ['es', z.locales.es as unknown as () => { localeError: ZodErrorMap }],
]);
const zodMaps = new Map<Language, ZodErrorMap>();
function zodMap(lang: Language): ZodErrorMap | undefined {
  if (!zodMaps.has(lang)) {
    const locale = ZOD_LOCALES.get(lang);
    if (locale) zodMaps.set(lang, locale().localeError);
  }
  return zodMaps.get(lang);
}
const zodText = (map: ZodErrorMap | undefined, issue: Record<string, unknown>): string | undefined => {
  const out = map?.(issue);
  return typeof out === 'string' ? out : (out?.message ?? undefined);
};

/** A value of each type zod names ("received number"): a finished issue no longer holds the input its message named. */
const SAMPLES = new Map<string, unknown>([
  ['undefined', undefined],
  ['null', null],
  ['string', ''],
  ['number', 0],
  ['nan', Number.NaN],
  ['boolean', false],
  ['bigint', 0n],
  ['array', []],
  ['object', {}],
  ['date', new Date(0)],
]);

/**
 * One issue of a failed body schema (as fastify-type-provider-zod reports it: `keyword` is the
 * issue's code, `params` the rest) in a language: zod's own translation when the message is zod's
 * English, else the message through the catalogue.
 */
export function zodIssueIn(lang: Language, v: { keyword: string; message?: string; params?: Record<string, unknown> }): string {
  const message = v.message ?? '';
  if (lang === DEFAULT_LANGUAGE) return message;
  const received = /, received (\w+)$/.exec(message)?.[1];
  const issue: Record<string, unknown> = {
    ...v.params,
    code: v.keyword,
    ...(received && SAMPLES.has(received) ? { input: SAMPLES.get(received) } : {}),
  };
  try {
    if (zodText(zodMap(DEFAULT_LANGUAGE), issue) === message) return zodText(zodMap(lang), issue) ?? message;
  } catch {
    // An issue the locale does not know how to word: through the catalogue.
  }
  return translator(lang)(message);
}
