import { z } from 'zod';
import { LABEL_COPIES_DEFAULT } from './constants.ts';
import { callBase, idempotencyKeySchema, idSchema, withErr } from './common.ts';
import {
  FIELD_PATTERN,
  LABEL_COPIES_MAX,
  LABEL_DOWNLOAD_FORMATS,
  LABEL_DPI,
  LABEL_FIELDS,
  LABEL_KINDS,
  LABEL_WORDS,
  LABEL_MM_MAX,
  LABEL_MM_MIN,
  LABELS_PER_JOB_MAX,
  WORD_PATTERN,
  ZPL_MAX_CHARS,
  type LabelKind,
} from './labels/fields.ts';
import { labelAgentSchema, labelJobSchema, agentIdSchema } from './labels/agents.ts';
import { zplCommandProblems } from './labels/zpl.ts';
import { fill, tk } from './i18n.ts';

// Labels and printers (docs/labels.md): ZPL templates with named fields, print jobs, print agents and
// their printers. A template's fields are written `{{fieldName}}` (letters and digits, no spaces);
// the server fills them with the label's data, each value cleaned by zplValue (no `^` or `~`, ZPL's
// command prefixes, and no control character), so data can never become a ZPL command; a template
// may use only the label-formatting commands of ZPL_LABEL_COMMANDS (docs/labels.md lists them with
// the reasons for what is refused).
//
// The kinds and fields are in labels/fields.ts, the ZPL rules in labels/zpl.ts, printers, agents and
// jobs in labels/agents.ts; this file has the templates and the calls, and answers for all of them.

export * from './labels/fields.ts';
export * from './labels/zpl.ts';
export * from './labels/agents.ts';
export { printerProblemInWords } from './printer-words.ts';

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
    const allowed = [...fields.keys()].map((n) => `{{${n}}}`).join(', ');
    const key =
      unknown.size > 1 ? tk('Unknown fields {{0}}; a {{1}} label may use {{2}}') : tk('Unknown field {{0}}; a {{1}} label may use {{2}}');
    problems.push(fill(key, names, kindTitle(kind), allowed));
  }
  const unknownWords = new Set<string>();
  for (const m of zpl.matchAll(WORD_PATTERN)) if (!LABEL_WORDS.has(m[1]!)) unknownWords.add(m[1]!);
  if (unknownWords.size) {
    const words = [...unknownWords].map((w) => `{{t:${w}}}`).join(', ');
    problems.push(
      tk(`Unknown label word ${words}; the words that print in the language of whoever prints are ${[...LABEL_WORDS].join(', ')}`),
    );
  }
  const stripped = zpl.replace(FIELD_PATTERN, '').replace(WORD_PATTERN, '');
  if (stripped.includes('{{') || stripped.includes('}}'))
    problems.push(tk('A field must be written {{name}}: letters and digits between double braces, nothing else'));
  if (!/^\s*\^XA/i.test(zpl) || !/\^XZ\s*$/i.test(zpl)) problems.push(tk('The ZPL must start with ^XA and end with ^XZ'));
  problems.push(...zplCommandProblems(zpl));
  return problems;
}

export const kindTitle = (kind: LabelKind): string => KIND_TITLES.get(kind) ?? kind;
const KIND_TITLES: ReadonlyMap<LabelKind, string> = new Map<LabelKind, string>([
  ['stock', tk('stock')],
  ['pick', tk('pick')],
  ['orderTraveller', tk('order traveller')],
  ['loc', tk('location')],
  ['staff', tk('staff')],
  ['package', tk('package')],
]);

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
