import { z } from 'zod';
import { LABEL_COPIES_DEFAULT } from './constants.ts';
import { callBase, idempotencyKeySchema, idSchema, withErr } from './common.ts';
import { isTimekeeper, type UserPerms } from './perms.ts';

// Labels and printers (docs/labels.md): ZPL templates with named fields, print jobs, print agents and
// their printers. A template's fields are written `{{fieldName}}` (letters and digits, no spaces);
// the server fills them with the label's data, each value cleaned by zplValue (no `^` or `~`, ZPL's
// command prefixes, and no control character), so data can never become a ZPL command; a template
// may use only the label-formatting commands of ZPL_LABEL_COMMANDS (docs/labels.md lists them with
// the reasons for what is refused).

/** `package`: a shipping package's label (its id as a barcode, order, customer, carrier, tracking, weight), printed with its packing list. */
export const LABEL_KINDS = ['stock', 'pick', 'orderTraveller', 'loc', 'staff', 'package'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/** The fields each kind of label may name, with the sample value of the preview. */
export const LABEL_FIELDS: ReadonlyMap<LabelKind, ReadonlyMap<string, string>> = new Map<LabelKind, ReadonlyMap<string, string>>([
  [
    'stock',
    new Map([
      ['stockId', 'S000000007'],
      ['partNumber', 'PN-10020'],
      ['description', 'Hex bolt M8 x 40, zinc'],
      ['warehouse', 'MAIN'],
      ['location', 'A-01-02'],
      ['qty', '25'],
      ['uom', 'EA'],
      ['lot', 'LOT-2291'],
      ['serial', ''],
      ['condition', 'NEW'],
      ['receivedDate', '2026-11-02'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'pick',
    new Map([
      ['orderId', 'SO-10442'],
      ['orderType', 'sos'],
      ['line', '3'],
      ['stockId', 'S000000007'],
      ['partNumber', 'PN-10020'],
      ['description', 'Hex bolt M8 x 40, zinc'],
      ['location', 'A-01-02'],
      ['qty', '12'],
      ['uom', 'EA'],
      ['lot', 'LOT-2291'],
      ['serial', ''],
      ['picker', 'Chris Clerk'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'orderTraveller',
    new Map([
      ['orderId', 'WO-2031'],
      ['operation', '20'],
      ['description', 'Weld frame'],
      ['workCenter', 'WELD-1'],
      ['partNumber', 'FRAME-200'],
      ['qty', '40'],
      ['dueDate', '2026-12-01'],
      ['plannedTime', '45 min'],
      ['taskBarcode', 'WO-2031-20'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'loc',
    new Map([
      ['location', 'A-01-02'],
      ['warehouse', 'MAIN'],
      ['description', 'Aisle A, bay 1, level 2'],
      ['locationType', 'bin'],
    ]),
  ],
  [
    'staff',
    new Map([
      ['name', 'Chris Clerk'],
      ['badge', 'B-000123'],
      ['userName', 'clerk'],
      ['org', 'Demo Manufacturing'],
    ]),
  ],
  [
    'package',
    new Map([
      ['packageNo', 'SO-10442-1'],
      ['orderId', 'SO-10442'],
      ['orderType', 'sos'],
      ['customer', 'Acme Trading, Dock 4'],
      ['warehouse', 'MAIN'],
      ['packageType', 'box'],
      ['weight', '4.2 kg'],
      ['dimensions', '40 x 30 x 20 cm'],
      ['carrier', 'UPS'],
      ['service', 'Ground'],
      ['tracking', '1Z999AA10123456784'],
      ['items', '3'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
]);

/**
 * Who may print (or download) another person's staff badge: administrators and timekeepers
 * (timeclockAdmin). Everyone else prints only their own: a badge punches the clock without a PIN.
 */
export const mayPrintAnyBadge = (perms: UserPerms): boolean => isTimekeeper(perms);

/** `{{ name }}`: a field reference of a template. */
export const FIELD_PATTERN = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;

/** Printer resolutions (dots per inch) and their dots per millimetre. */
export const LABEL_DPI = [152, 203, 300, 600] as const;
export const DPMM_OF_DPI: ReadonlyMap<number, number> = new Map([
  [152, 6],
  [203, 8],
  [300, 12],
  [600, 24],
]);
export const LABEL_MM_MIN = 10;
export const LABEL_MM_MAX = 300;
export const ZPL_MAX_CHARS = 20_000;
/** Labels one print call may make (a range of locations); 1,000 is the figure of the bench. */
export const LABELS_PER_JOB_MAX = 2000;
export const LABEL_COPIES_MAX = 999;
/** Labels one PDF download may hold (one page each, rendered on the server); more is refused with a message. */
export const LABELS_PER_PDF_MAX = 200;
export const LABEL_DOWNLOAD_FORMATS = ['png', 'pdf'] as const;

/**
 * What is wrong with a template's text for a kind, or an empty list: unknown fields, braces that open
 * a field and do not close it, and the ^XA … ^XZ frame of a label.
 */
export function templateProblems(kind: LabelKind, zpl: string): string[] {
  const fields = LABEL_FIELDS.get(kind) ?? new Map<string, string>();
  const problems: string[] = [];
  const unknown = new Set<string>();
  for (const m of zpl.matchAll(FIELD_PATTERN)) if (!fields.has(m[1]!)) unknown.add(m[1]!);
  if (unknown.size) {
    const names = [...unknown].map((n) => `{{${n}}}`).join(', ');
    problems.push(
      `Unknown field${unknown.size > 1 ? 's' : ''} ${names}; a ${kindTitle(kind)} label may use ${[...fields.keys()].map((n) => `{{${n}}}`).join(', ')}`,
    );
  }
  const stripped = zpl.replace(FIELD_PATTERN, '');
  if (stripped.includes('{{') || stripped.includes('}}'))
    problems.push('A field must be written {{name}}: letters and digits between double braces, nothing else');
  if (!/^\s*\^XA/i.test(zpl) || !/\^XZ\s*$/i.test(zpl)) problems.push('The ZPL must start with ^XA and end with ^XZ');
  problems.push(...zplCommandProblems(zpl));
  return problems;
}

export const kindTitle = (kind: LabelKind): string => KIND_TITLES.get(kind) ?? kind;
const KIND_TITLES: ReadonlyMap<LabelKind, string> = new Map<LabelKind, string>([
  ['stock', 'stock'],
  ['pick', 'pick'],
  ['orderTraveller', 'order traveller'],
  ['loc', 'location'],
  ['staff', 'staff'],
  ['package', 'package'],
]);

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

const CHANGES_PRINTER = 'it changes the printer, not the label';
const USES_STORAGE = "it reads or writes the printer's storage, not the label";
/** Why a known command is refused; a command not named here is "not a label-formatting command". */
const ZPL_REFUSED_REASONS: ReadonlyMap<string, string> = new Map([
  ['A@', "it names a font file on the printer's storage; use a resident font (^A0, ^AA … ^AZ)"],
  ...['CC', 'CT', 'CD'].map((c): [string, string] => [c, "it changes ZPL's prefixes or delimiter, after which data could become commands"]),
  ...['DF', 'XF', 'FN', 'DG', 'DY', 'DN', 'DB', 'DU', 'DS', 'DT', 'IM', 'IL', 'IS', 'ID', 'XG', 'HF', 'HG', 'HY', 'CW', 'CM', 'FL'].map(
    (c): [string, string] => [c, USES_STORAGE],
  ),
  ...['HZ', 'HW', 'HH', 'HV', 'HT', 'HL', 'HQ', 'HS'].map((c): [string, string] => [
    c,
    'it makes the printer answer the host, not print a label',
  ]),
  ...['SN', 'SF'].map((c): [string, string] => [c, 'it makes data the record of the label does not have (serial numbers)']),
]);

/** Why a command (`^XY` or `~XY`) is refused. */
function refusedReason(prefix: string, code: string): string {
  if (prefix === '~') return CHANGES_PRINTER;
  const known = ZPL_REFUSED_REASONS.get(code);
  if (known) return known;
  if (/^[JKMNS]/.test(code)) return CHANGES_PRINTER;
  return 'it is not one of the label-formatting commands labels may use (docs/labels.md)';
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
      `The template holds the control character 0x${hex2(control[0].charCodeAt(0))}, which labels may not use (a printer may take it for a command prefix)`,
    );
  let fh: string | null = null;
  for (const c of zplCommands(zpl)) {
    const name = `${c.prefix}${c.code}`;
    if (c.prefix === '~' || !ZPL_LABEL_COMMANDS.has(c.code)) {
      once(`The template uses ${name}, which labels may not use (${refusedReason(c.prefix, c.code)})`);
      continue;
    }
    if (c.code === 'CI' && !/^\s*\d*\s*$/.test(c.params))
      once('The template uses ^CI with character remapping, which labels may not use: write ^CI and the character set only (^CI28)');
    if (c.code === 'FH') {
      fh = fhIndicator(c.params);
      if (fh.charCodeAt(0) > 0x7e) once('The ^FH indicator must be a printable ASCII character');
    }
    if (c.code === 'FS') fh = null;
    if ((c.code === 'FD' || c.code === 'FV') && fh !== null) {
      const escape = new RegExp(`${fh.replace(/[.*+?${}()|[\]\\/-]/g, '\\$&')}([0-9A-Fa-f]{2})`, 'g');
      for (const m of c.params.replace(FIELD_PATTERN, '').matchAll(escape)) {
        if (forbiddenByte(parseInt(m[1]!, 16)))
          once(
            `The template's ^FH field writes ${m[0]} (${parseInt(m[1]!, 16) < 0x20 || m[1]!.toUpperCase() === '7F' ? 'a control character' : 'a ZPL prefix'}), which labels may not use`,
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

/** The template with its fields filled from `data` (a missing value prints as nothing). */
export function fillTemplate(zpl: string, data: ReadonlyMap<string, string>): string {
  let fh: string | null = null;
  return zpl
    .split(/(?=[\^~])/)
    .map((part) => {
      const c = zplCommands(part)[0];
      if (c?.code === 'FH') fh = fhIndicator(c.params);
      const inHex = fh !== null && (c?.code === 'FD' || c?.code === 'FV') ? fh : null;
      if (c?.code === 'FS') fh = null;
      return part.replace(FIELD_PATTERN, (_all, name: string) => {
        const value = data.get(name) ?? '';
        return inHex === null ? zplValue(value) : zplHexValue(value, inHex);
      });
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

export { printerProblemInWords } from './printer-words.ts';

// ---------------------------------------------------------------------------------------------
// Printers, agents and jobs

/** What a printer answers to ~HS, or that it does not answer. */
export const PRINTER_STATES = ['online', 'paused', 'paperOut', 'headOpen', 'ribbonOut', 'unreachable', 'unknown'] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];
export const agentPrinterSchema = z.object({
  /** Unique on the site: `<agentId>/<printer id of the agent's config>`. */
  id: z.string().max(200),
  name: z.string().max(200),
  state: z.enum(PRINTER_STATES),
  detail: z.string().max(500).optional(),
});
export type AgentPrinter = z.infer<typeof agentPrinterSchema>;
export const labelAgentSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  /** Connected and heard from within the heartbeat window (LABEL_AGENT_OFFLINE_SECS). */
  connected: z.boolean(),
  lastSeen: z.string(),
  printers: z.array(agentPrinterSchema),
  /** The agent has a credential of its own (label/agent/create); false: an old agent that must be paired. */
  paired: z.boolean().optional(),
  /** Who added the agent and when. */
  createdBy: z.string().optional(),
  createdAt: z.string().optional(),
  /** What happened to its connection last: took over from an older connection, … */
  note: z.string().nullable().optional(),
});
export type LabelAgent = z.infer<typeof labelAgentSchema>;

/** A job's life: queued (at the server or the agent), sent (the printer took the bytes), printed, held (printer not ready, retried), failed. */
export const JOB_STATES = ['queued', 'sent', 'printed', 'held', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINAL_JOB_STATES: ReadonlySet<JobState> = new Set<JobState>(['printed', 'failed']);
export const labelJobSchema = z.object({
  jobId: z.string(),
  kind: z.enum(LABEL_KINDS),
  templateId: z.string(),
  templateVersion: z.number().int(),
  printerId: z.string(),
  copies: z.number().int(),
  labels: z.number().int(),
  state: z.enum(JOB_STATES),
  reason: z.string().nullable(),
  /**
   * Labels the printer reported printed, of labels x copies (the agent's ~HS counters, docs/labels.md
   * "Printed means printed"); null when not known (a printer without status, or nothing reported yet).
   */
  printed: z.number().int().nullable().optional(),
  /** The job printing the rest of this interrupted one (label/job/printRest), once asked. */
  restJob: z.string().nullable().optional(),
  requestedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
});
export type LabelJob = z.infer<typeof labelJobSchema>;

/** What the server sends an agent to print (the socket's printJob event, and agent/hello's pending jobs). */
export const printJobSchema = z.object({
  jobId: z.string(),
  /** The printer's id in the agent's config (without the agent prefix). */
  printer: z.string(),
  zpl: z.string(),
  copies: z.number().int().min(1).max(LABEL_COPIES_MAX),
  expiresAt: z.string(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

/**
 * A print agent's own credential (docs/labels.md, Agent credentials): `agk_` and 43 characters of
 * base64url (32 random bytes), shown once by label/agent/create. It speaks only the agent protocol.
 */
export const AGENT_KEY_PATTERN = /^agk_[A-Za-z0-9_-]{43}$/;
export const looksLikeAgentKey = (token: string): boolean => token.startsWith('agk_');
export const agentIdSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, dots, underscores or hyphens');
/** Why the server closed an agent's connection (the agentClosed event just before). */
export const AGENT_CLOSE_REASONS = ['takenOver', 'revoked'] as const;
export const agentClosedSchema = z.object({ why: z.enum(AGENT_CLOSE_REASONS), message: z.string() });

/** The agent's greeting over the socket: who it is and its printers. */
export const agentHelloSchema = z.object({
  agentId: agentIdSchema,
  name: z.string().min(1).max(100),
  version: z.string().max(40).optional(),
  printers: z
    .array(
      z.object({
        id: z
          .string()
          .min(1)
          .max(60)
          .regex(/^[A-Za-z0-9._-]+$/),
        name: z.string().max(200),
        state: z.enum(PRINTER_STATES),
        detail: z.string().max(500).optional(),
      }),
    )
    .max(100),
});
export type AgentHello = z.infer<typeof agentHelloSchema>;
export const agentResultSchema = z.object({
  jobId: z.string().min(1).max(100),
  state: z.enum(JOB_STATES),
  reason: z.string().max(500).optional(),
  /** Labels printed so far (of labels x copies), from the printer's ~HS counters; absent when not known. */
  printed: z
    .number()
    .int()
    .min(0)
    .max(LABELS_PER_JOB_MAX * LABEL_COPIES_MAX)
    .optional(),
});
export type AgentResult = z.infer<typeof agentResultSchema>;

// ---------------------------------------------------------------------------------------------
// Templates

export const labelTemplateSchema = z.object({
  templateId: z.string(),
  kind: z.enum(LABEL_KINDS),
  name: z.string(),
  version: z.number().int(),
  zpl: z.string(),
  widthMm: z.number(),
  heightMm: z.number(),
  dpi: z.number().int(),
  isDefault: z.boolean(),
  savedBy: z.string(),
  savedAt: z.string(),
});
export type LabelTemplate = z.infer<typeof labelTemplateSchema>;

const templateBody = {
  kind: z.enum(LABEL_KINDS),
  zpl: z.string().min(1).max(ZPL_MAX_CHARS),
  widthMm: z.number().min(LABEL_MM_MIN).max(LABEL_MM_MAX),
  heightMm: z.number().min(LABEL_MM_MIN).max(LABEL_MM_MAX),
  dpi: z.union(LABEL_DPI.map((d) => z.literal(d)) as [z.ZodLiteral<152>, z.ZodLiteral<203>, z.ZodLiteral<300>, z.ZodLiteral<600>]),
};

/** One label's data: field name → text. */
export const labelDataSchema = z.record(z.string().max(40), z.string().max(500));

/**
 * What a print or a download makes labels of; exactly one: stock records, locations (a list or a
 * range of one warehouse), accounts (staff badges: one's own, anyone's for mayPrintAnyBadge), rows
 * naming records of other areas (pick labels: orderId and line, and stockId once picked; travellers:
 * orderId and taskBarcode; packages: packageNo; every value is read from the records, docs/labels.md),
 * or the test label.
 */
export const labelSourceSchema = z.object({
  stockIds: z.array(z.string().min(1).max(40)).min(1).max(LABELS_PER_JOB_MAX).optional(),
  locationIds: z.array(z.string().min(1).max(40)).min(1).max(LABELS_PER_JOB_MAX).optional(),
  locationRange: z
    .object({ warehouse: z.string().min(1).max(20), from: z.string().min(1).max(40), to: z.string().min(1).max(40) })
    .optional(),
  accountIds: z.array(z.string().min(1).max(40)).min(1).max(100).optional(),
  rows: z.array(labelDataSchema).min(1).max(LABELS_PER_JOB_MAX).optional(),
  test: z.literal(true).optional(),
});
export type LabelSource = z.infer<typeof labelSourceSchema>;

export const labelCalls = {
  'label/template/list': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ kind: z.enum(LABEL_KINDS).optional() }),
    response: withErr({ templates: z.array(labelTemplateSchema).optional() }),
  },
  'label/template/save': {
    locId: undefined,
    auth: 'required',
    /** A new template without templateId; with it, a new version (expectedVersion: the one the admin edited). */
    body: callBase.extend({
      templateId: idSchema.optional(),
      expectedVersion: z.number().int().min(1).optional(),
      name: z.string().min(1).max(100),
      isDefault: z.boolean().optional(),
      ...templateBody,
    }),
    response: withErr({ template: labelTemplateSchema.optional() }),
  },
  'label/preview': {
    locId: undefined,
    auth: 'required',
    /** ZPL as typed, rendered with the kind's sample data (or `data`): a PNG as base64. */
    body: callBase.extend({ ...templateBody, data: labelDataSchema.optional() }),
    response: withErr({ png: z.string().optional(), zpl: z.string().optional() }),
  },
  'label/render': {
    locId: undefined,
    auth: 'required',
    /**
     * A download without a printer: `png` (default) is the first label of the source as a PNG;
     * `pdf` is every label of it (at most LABELS_PER_PDF_MAX), one page each at the label's size.
     * Both base64.
     */
    body: callBase.extend({
      kind: z.enum(LABEL_KINDS),
      templateId: idSchema.optional(),
      source: labelSourceSchema,
      format: z.enum(LABEL_DOWNLOAD_FORMATS).default('png'),
    }),
    response: withErr({
      png: z.string().optional(),
      pdf: z.string().optional(),
      labels: z.number().int().optional(),
      templateId: z.string().optional(),
      templateVersion: z.number().int().optional(),
    }),
  },
  'label/print': {
    locId: undefined,
    auth: 'required',
    /** idempotencyKey is the job's id: the same key prints once. */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      kind: z.enum(LABEL_KINDS),
      templateId: idSchema.optional(),
      printerId: z.string().min(1).max(200),
      copies: z.number().int().min(1).max(LABEL_COPIES_MAX).default(LABEL_COPIES_DEFAULT),
      source: labelSourceSchema,
    }),
    response: withErr({ job: labelJobSchema.optional() }),
  },
  'label/job/list': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ limit: z.number().int().min(1).max(200).default(50) }),
    response: withErr({ jobs: z.array(labelJobSchema).optional() }),
  },
  'label/job/reprint': {
    locId: undefined,
    auth: 'required',
    /** The same bytes as the job printed (its template version and data), as a new job. */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      jobId: z.string().min(1).max(100),
      printerId: z.string().min(1).max(200).optional(),
    }),
    response: withErr({ job: labelJobSchema.optional() }),
  },
  /**
   * An interrupted job (failed, or held, with fewer labels printed than it had): a new job of only
   * the labels not printed. Once per job: another key for the same job is 409 naming the first.
   */
  'label/job/printRest': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, jobId: z.string().min(1).max(100) }),
    response: withErr({ job: labelJobSchema.optional() }),
  },
  'label/agent/list': {
    locId: undefined,
    auth: 'required',
    body: callBase,
    response: withErr({ agents: z.array(labelAgentSchema).optional() }),
  },
  /** A new print agent of the site with its own credential; the key (`agk_…`) is answered once, never stored. */
  'label/agent/create': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ agentId: agentIdSchema, name: z.string().trim().min(1).max(100) }),
    response: withErr({ agentKey: z.string().optional(), agent: labelAgentSchema.optional() }),
  },
  /** Removes an agent: its credential, its printers, its pending jobs (failed); its connections end at once. */
  'label/agent/revoke': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ agentId: agentIdSchema }),
    response: withErr({ agentId: z.string().optional(), failedJobs: z.number().int().optional() }),
  },
} as const;
