// Named patterns of spec section 5, shared by the record validation engine and browser form rules.
//
// Each message is a catalogue key whose hole {{0}} is the field's label ("'{{0}}' must match pattern
// 'YYYY-MM-DD'"), filled by the engine (`fill`), so a form and the server show the same words and a
// screen finds the key again (`translateText`). Every pattern is anchored and has no ambiguous
// adjacent quantifiers, so a failing 100k-character input is rejected in linear time (no
// catastrophic backtracking).
//
// Decisions:
// - time: the spec says hours 01-24, so 00:00:00 fails and 24:00:00 passes. Minutes and seconds are
//   not restricted when the hour is 24 (24:30:00 passes), as the spec states no such rule.
// - date: years 1900-2099 and a real calendar day (2023-02-29 fails, 2024-02-29 passes).
// - fulltime and timestamp are the same pattern: 'YYYY-MM-DD hh:mm:ss'.
// - email: the WHATWG form pattern with at least one dot in the domain; ASCII only.
// - phones accept an extension written as "x123", "ext 123", "ext. 123" or "extension 123".

import { tk } from '../i18n.ts';

export interface NamedPattern {
  readonly pattern: RegExp;
  /** The message with the label's hole, e.g. "'{{0}}' must match pattern 'YYYY-MM-DD'". */
  readonly field: string;
  /** The phrase after the label, e.g. "must match pattern 'YYYY-MM-DD'". */
  readonly message: string;
  /** The pattern plus what a regular expression cannot say (calendar days). */
  readonly test: (value: string) => boolean;
}

const LABEL_HOLE = "'{{0}}' ";
/** The phrase of a field's message: what follows its label. */
const phraseOf = (field: string): string => field.slice(LABEL_HOLE.length);

const DATE_SOURCE = '(?:19|20)\\d\\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const TIME_SOURCE = '(?:0[1-9]|1\\d|2[0-4]):[0-5]\\d:[0-5]\\d';
const EXTENSION_SOURCE = '(?:\\s*(?:x|ext\\.?|extension)\\s*\\d{1,6})?';
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const RGB_CHANNEL = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const RGB_CHANNELS = `\\s*${RGB_CHANNEL}\\s*,\\s*${RGB_CHANNEL}\\s*,\\s*${RGB_CHANNEL}\\s*`;

const DATE = new RegExp(`^${DATE_SOURCE}$`);
const TIME = new RegExp(`^${TIME_SOURCE}$`);
const TIMESTAMP = new RegExp(`^${DATE_SOURCE} ${TIME_SOURCE}$`);

function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= daysInMonth;
}

function regexOnly(pattern: RegExp, field: string): NamedPattern {
  return { pattern, field, message: phraseOf(field), test: (value) => pattern.test(value) };
}

function calendar(pattern: RegExp, field: string): NamedPattern {
  return { pattern, field, message: phraseOf(field), test: (value) => pattern.test(value) && isCalendarDate(value) };
}

const timestamp = calendar(TIMESTAMP, tk("'{{0}}' must match pattern 'YYYY-MM-DD hh:mm:ss'"));

export const NAMED_PATTERNS = {
  generalId: regexOnly(
    /^[A-Za-z0-9](?:[A-Za-z0-9_]*[A-Za-z0-9])?$/,
    tk(
      "'{{0}}' must start with a letter or digit, may only contain letters (upper or lowercase), digits (0-9), underscores (_), and must end in a letter or digit.",
    ),
  ),
  date: calendar(DATE, tk("'{{0}}' must match pattern 'YYYY-MM-DD'")),
  time: regexOnly(TIME, tk("'{{0}}' must match pattern 'hh:mm:ss'")),
  fulltime: timestamp,
  timestamp,
  email: regexOnly(
    new RegExp(`^[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})+$`),
    tk("'{{0}}' does not appear to be a valid email address"),
  ),
  phoneUs: regexOnly(
    new RegExp(`^(?:\\+?1[-. ]?)?(?:\\([2-9]\\d\\d\\)|[2-9]\\d\\d)[-. ]?[2-9]\\d\\d[-. ]?\\d{4}${EXTENSION_SOURCE}$`, 'i'),
    tk("'{{0}}' does not appear to be a valid US phone number"),
  ),
  // E.164: a country code not starting with 0 and 7 to 15 digits in all, single separators allowed.
  phoneIntl: regexOnly(
    new RegExp(`^\\+[1-9](?:[-. ]?\\d){6,14}${EXTENSION_SOURCE}$`, 'i'),
    tk("'{{0}}' does not appear to be a valid international phone number"),
  ),
  hexColor: regexOnly(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, tk("'{{0}}' must be a hex colour (#rgb or #rrggbb)")),
  rgb: regexOnly(new RegExp(`^rgb\\(${RGB_CHANNELS}\\)$`), tk("'{{0}}' must be a colour in the form rgb(r, g, b)")),
  rgba: regexOnly(
    new RegExp(`^rgba\\(${RGB_CHANNELS},\\s*(?:0|1|0?\\.\\d+|1\\.0+)\\s*\\)$`),
    tk("'{{0}}' must be a colour in the form rgba(r, g, b, a) with a from 0 to 1"),
  ),
} as const satisfies Record<string, NamedPattern>;

/** The general id rule's phrase (spec section 5), word for word. */
export const GENERAL_ID_MESSAGE = NAMED_PATTERNS.generalId.message;

export type NamedPatternName = keyof typeof NAMED_PATTERNS;

export function isNamedPattern(name: string): name is NamedPatternName {
  return Object.hasOwn(NAMED_PATTERNS, name);
}
