import { createHash, randomUUID } from 'node:crypto';
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
import type { Translate } from '../../lib/language.ts';
import { checkSource, labelRows, OTHERS_BADGE, refuseOthersBadges } from './label-data.ts';
import { DEFAULT_TEMPLATES, TEST_LABEL, TEST_LABEL_MM } from './defaults.ts';
import { renderZpl } from './render.ts';
import * as repo from './repository.ts';
import { announceJob, publicJob, sendToAgent } from './agents.ts';

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
  const current = await repo.currentTemplates(db, orgId);
  // Per kind: an organisation that started before a kind existed (package labels) gets its default too.
  const kinds = new Set(current.map((t) => t.kind));
  for (const t of DEFAULT_TEMPLATES)
    if (!kinds.has(t.kind)) await repo.insertTemplateVersion(db, orgId, { ...t, version: 1, savedBy: 'system' });
  // A default nobody has saved since the system did follows the product's default when it changes (its
  // words became `{{t:…}}`): a new version, saved by 'system', so jobs printed before keep theirs.
  const defaults = new Map(DEFAULT_TEMPLATES.map((t) => [t.id, t]));
  for (const t of current) {
    const d = defaults.get(t.templateId);
    if (d && t.savedBy === 'system' && t.zpl !== d.zpl)
      await repo.insertTemplateVersion(db, orgId, { ...d, isDefault: t.isDefault, version: t.version + 1, savedBy: 'system' });
  }
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
  t: Translate,
): Promise<CallResponse<'label/preview'>> {
  refuseProblems(body.kind, body.zpl);
  const zpl = fillTemplate(body.zpl, sampleData(body.kind, body.data), t);
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
  t: Translate,
): Promise<MadeLabels> {
  checkSource(source);
  if (source.test) return { zpl: TEST_LABEL(printerName, new Date().toISOString(), t), labels: 1, templateId: 'test', templateVersion: 0 };
  const rows = await labelRows(db, auth, kind, source);
  const template = await resolveTemplate(db, auth.orgId, kind, templateId);
  // A template saved before the allow-list (docs/labels.md) prints only once an administrator saves it without what is refused.
  const problems = zplCommandProblems(template.zpl);
  if (problems.length)
    throw badInput(`The template '${template.name}' cannot print until an administrator saves it again: ${problems.join('. ')}`);
  return {
    zpl: rows.map((r) => fillTemplate(template.zpl, r, t)).join('\n'),
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
export async function renderLabel(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/render'>,
  t: Translate,
): Promise<CallResponse<'label/render'>> {
  const made = await makeLabels(deps.db, auth, body.kind, body.source, body.templateId, 'download', t);
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
  // The document's title (the PDF viewer shows it), in the screen's language.
  const title = t('{{kind}} labels', { kind: t(kindTitle(body.kind)) });
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
  /** The words of the label (`{{t:Qty}}`) in the printing person's language; English when absent. */
  t?: Translate;
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
  const made = await makeLabels(deps.db, auth, input.kind, input.source, input.templateId, printer.name, input.t ?? ((w) => w));
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

export async function printCall(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/print'>,
  t: Translate,
): Promise<CallResponse<'label/print'>> {
  return printLabel(deps, auth, {
    t,
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

/** Unfinished label jobs of every organisation by state, for /metrics (lib/metrics.ts). */
export const openLabelJobCounts = (db: Db) => repo.openJobCounts(db);

export async function listAgents(deps: Deps, auth: AuthContext): Promise<CallResponse<'label/agent/list'>> {
  return { agents: await repo.agentsOf(deps.db, auth.orgId, auth.siteId) };
}
