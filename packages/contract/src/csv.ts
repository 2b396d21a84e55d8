// CSV of RFC 4180: fields separated by commas, records by CRLF (LF and lone CR are read too), a field
// in double quotes may hold commas, line breaks and doubled quotes. Written with CRLF and quotes only
// where needed. The parser takes text in chunks, so a large file never has to be one string; the
// importer and the browser use the same code.
import { tk } from './i18n.ts';

export class CsvError extends Error {
  constructor(
    message: string,
    /** The record (1-based, the header is record 1) where the problem is. */
    readonly row: number,
  ) {
    super(`CSV row ${row}: ${message}`);
  }
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

type State = 'start' | 'unquoted' | 'quoted' | 'closed';

/** An incremental parser: push() chunks, then end(); each returns the records completed so far. */
export class CsvParser {
  private state: State = 'start';
  private field = '';
  private fields: string[] = [];
  /** A CR ended the last chunk: an LF starting the next one belongs to it. */
  private afterCr = false;
  private first = true;
  /** The number of the record being read (1-based). */
  row = 1;

  push(chunk: string): string[][] {
    const out: string[][] = [];
    let i = 0;
    if (this.first) {
      this.first = false;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1; // a byte-order mark is not data
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.charCodeAt(i) === LF) i++;
    }
    const n = chunk.length;
    while (i < n) {
      if (this.state === 'quoted') {
        const q = chunk.indexOf('"', i);
        if (q < 0) {
          this.field += chunk.slice(i);
          return out;
        }
        this.field += chunk.slice(i, q);
        this.state = 'closed';
        i = q + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (this.state === 'closed') {
        if (c === QUOTE) {
          this.field += '"';
          this.state = 'quoted';
          i++;
          continue;
        }
        if (c !== COMMA && c !== CR && c !== LF)
          throw new CsvError(tk('unexpected text after a closing quote; a quote inside a field must be doubled'), this.row);
      } else if (this.state === 'start' && c === QUOTE) {
        this.state = 'quoted';
        i++;
        continue;
      } else {
        // An unquoted field runs to the next comma or line break; a stray quote in it is kept as text.
        let j = i;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === COMMA || d === CR || d === LF) break;
          j++;
        }
        this.field += chunk.slice(i, j);
        this.state = 'unquoted';
        i = j;
        if (i >= n) return out;
      }
      // At a comma or a line break.
      const d = chunk.charCodeAt(i);
      this.fields.push(this.field);
      this.field = '';
      this.state = 'start';
      i++;
      if (d === COMMA) continue;
      out.push(this.fields);
      this.fields = [];
      this.row++;
      if (d === CR) {
        if (i >= n) this.afterCr = true;
        else if (chunk.charCodeAt(i) === LF) i++;
      }
    }
    return out;
  }

  /** The last record when the text does not end with a line break; throws on an open quote. */
  end(): string[][] {
    if (this.state === 'quoted') throw new CsvError(tk('a quoted field is not closed'), this.row);
    if (this.state === 'start' && this.fields.length === 0) return [];
    this.fields.push(this.field);
    const last = this.fields;
    this.fields = [];
    this.field = '';
    this.state = 'start';
    return [last];
  }
}

/** Every record of a text, one at a time (the header is the first). */
export function* parseCsv(text: string, chunkSize = 1 << 20): Generator<string[]> {
  const parser = new CsvParser();
  for (let at = 0; at < text.length; at += chunkSize) yield* parser.push(text.slice(at, at + chunkSize));
  yield* parser.end();
}

export type CsvValue = string | number | boolean | null | undefined;

/**
 * A text a spreadsheet would run as a formula (OWASP CSV injection), or one that already starts with
 * apostrophes before such a character (so that the apostrophe added is always the one taken away on
 * import, and every text comes back as it was); a plain number is none.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;
/** How an export marks a neutralised cell: a leading apostrophe, which spreadsheets show as text. */
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/**
 * A text as an export writes it: one that starts with = + - @ (or a tab or carriage return) gets a
 * leading apostrophe, so a spreadsheet opening the file shows it instead of running it as a formula.
 */
export const neutraliseFormula = (text: string): string => (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text);

/** An imported field as it was before an export neutralised it (the apostrophe goes, the rest stays). */
export const restoreFormula = (text: string): string => (NEUTRALISED.test(text) ? text.slice(1) : text);

/**
 * One field: quoted when it holds a comma, quote, line break or edge spaces; null and undefined are
 * empty; text that a spreadsheet would run as a formula is neutralised.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? neutraliseFormula(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF. */
export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;

/** Records as CSV text. */
export function toCsv(rows: Iterable<readonly CsvValue[]>): string {
  let out = '';
  for (const row of rows) out += csvLine(row);
  return out;
}
