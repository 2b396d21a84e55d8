import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import {
  fillTemplate,
  kindTitle,
  LABEL_FIELDS,
  LABELS_PER_JOB_MAX,
  LABELS_PER_PDF_MAX,
  mayPrintAnyBadge,
  restOfJob,
  templateProblems,
  zplCommandProblems,
  type LabelKind,
  type LabelSource,
  type LabelTemplate,
} from '@floorhand/contract/labels';
import { isAdmin } from '@floorhand/contract/perms';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Deps } from '../../lib/calls.ts';
import type { Db } from '../../db/client.ts';
import type { Body } from '../../lib/call-body.ts';
import { badInput, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { imagesPdf, type PdfImagePage } from '../../lib/pdf.ts';
import { selectStock } from '../stock/queries.ts';
import { DEFAULT_TEMPLATES, TEST_LABEL, TEST_LABEL_MM } from './defaults.ts';
import { renderZpl } from './render.ts';
import * as repo from './repository.ts';
import { announceJob, publicJob, sendToAgent } from './agents.ts';
import { blindPlaces, refuseBlind } from '../../lib/blind-places.ts';

/** The printers of a site's connected agents, for the session's answer (modules/session). */
export { attachedPrinters } from './agents.ts';

// Labels and printers (docs/labels.md): templates with versions, labels made from stock, locations,
// accounts or rows of data, print jobs relayed to the print agent that owns the printer, and the
// agents' side of the socket (agents.ts).

/** A job not printed within this time fails as expired (the agent stops retrying it too). */
export const JOB_EXPIRY_MS = 60 * 60 * 1000;

// ── templates ──

/** Organisations known to have templates, per database (tests open several). */
const seeded = new WeakMap<Db, Set<string>>();
/** The default templates of every kind, inserted the first time an organisation uses labels. */
export async function ensureDefaultTemplates(db: Db, orgId: string): Promise<void> {
  const known = seeded.get(db) ?? new Set<string>();
  seeded.set(db, known);
  if (known.has(orgId)) return;
  // Per kind: an organisation that started before a kind existed (package labels) gets its default too.
  const kinds = new Set((await repo.currentTemplates(db, orgId)).map((t) => t.kind));
  for (const t of DEFAULT_TEMPLATES)
    if (!kinds.has(t.kind)) await repo.insertTemplateVersion(db, orgId, { ...t, version: 1, savedBy: 'system' });
  known.add(orgId);
}

export async function listTemplates(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/template/list'>,
): Promise<CallResponse<'label/template/list'>> {
  await ensureDefaultTemplates(deps.db, auth.orgId);
  return { templates: await repo.currentTemplates(deps.db, auth.orgId, body.kind) };
}

/** The sample data of a kind with `data` over it. */
function sampleData(kind: LabelKind, data?: Record<string, string>): Map<string, string> {
  const out = new Map(LABEL_FIELDS.get(kind) ?? []);
  for (const [k, v] of Object.entries(data ?? {})) if (out.has(k)) out.set(k, v);
  return out;
}

function refuseProblems(kind: LabelKind, zpl: string): void {
  const problems = templateProblems(kind, zpl);
  if (problems.length) throw badInput(problems.join('. '));
}

export async function previewTemplate(
  _deps: Deps,
  _auth: AuthContext,
  body: Body<'label/preview'>,
): Promise<CallResponse<'label/preview'>> {
  refuseProblems(body.kind, body.zpl);
  const zpl = fillTemplate(body.zpl, sampleData(body.kind, body.data));
  const [png] = await renderZpl(zpl, body.widthMm, body.heightMm, body.dpi);
  return { png, zpl };
}

export async function saveTemplate(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/template/save'>,
): Promise<CallResponse<'label/template/save'>> {
  if (!isAdmin(auth.perms)) throw forbidden('Only an administrator can change label templates');
  refuseProblems(body.kind, body.zpl);
  // ZPL that does not render is refused too (with the kind's sample data).
  await renderZpl(fillTemplate(body.zpl, sampleData(body.kind)), body.widthMm, body.heightMm, body.dpi);
  await ensureDefaultTemplates(deps.db, auth.orgId);
  let id = body.templateId;
  let version = 1;
  if (id) {
    const current = await repo.templateVersion(deps.db, auth.orgId, id);
    if (!current) throw notFound(`No label template '${id}'`);
    if (current.kind !== body.kind) throw badInput(`The template '${id}' is a ${current.kind} label; its kind cannot change`);
    if (body.expectedVersion !== undefined && body.expectedVersion !== current.version) {
      throw conflict(`The template '${current.name}' was saved by someone else (version ${current.version}); reload it and try again`);
    }
    version = current.version + 1;
  } else {
    id = `t-${randomUUID().slice(0, 8)}`;
  }
  const inserted = await repo.insertTemplateVersion(deps.db, auth.orgId, {
    id,
    version,
    kind: body.kind,
    name: body.name,
    zpl: body.zpl,
    widthMm: body.widthMm,
    heightMm: body.heightMm,
    dpi: body.dpi,
    isDefault: body.isDefault ?? false,
    savedBy: auth.userName,
  });
  if (!inserted) throw conflict('The template was saved by someone else at the same moment; reload it and try again');
  return { template: (await repo.templateVersion(deps.db, auth.orgId, id, version))! };
}

/** The template a print uses: the one named (of the right kind), else the kind's default. */
async function resolveTemplate(db: Db, orgId: string, kind: LabelKind, templateId?: string, version?: number): Promise<LabelTemplate> {
  await ensureDefaultTemplates(db, orgId);
  if (templateId) {
    const t = await repo.templateVersion(db, orgId, templateId, version);
    if (!t) throw notFound(`No label template '${templateId}'`);
    if (t.kind !== kind) throw badInput(`The template '${t.name}' is for ${t.kind} labels, not ${kind}`);
    return t;
  }
  const all = await repo.currentTemplates(db, orgId, kind);
  const chosen = all.filter((t) => t.isDefault).sort((a, b) => b.savedAt.localeCompare(a.savedAt))[0] ?? all[0];
  if (!chosen) throw notFound(`No ${kind} label template exists`);
  return chosen;
}

// ── label data ──

const today = () => new Date().toISOString().slice(0, 10);

function checkSource(source: LabelSource): void {
  const given = (['stockIds', 'locationIds', 'locationRange', 'accountIds', 'rows', 'test'] as const).filter(
    (k) => source[k] !== undefined,
  );
  if (given.length !== 1)
    throw badInput('Say what to print: exactly one of stockIds, locationIds, locationRange, accountIds, rows or test');
}

const OTHERS_BADGE =
  "Only administrators and timekeepers may print another person's badge (a badge punches the clock); you may print your own";

/** A staff badge punches without a PIN: one's own, or anyone's for administrators and timekeepers. */
function refuseOthersBadges(auth: AuthContext, source: LabelSource): void {
  if (source.accountIds?.some((id) => id !== auth.accountId) && !mayPrintAnyBadge(auth.perms)) throw forbidden(OTHERS_BADGE);
}

/** The value of a row's field, trimmed; an empty one is absent. */
const field = (row: ReadonlyMap<string, string>, name: string): string | undefined => row.get(name)?.trim() || undefined;
/** A quantity of the database (numeric text) as a label prints it. */
const qtyText = (q: string): string => String(Number(q));

/**
 * Labels from rows (other areas' pick, traveller and package labels): each row names its record
 * (order and line, order and task, package) and every value of the label is read from the
 * organisation's records, never the request's; the kinds made of one record (stock, location, staff)
 * take no rows at all.
 */
async function orderLabelRows(
  db: Db,
  auth: AuthContext,
  kind: LabelKind,
  rows: Array<Map<string, string>>,
): Promise<Array<Map<string, string>>> {
  if (kind === 'pick') return pickRows(db, auth, rows);
  if (kind === 'orderTraveller') return travellerRows(db, auth, rows);
  if (kind === 'package') return packageRows(db, auth, rows);
  const from = kind === 'stock' ? 'stockIds' : kind === 'loc' ? 'locationIds or locationRange' : 'accountIds';
  throw badInput(`A ${kindTitle(kind)} label prints its record as it is: say which (${from}), not the label's values`);
}

/**
 * Pick labels: `orderId` (with `orderType` when two types share the number) and `line` name an order
 * line of the organisation; its part, description and unit are the line's item. With `stockId` the
 * record must be picked for that line: the quantity is what was picked of it, the place where it is,
 * its lot and serial. Without, the label is the line's ticket: the quantity the line asks for.
 */
async function pickRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'orderId') ?? ''))];
  const stockIds = [...new Set(rows.map((r) => field(r, 'stockId')).filter((s): s is string => s !== undefined))];
  const [lines, stock, picks] = await Promise.all([
    repo.orderLinesByNumbers(db, auth.orgId, numbers),
    stockIds.length ? selectStock(db, sql`WHERE sr.org_id = ${auth.orgId} AND sr.stock_id = ANY(${sql.param(stockIds)})`) : [],
    stockIds.length ? repo.picksOfStock(db, auth.orgId, stockIds) : [],
  ]);
  const stockById = new Map(stock.map((r) => [r.stockId, r]));
  return rows.map((row) => {
    const orderId = field(row, 'orderId');
    const lineNo = field(row, 'line');
    if (!orderId || !lineNo) throw badInput('A pick label names its order line: orderId and line');
    const type = field(row, 'orderType');
    const found = lines.filter((l) => l.number === orderId && String(l.line_no) === lineNo && (!type || l.type === type));
    if (!found.length) throw notFound(`No line ${lineNo} of order '${orderId}'`);
    if (found.length > 1) throw badInput(`Orders of several types are numbered '${orderId}'; say its orderType`);
    const line = found[0]!;
    const out = new Map([
      ['orderId', line.number],
      ['orderType', line.type],
      ['line', String(line.line_no)],
      ['partNumber', line.part_number],
      ['description', line.description],
      ['uom', line.uom],
      ['qty', qtyText(line.qty)],
      ['stockId', ''],
      ['location', ''],
      ['lot', ''],
      ['serial', ''],
      ['picker', ''],
      ['printedDate', today()],
    ]);
    const stockId = field(row, 'stockId');
    if (stockId) {
      const record = stockById.get(stockId);
      if (!record) throw notFound(`No stock record '${stockId}'`);
      const picked = picks.find(
        (p) => p.stock_id === stockId && p.number === line.number && p.type === line.type && p.line_no === line.line_no,
      );
      if (!picked) throw badInput(`The stock record '${stockId}' is not picked for line ${line.line_no} of order '${line.number}'`);
      out
        .set('stockId', record.stockId)
        .set('qty', qtyText(picked.qty))
        .set('location', record.location)
        .set('lot', record.lot ?? '')
        .set('serial', record.serial ?? '')
        .set('picker', picked.pickers);
    }
    return out;
  });
}

/**
 * Order travellers: `orderId` names an order of the organisation (its quantity is its number of
 * lines, its due date the order's); `taskBarcode` is a task of that order (the label is that
 * operation's: its description, work centre, planned time) or the order number itself (the label of
 * the order: the customer as description).
 */
async function travellerRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'orderId') ?? ''))];
  const codes = [...new Set(rows.map((r) => field(r, 'taskBarcode')).filter((c): c is string => c !== undefined))];
  const [orders, tasks] = await Promise.all([
    repo.ordersByNumbers(db, auth.orgId, numbers),
    codes.length ? repo.tasksByCodes(db, auth.orgId, codes) : [],
  ]);
  const taskByCode = new Map(tasks.map((t) => [t.task_code, t]));
  return rows.map((row) => {
    const orderId = field(row, 'orderId');
    if (!orderId) throw badInput('An order traveller names its order: orderId');
    const code = field(row, 'taskBarcode') ?? orderId;
    const task = code === orderId ? undefined : taskByCode.get(code);
    if (code !== orderId && task?.order_number !== orderId) throw notFound(`No task '${code}' of order '${orderId}'`);
    const candidates = orders.filter((o) => o.number === orderId);
    const order = candidates.find((o) => o.type === task?.kind) ?? candidates[0];
    if (!order) throw notFound(`No order '${orderId}'`);
    return new Map([
      ['orderId', order.number],
      ['qty', String(order.line_count)],
      ['dueDate', order.due_date ?? ''],
      ['taskBarcode', task ? task.task_code : order.number],
      ['operation', task?.operation_number ?? ''],
      ['description', task ? task.description : (order.customer ?? '')],
      ['workCenter', task?.work_centre ?? ''],
      ['plannedTime', task?.planned_minutes == null ? '' : `${Number(task.planned_minutes)} min`],
      ['partNumber', ''],
      ['printedDate', today()],
    ]);
  });
}

/** Package labels: `packageNo` names a package of the organisation; everything on the label is the package's and its order's. */
async function packageRows(db: Db, auth: AuthContext, rows: Array<Map<string, string>>): Promise<Array<Map<string, string>>> {
  const numbers = [...new Set(rows.map((r) => field(r, 'packageNo') ?? ''))];
  const byNo = new Map((await repo.packagesByNumbers(db, auth.orgId, numbers)).map((p) => [p.package_no, p]));
  return rows.map((row) => {
    const packageNo = field(row, 'packageNo');
    if (!packageNo) throw badInput('A package label names its package: packageNo');
    const p = byNo.get(packageNo);
    if (!p) throw notFound(`No package '${packageNo}'`);
    const n = (v: string | null) => (v === null ? null : Number(v));
    const [length, width, height] = [n(p.length), n(p.width), n(p.height)];
    return new Map([
      ['packageNo', p.package_no],
      ['orderId', p.number],
      ['orderType', p.order_type],
      ['customer', p.customer ?? ''],
      ['warehouse', p.warehouse],
      ['packageType', p.type],
      ['weight', p.weight === null ? '' : `${Number(p.weight)} kg`],
      ['dimensions', length !== null && width !== null && height !== null ? `${length} x ${width} x ${height} cm` : ''],
      ['carrier', p.carrier ?? ''],
      ['service', p.service ?? ''],
      ['tracking', p.tracking ?? ''],
      ['items', String(p.items)],
      ['printedDate', today()],
    ]);
  });
}

/** Each label's data from its source (exactly one kind of source), read from the organisation's records. */
export async function labelRows(db: Db, auth: AuthContext, kind: LabelKind, source: LabelSource): Promise<Array<Map<string, string>>> {
  checkSource(source);
  refuseOthersBadges(auth, source);
  if (source.rows) {
    const fields = LABEL_FIELDS.get(kind)!;
    const rows = source.rows.map((row) => {
      const unknown = Object.keys(row).filter((k) => !fields.has(k));
      if (unknown.length)
        throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')} for a ${kind} label`);
      return new Map(Object.entries(row));
    });
    return orderLabelRows(db, auth, kind, rows);
  }
  if (source.stockIds) {
    if (kind !== 'stock' && kind !== 'pick') throw badInput(`Stock records make stock or pick labels, not ${kind} labels`);
    const records = await selectStock(db, sql`WHERE sr.org_id = ${auth.orgId} AND sr.stock_id = ANY(${sql.param(source.stockIds)})`);
    const byId = new Map(records.map((r) => [r.stockId, r]));
    // A stock label prints its quantity: none of a location the caller counts blind (counts/blind.ts).
    const hidden = await blindPlaces(db, auth);
    return source.stockIds.map((stockId) => {
      const r = byId.get(stockId);
      if (!r) throw notFound(`No stock record '${stockId}'`);
      refuseBlind(hidden, [r.locationId]);
      return new Map([
        ['stockId', r.stockId],
        ['partNumber', r.partNumber],
        ['description', r.description],
        ['warehouse', r.warehouse],
        ['location', r.location],
        ['qty', String(r.quantity)],
        ['uom', r.uom],
        ['lot', r.lot ?? ''],
        ['serial', r.serial ?? ''],
        ['condition', r.conditionCode ?? ''],
        ['receivedDate', r.receivedDate ?? ''],
        ['printedDate', today()],
      ]);
    });
  }
  if (source.locationIds || source.locationRange) {
    if (kind !== 'loc') throw badInput(`Locations make location labels, not ${kind} labels`);
    let rows: repo.LocationLabelRow[];
    if (source.locationIds) {
      rows = await repo.locationsByIds(db, auth.orgId, source.locationIds);
      const missing = source.locationIds.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw notFound(`No location '${missing[0]}'`);
    } else {
      const { warehouse, from, to } = source.locationRange!;
      rows = await repo.locationRange(db, auth.orgId, warehouse, from, to, LABELS_PER_JOB_MAX + 1);
      if (!rows.length) throw notFound(`No active location of warehouse '${warehouse}' from '${from}' to '${to}'`);
      if (rows.length > LABELS_PER_JOB_MAX) throw badInput(`The range holds more than ${LABELS_PER_JOB_MAX} locations; print it in parts`);
    }
    return rows.map(
      (r) =>
        new Map([
          ['location', r.code],
          ['warehouse', r.warehouse],
          ['description', r.description],
          ['locationType', r.type],
        ]),
    );
  }
  if (source.accountIds) {
    if (kind !== 'staff') throw badInput(`Accounts make staff labels, not ${kind} labels`);
    // refuseOthersBadges (above): someone else's badge only for administrators and timekeepers.
    const rows = await repo.staffByIds(db, auth.orgId, source.accountIds);
    if (rows.length !== new Set(source.accountIds).size) throw notFound('No such account');
    return rows.map((r) => {
      if (!r.badge_code) throw badInput(`The account '${r.user_name}' has no badge code; give it one first`);
      return new Map([
        ['name', `${r.first_name} ${r.surnames}`.trim() || r.user_name],
        ['badge', r.badge_code],
        ['userName', r.user_name],
        ['org', r.org],
      ]);
    });
  }
  return [];
}

interface MadeLabels {
  zpl: string;
  labels: number;
  templateId: string;
  templateVersion: number;
  template?: LabelTemplate;
}

async function makeLabels(
  db: Db,
  auth: AuthContext,
  kind: LabelKind,
  source: LabelSource,
  templateId: string | undefined,
  printerName: string,
): Promise<MadeLabels> {
  checkSource(source);
  if (source.test) return { zpl: TEST_LABEL(printerName, new Date().toISOString()), labels: 1, templateId: 'test', templateVersion: 0 };
  const rows = await labelRows(db, auth, kind, source);
  const template = await resolveTemplate(db, auth.orgId, kind, templateId);
  // A template saved before the allow-list (docs/labels.md) prints only once an administrator saves it without what is refused.
  const problems = zplCommandProblems(template.zpl);
  if (problems.length)
    throw badInput(`The template '${template.name}' cannot print until an administrator saves it again: ${problems.join('. ')}`);
  return {
    zpl: rows.map((r) => fillTemplate(template.zpl, r)).join('\n'),
    labels: rows.length,
    templateId: template.templateId,
    templateVersion: template.version,
    template,
  };
}

const MM_PER_INCH = 25.4;
const PDF_RENDER_CHUNK = 50;

/**
 * What downloads when no printer is at hand: the first label of a source as a PNG, or every label as
 * a PDF (one page per label at the template's size, from the same server-rendered PNGs).
 */
export async function renderLabel(deps: Deps, auth: AuthContext, body: Body<'label/render'>): Promise<CallResponse<'label/render'>> {
  const made = await makeLabels(deps.db, auth, body.kind, body.source, body.templateId, 'download');
  const widthMm = made.template?.widthMm ?? TEST_LABEL_MM.width;
  const heightMm = made.template?.heightMm ?? TEST_LABEL_MM.height;
  const dpi = made.template?.dpi ?? 203;
  const labels = made.zpl.split(/(?<=\^XZ)/i).filter((l) => l.trim());
  const about = { labels: made.labels, templateId: made.templateId, templateVersion: made.templateVersion };
  if (body.format !== 'pdf') {
    const [png] = await renderZpl(labels[0] ?? made.zpl, widthMm, heightMm, dpi);
    return { png, ...about };
  }
  if (made.labels > LABELS_PER_PDF_MAX) {
    throw badInput(
      `A PDF holds at most ${LABELS_PER_PDF_MAX} labels and this makes ${made.labels}; download it in parts (a shorter range) or print it on a label printer`,
    );
  }
  // Fifty labels per render call: one call for many labels is about half the time per label of one
  // call each (108 against 187 ms a label, measured on this shared machine), and fifty bounds the
  // PNGs held at once.
  const pages: PdfImagePage[] = [];
  for (let i = 0; i < labels.length; i += PDF_RENDER_CHUNK) {
    for (const png of await renderZpl(labels.slice(i, i + PDF_RENDER_CHUNK).join(''), widthMm, heightMm, dpi)) {
      pages.push({ png: Buffer.from(png, 'base64'), widthIn: widthMm / MM_PER_INCH, heightIn: heightMm / MM_PER_INCH });
    }
  }
  const title = `${kindTitle(body.kind)} labels`;
  const pdf = await imagesPdf(title.charAt(0).toUpperCase() + title.slice(1), pages);
  return { pdf: Buffer.from(pdf).toString('base64'), ...about };
}

// ── jobs ──

/** `agentId/printer` → its parts. */
function splitPrinterId(printerId: string): { agentId: string; printer: string } {
  const at = printerId.indexOf('/');
  if (at <= 0 || at === printerId.length - 1) throw badInput(`'${printerId}' is not a printer id (agent/printer)`);
  return { agentId: printerId.slice(0, at), printer: printerId.slice(at + 1) };
}

async function checkPrinter(db: Db, auth: AuthContext, printerId: string): Promise<{ agentId: string; printer: string; name: string }> {
  const { agentId, printer } = splitPrinterId(printerId);
  const agent = (await repo.agentsOf(db, auth.orgId, auth.siteId)).find((a) => a.agentId === agentId);
  const known = agent?.printers.find((p) => p.id === printerId);
  if (!agent || !known) throw notFound(`No printer '${printerId}' on this site`);
  // Never to a printer whose agent is gone (revoked, or not heard from within LABEL_AGENT_OFFLINE_SECS).
  if (!agent.connected)
    throw notFound(
      `The printer '${known.name}' is not attached: its print agent '${agent.name}' is offline (last heard from ${agent.lastSeen})`,
    );
  return { agentId, printer, name: known.name };
}

export interface PrintLabelInput {
  /** The job's id: the same key prints once (a retry answers the job as it is). */
  idempotencyKey: string;
  kind: LabelKind;
  /** A printer of the site: `agentId/printer`. */
  printerId: string;
  copies?: number;
  /** A template of the kind; the kind's default when absent. */
  templateId?: string;
  /** What to print: stock ids, locations, accounts, or rows of field values (pick and traveller labels). */
  source: LabelSource;
}

/**
 * Prints labels: makes the ZPL from the template and the source's data, records the job (with the
 * template version and the bytes, so a reprint is exact) and sends it to the printer's agent. For
 * other modules too (picking's pick labels, orders' travellers): `printLabel(deps, auth, { kind:
 * 'pick', printerId, idempotencyKey, source: { rows: [{ orderId, line, stockId, … }] } })`.
 */
export async function printLabel(deps: Deps, auth: AuthContext, input: PrintLabelInput): Promise<CallResponse<'label/print'>> {
  refuseOthersBadges(auth, input.source);
  const printer = await checkPrinter(deps.db, auth, input.printerId);
  const made = await makeLabels(deps.db, auth, input.kind, input.source, input.templateId, printer.name);
  const copies = input.copies ?? 1;
  const requestHash = createHash('sha256')
    .update(JSON.stringify([input.kind, input.printerId, copies, input.templateId ?? null, input.source]))
    .digest('hex');
  return enqueue(deps, auth, {
    id: input.idempotencyKey,
    kind: input.kind,
    printerId: input.printerId,
    agentId: printer.agentId,
    copies,
    made,
    requestHash,
  });
}

async function enqueue(
  deps: Deps,
  auth: AuthContext,
  j: {
    id: string;
    kind: LabelKind;
    printerId: string;
    agentId: string;
    copies: number;
    made: Omit<MadeLabels, 'template'>;
    requestHash: string;
  },
): Promise<CallResponse<'label/print'>> {
  const { job, created } = await repo.insertJob(deps.db, auth.orgId, {
    id: j.id,
    siteId: auth.siteId,
    kind: j.kind,
    templateId: j.made.templateId,
    templateVersion: j.made.templateVersion,
    printerId: j.printerId,
    agentId: j.agentId,
    copies: j.copies,
    labels: j.made.labels,
    zpl: j.made.zpl,
    requestHash: j.requestHash,
    requestedBy: auth.accountId,
    requestedByName: auth.userName,
    expiresAt: new Date(Date.now() + JOB_EXPIRY_MS),
  });
  if (!created && (job.requestHash !== j.requestHash || job.siteId !== auth.siteId))
    throw conflict('This idempotency key was used for another print job');
  if (created) {
    // To the agent's live connection only (agents.ts): never to one a newer connection took over from.
    await sendToAgent(deps, auth.orgId, job);
    announceJob(deps, job);
  }
  return { job: publicJob(job) };
}

export async function printCall(deps: Deps, auth: AuthContext, body: Body<'label/print'>): Promise<CallResponse<'label/print'>> {
  return printLabel(deps, auth, {
    idempotencyKey: body.idempotencyKey,
    kind: body.kind,
    printerId: body.printerId,
    copies: body.copies,
    templateId: body.templateId,
    source: body.source,
  });
}

export async function reprintJob(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/job/reprint'>,
): Promise<CallResponse<'label/job/reprint'>> {
  const old = await repo.jobById(deps.db, auth.orgId, body.jobId);
  if (!old || old.siteId !== auth.siteId) throw notFound(`No print job '${body.jobId}'`);
  // A badge job holds someone's badge: reprinted by administrators and timekeepers, or by the person who printed it (their own badge).
  if (old.kind === 'staff' && old.requestedById !== auth.accountId && !mayPrintAnyBadge(auth.perms)) throw forbidden(OTHERS_BADGE);
  const printerId = body.printerId ?? old.printerId;
  const printer = await checkPrinter(deps.db, auth, printerId);
  const requestHash = createHash('sha256')
    .update(JSON.stringify(['reprint', old.jobId, printerId]))
    .digest('hex');
  return enqueue(deps, auth, {
    id: body.idempotencyKey,
    kind: old.kind,
    printerId,
    agentId: printer.agentId,
    copies: old.copies,
    made: { zpl: old.zpl, labels: old.labels, templateId: old.templateId, templateVersion: old.templateVersion },
    requestHash,
  });
}

/**
 * label/job/printRest: an interrupted job (failed with fewer labels printed than it had, as the
 * printer's counters said) prints only the rest, as a new job on the same printer. Once per job: the
 * job records the rest's id first, so another key for it is 409 and a retry with the same key answers
 * the same job (exactly once, docs/labels.md).
 */
export async function printRestOfJob(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/job/printRest'>,
): Promise<CallResponse<'label/job/printRest'>> {
  const old = await repo.jobById(deps.db, auth.orgId, body.jobId);
  if (!old || old.siteId !== auth.siteId) throw notFound(`No print job '${body.jobId}'`);
  if (old.kind === 'staff' && old.requestedById !== auth.accountId && !mayPrintAnyBadge(auth.perms)) throw forbidden(OTHERS_BADGE);
  const total = old.labels * old.copies;
  if (old.restJob && old.restJob !== body.idempotencyKey)
    throw conflict(`The rest of job '${old.jobId}' is already printing as job '${old.restJob}'`);
  if (!old.restJob) {
    if (old.state !== 'failed') throw conflict(`Job '${old.jobId}' is ${old.state}: only an interrupted job has a rest to print`);
    if (old.printed === null || old.printed === undefined)
      throw conflict(`Job '${old.jobId}' has no count of labels printed (its printer does not report one): reprint it instead`);
    if (old.printed >= total) throw conflict(`Job '${old.jobId}' printed all its ${total} label(s); nothing is left to print`);
  }
  const rest = restOfJob(old.zpl, old.copies, old.printed ?? 0);
  if (!rest)
    throw badInput(
      `The rest of job '${old.jobId}' is ${total - (old.printed ?? 0)} labels, more than one job prints (${LABELS_PER_JOB_MAX}); reprint it in parts`,
    );
  const printer = await checkPrinter(deps.db, auth, old.printerId);
  if (!(await repo.claimRest(deps.db, auth.orgId, auth.siteId, old.jobId, body.idempotencyKey))) {
    const now = await repo.jobById(deps.db, auth.orgId, old.jobId);
    throw conflict(`The rest of job '${old.jobId}' is already printing as job '${now?.restJob ?? '?'}'`);
  }
  const requestHash = createHash('sha256')
    .update(JSON.stringify(['rest', old.jobId]))
    .digest('hex');
  const answer = await enqueue(deps, auth, {
    id: body.idempotencyKey,
    kind: old.kind,
    printerId: old.printerId,
    agentId: printer.agentId,
    copies: rest.copies,
    made: { zpl: rest.zpl, labels: rest.labels, templateId: old.templateId, templateVersion: old.templateVersion },
    requestHash,
  });
  const updated = await repo.jobById(deps.db, auth.orgId, old.jobId);
  if (updated) announceJob(deps, updated);
  return answer;
}

export async function listJobs(deps: Deps, auth: AuthContext, body: Body<'label/job/list'>): Promise<CallResponse<'label/job/list'>> {
  for (const job of await repo.expireJobs(deps.db, auth.orgId, auth.siteId)) announceJob(deps, job);
  return { jobs: (await repo.recentJobs(deps.db, auth.orgId, auth.siteId, body.limit)).map(publicJob) };
}

/** Fails the jobs past their expiry (every LABEL_JOB_SWEEP_SECS, on every node) and tells their sites. */
export async function sweepExpiredJobs(deps: Deps): Promise<number> {
  const jobs = await repo.expireDueJobs(deps.db);
  for (const job of jobs) announceJob(deps, job);
  return jobs.length;
}

/** Starts the expiry sweep; answers its stop. */
export function scheduleJobExpiry(deps: Deps, onError: (e: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpiredJobs(deps)
      .catch(onError)
      .finally(() => (running = false));
  }, deps.config.LABEL_JOB_SWEEP_SECS * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

export async function listAgents(deps: Deps, auth: AuthContext): Promise<CallResponse<'label/agent/list'>> {
  return { agents: await repo.agentsOf(deps.db, auth.orgId, auth.siteId) };
}
