import { FIELD_PATTERN, LABELS_PER_JOB_MAX, WORD_PATTERN } from './fields.ts';
import { tk } from '../i18n.ts';

// ── ZPL that labels may use ──
//
// `^` and `~` are ZPL's format and control prefixes (^CC/~CC, ^CT/~CT change them, ^CD/~CD the
// delimiter) and Zebra firmware may take DLE (0x10) and RS (0x1E) for them in some modes. So a
// template is a list of commands of the allow-list below and nothing else (every `~` command is a
// control command, refused), and field data never carries a prefix or any control character.

/**
 * The commands a label template may use (without the `^`), each a label-formatting command that
 * draws or places something on this label and changes nothing kept by the printer. `A` is the
 * font command with a resident font (`^A0`, `^AA` … `^AZ`, `^A1` … `^A9`); `^A@` (a font file on
 * the printer's storage) is refused. Everything else is refused, with the reason of
 * ZPL_REFUSED_REASONS when it has one (docs/labels.md).
 */
export const ZPL_LABEL_COMMANDS: ReadonlySet<string> = new Set([
  // the label format and its fields
  'XA',
  'XZ',
  'FO',
  'FT',
  'FD',
  'FV',
  'FS',
  'FB',
  'TB',
  'FH',
  'FR',
  'FW',
  'FP',
  'FX',
  // fonts and the character set (^CI with its number only: its remapping parameters are refused)
  'A',
  'CF',
  'CI',
  // bar codes and their defaults
  'BY',
  'B0',
  'B1',
  'B2',
  'B3',
  'B4',
  'B5',
  'B7',
  'B8',
  'B9',
  'BA',
  'BB',
  'BC',
  'BD',
  'BE',
  'BF',
  'BI',
  'BJ',
  'BK',
  'BL',
  'BM',
  'BO',
  'BP',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BU',
  'BX',
  'BZ',
  // graphics drawn from the template's own data
  'GB',
  'GC',
  'GD',
  'GE',
  'GF',
  'GS',
  // the label's layout, copies, orientation and speed
  'LH',
  'LL',
  'LR',
  'LS',
  'LT',
  'PW',
  'PQ',
  'PO',
  'PM',
  'PR',
]);

const CHANGES_PRINTER = tk('it changes the printer, not the label');
const USES_STORAGE = tk("it reads or writes the printer's storage, not the label");
/** Why a known command is refused; a command not named here is "not a label-formatting command". */
const ZPL_REFUSED_REASONS: ReadonlyMap<string, string> = new Map([
  ['A@', tk("it names a font file on the printer's storage; use a resident font (^A0, ^AA … ^AZ)")],
  ...['CC', 'CT', 'CD'].map((c): [string, string] => [
    c,
    tk("it changes ZPL's prefixes or delimiter, after which data could become commands"),
  ]),
  ...['DF', 'XF', 'FN', 'DG', 'DY', 'DN', 'DB', 'DU', 'DS', 'DT', 'IM', 'IL', 'IS', 'ID', 'XG', 'HF', 'HG', 'HY', 'CW', 'CM', 'FL'].map(
    (c): [string, string] => [c, USES_STORAGE],
  ),
  ...['HZ', 'HW', 'HH', 'HV', 'HT', 'HL', 'HQ', 'HS'].map((c): [string, string] => [
    c,
    tk('it makes the printer answer the host, not print a label'),
  ]),
  ...['SN', 'SF'].map((c): [string, string] => [c, tk('it makes data the record of the label does not have (serial numbers)')]),
]);

/** Why a command (`^XY` or `~XY`) is refused. */
function refusedReason(prefix: string, code: string): string {
  if (prefix === '~') return CHANGES_PRINTER;
  const known = ZPL_REFUSED_REASONS.get(code);
  if (known) return known;
  if (/^[JKMNS]/.test(code)) return CHANGES_PRINTER;
  return tk('it is not one of the label-formatting commands labels may use (docs/labels.md)');
}

/** One command of a ZPL text: its prefix, its code (two letters, or A and a font) and its parameters up to the next prefix. */
interface ZplCommand {
  prefix: '^' | '~';
  code: string;
  params: string;
}

/** The commands of a ZPL text, in order (text before the first prefix is left out). */
function zplCommands(zpl: string): ZplCommand[] {
  const out: ZplCommand[] = [];
  const parts = zpl.split(/(?=[\^~])/);
  for (const part of parts) {
    const prefix = part[0];
    if (prefix !== '^' && prefix !== '~') continue;
    const body = part.slice(1);
    const upper = body.toUpperCase();
    // ^A is the only command of one letter: its font follows (^A0N,30,30 or ^AAN or ^A@N,…,E:X.FNT).
    const code = upper[0] === 'A' && upper[1] !== '@' ? 'A' : upper.slice(0, 2);
    out.push({ prefix, code, params: body.slice(code === 'A' ? 1 : 2) });
  }
  return out;
}

/** The ^FH indicator of a ^FH command's parameters: the character given, `_` when none. */
const fhIndicator = (params: string): string => (params && !/^[\s^~]/.test(params) ? params[0]! : '_');
/** A byte a ^FH hex escape must not make: a control character, DEL, or a ZPL prefix. */
const forbiddenByte = (code: number): boolean => code < 0x20 || code === 0x7f || code === 0x5e || code === 0x7e;
const hex2 = (code: number) => code.toString(16).toUpperCase().padStart(2, '0');

/**
 * What is wrong with the commands of a template: a command not on the allow-list (named, with why),
 * a control character, ^CI with remapping, a ^FH escape that writes a control character or a prefix.
 */
export function zplCommandProblems(zpl: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const once = (p: string) => {
    if (!seen.has(p)) problems.push(p);
    seen.add(p);
  };
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the printer
  const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.exec(zpl);
  if (control)
    once(
      tk(
        `The template holds the control character 0x${hex2(control[0].charCodeAt(0))}, which labels may not use (a printer may take it for a command prefix)`,
      ),
    );
  let fh: string | null = null;
  for (const c of zplCommands(zpl)) {
    const name = `${c.prefix}${c.code}`;
    if (c.prefix === '~' || !ZPL_LABEL_COMMANDS.has(c.code)) {
      once(tk(`The template uses ${name}, which labels may not use (${refusedReason(c.prefix, c.code)})`));
      continue;
    }
    if (c.code === 'CI' && !/^\s*\d*\s*$/.test(c.params))
      once(tk('The template uses ^CI with character remapping, which labels may not use: write ^CI and the character set only (^CI28)'));
    if (c.code === 'FH') {
      fh = fhIndicator(c.params);
      if (fh.charCodeAt(0) > 0x7e) once(tk('The ^FH indicator must be a printable ASCII character'));
    }
    if (c.code === 'FS') fh = null;
    if ((c.code === 'FD' || c.code === 'FV') && fh !== null) {
      const escape = new RegExp(`${fh.replace(/[.*+?${}()|[\]\\/-]/g, '\\$&')}([0-9A-Fa-f]{2})`, 'g');
      for (const m of c.params.replace(FIELD_PATTERN, '').replace(WORD_PATTERN, '').matchAll(escape)) {
        if (forbiddenByte(parseInt(m[1]!, 16)))
          once(
            tk(
              `The template's ^FH field writes ${m[0]} (${parseInt(m[1]!, 16) < 0x20 || m[1]!.toUpperCase() === '7F' ? tk('a control character') : tk('a ZPL prefix')}), which labels may not use`,
            ),
          );
      }
    }
  }
  return problems;
}

/**
 * A value as it goes into ZPL field data: tabs and line breaks become spaces, every other control
 * character (C0, 0x00 to 0x1F) and DEL is removed, and the prefixes ^ and ~ become spaces.
 */
export const zplValue = (value: string): string =>
  value
    .replace(/[\t\r\n]/g, ' ')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the printer
    .replace(/[\u0000-\u001F\u007F]/g, '')
    .replace(/[\^~]/g, ' ');

/** A value in the data of a ^FH field: as zplValue, and its indicator written as a hex escape of itself, so data never makes an escape. */
function zplHexValue(value: string, indicator: string): string {
  const code = indicator.charCodeAt(0);
  const own = code < 0x80 ? `${indicator}${hex2(code)}` : ' ';
  return zplValue(value).split(indicator).join(own);
}

/**
 * The template with its fields filled from `data` (a missing value prints as nothing) and its words
 * (`{{t:Qty}}`) written by `word`: the printing person's language on the server, English when absent.
 * Both are cleaned the same way, so neither can become a ZPL command.
 */
export function fillTemplate(zpl: string, data: ReadonlyMap<string, string>, word: (english: string) => string = (w) => w): string {
  let fh: string | null = null;
  return zpl
    .split(/(?=[\^~])/)
    .map((part) => {
      const c = zplCommands(part)[0];
      if (c?.code === 'FH') fh = fhIndicator(c.params);
      const inHex = fh !== null && (c?.code === 'FD' || c?.code === 'FV') ? fh : null;
      if (c?.code === 'FS') fh = null;
      const clean = (value: string) => (inHex === null ? zplValue(value) : zplHexValue(value, inHex));
      return part
        .replace(FIELD_PATTERN, (_all, name: string) => clean(data.get(name) ?? ''))
        .replace(WORD_PATTERN, (_all, english: string) => clean(word(english)));
    })
    .join('');
}

/** Copies of a label by ^PQ: every label format of `zpl` gets `^PQn` (an existing ^PQ is replaced). */
export function withCopies(zpl: string, copies: number): string {
  return zpl.replace(/\^PQ[0-9,YN]*/gi, '').replace(/\^XZ/gi, `^PQ${copies}^XZ`);
}

/** A job's label formats: its ZPL cut after every ^XZ (the unit a printer prints or not). */
export function labelFormats(zpl: string): string[] {
  return zpl.split(/(?<=\^XZ)/i).filter((f) => f.trim() !== '');
}

/**
 * The labels of a job (its formats, each printed `copies` times, in order) after the first `printed`:
 * the same copies from the next whole format when the printer stopped between formats; otherwise
 * each remaining label as a format of its own with one copy (the cut format's remaining copies, then
 * the others). Answers undefined when that makes more than LABELS_PER_JOB_MAX formats.
 */
export function restOfJob(zpl: string, copies: number, printed: number): { zpl: string; copies: number; labels: number } | undefined {
  const formats = labelFormats(zpl);
  const done = Math.floor(printed / copies);
  const partial = printed % copies;
  if (partial === 0) return { zpl: formats.slice(done).join(''), copies, labels: formats.length - done };
  const count = copies - partial + (formats.length - done - 1) * copies;
  if (count > LABELS_PER_JOB_MAX) return undefined;
  const rest: string[] = [];
  for (let i = partial; i < copies; i++) rest.push(formats[done]!);
  for (const f of formats.slice(done + 1)) for (let i = 0; i < copies; i++) rest.push(f);
  return { zpl: rest.join(''), copies: 1, labels: rest.length };
}
