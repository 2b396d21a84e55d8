import { sql } from 'drizzle-orm';
import type { JobState, LabelAgent, LabelJob, LabelKind, LabelTemplate, PrinterState } from '@floorhand/contract/labels';
import type { Db } from '../../db/client.ts';
import { isoSql, query } from '../../db/sql.ts';

// The SQL of labels: templates (a row per version), jobs and agents. Every statement names the
// organisation; timestamps are read as ISO text (the same from PGlite and PostgreSQL).

interface TemplateRow {
  id: string;
  version: number;
  kind: LabelKind;
  name: string;
  zpl: string;
  width_mm: number;
  height_mm: number;
  dpi: number;
  is_default: boolean;
  saved_by: string;
  saved_at: string;
}
const toTemplate = (r: TemplateRow): LabelTemplate => ({
  templateId: r.id,
  kind: r.kind,
  name: r.name,
  version: Number(r.version),
  zpl: r.zpl,
  widthMm: Number(r.width_mm),
  heightMm: Number(r.height_mm),
  dpi: Number(r.dpi),
  isDefault: r.is_default,
  savedBy: r.saved_by,
  savedAt: r.saved_at,
});
const TEMPLATE_COLUMNS = sql`id, version, kind, name, zpl, width_mm, height_mm, dpi, is_default, saved_by, ${isoSql(sql`saved_at`)} AS saved_at`;

export async function templateCount(db: Db, orgId: string): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM label_templates WHERE org_id = ${orgId}`);
  return Number(row?.n ?? 0);
}

/** The newest version of each template of the organisation (of one kind when given). */
export async function currentTemplates(db: Db, orgId: string, kind?: LabelKind): Promise<LabelTemplate[]> {
  const rows = await query<TemplateRow>(
    db,
    sql`SELECT DISTINCT ON (id) ${TEMPLATE_COLUMNS} FROM label_templates WHERE org_id = ${orgId} ${kind ? sql`AND kind = ${kind}` : sql``} ORDER BY id, version DESC`,
  );
  return rows
    .map(toTemplate)
    .sort((a, b) => a.kind.localeCompare(b.kind) || Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}

/** One version of a template, or its newest. */
export async function templateVersion(db: Db, orgId: string, id: string, version?: number): Promise<LabelTemplate | undefined> {
  const [row] = await query<TemplateRow>(
    db,
    sql`SELECT ${TEMPLATE_COLUMNS} FROM label_templates WHERE org_id = ${orgId} AND id = ${id} ${version ? sql`AND version = ${version}` : sql``} ORDER BY version DESC LIMIT 1`,
  );
  return row ? toTemplate(row) : undefined;
}

export interface NewTemplateVersion {
  id: string;
  version: number;
  kind: LabelKind;
  name: string;
  zpl: string;
  widthMm: number;
  heightMm: number;
  dpi: number;
  isDefault: boolean;
  savedBy: string;
}
/** Inserts a version; false when that version already exists (someone saved first). */
export async function insertTemplateVersion(db: Db, orgId: string, t: NewTemplateVersion): Promise<boolean> {
  const rows = await query<{ id: string }>(
    db,
    sql`INSERT INTO label_templates (org_id, id, version, kind, name, zpl, width_mm, height_mm, dpi, is_default, saved_by)
      VALUES (${orgId}, ${t.id}, ${t.version}, ${t.kind}, ${t.name}, ${t.zpl}, ${t.widthMm}, ${t.heightMm}, ${t.dpi}, ${t.isDefault}, ${t.savedBy})
      ON CONFLICT DO NOTHING RETURNING id`,
  );
  return rows.length > 0;
}

// ── jobs ──

interface JobRow {
  id: string;
  kind: LabelKind;
  template_id: string;
  template_version: number;
  printer_id: string;
  agent_id: string;
  copies: number;
  labels: number;
  zpl: string;
  state: JobState;
  reason: string | null;
  printed: number | null;
  rest_job: string | null;
  request_hash: string;
  requested_by: string;
  requested_by_name: string;
  site_id: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
}
export type StoredJob = LabelJob & { zpl: string; agentId: string; siteId: string; requestHash: string; requestedById: string };
const toJob = (r: JobRow): StoredJob => ({
  jobId: r.id,
  kind: r.kind,
  templateId: r.template_id,
  templateVersion: Number(r.template_version),
  printerId: r.printer_id,
  copies: Number(r.copies),
  labels: Number(r.labels),
  state: r.state,
  reason: r.reason,
  printed: r.printed === null ? null : Number(r.printed),
  restJob: r.rest_job,
  requestedBy: r.requested_by_name,
  requestedById: r.requested_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  expiresAt: r.expires_at,
  zpl: r.zpl,
  agentId: r.agent_id,
  siteId: r.site_id,
  requestHash: r.request_hash,
});
const JOB_COLUMNS = sql`id, kind, template_id, template_version, printer_id, agent_id, copies, labels, zpl, state, reason, printed, rest_job, request_hash, requested_by, requested_by_name, site_id,
  ${isoSql(sql`created_at`)} AS created_at, ${isoSql(sql`updated_at`)} AS updated_at, ${isoSql(sql`expires_at`)} AS expires_at`;

export interface NewJob {
  id: string;
  siteId: string;
  kind: LabelKind;
  templateId: string;
  templateVersion: number;
  printerId: string;
  agentId: string;
  copies: number;
  labels: number;
  zpl: string;
  requestHash: string;
  requestedBy: string;
  requestedByName: string;
  expiresAt: Date;
}
/** Inserts a job unless its id exists; answers the job as stored either way, and whether it is new. */
export async function insertJob(db: Db, orgId: string, j: NewJob): Promise<{ job: StoredJob; created: boolean }> {
  const inserted = await query<{ id: string }>(
    db,
    sql`INSERT INTO label_jobs (org_id, id, site_id, kind, template_id, template_version, printer_id, agent_id, copies, labels, zpl, state, request_hash, requested_by, requested_by_name, expires_at)
      VALUES (${orgId}, ${j.id}, ${j.siteId}, ${j.kind}, ${j.templateId}, ${j.templateVersion}, ${j.printerId}, ${j.agentId}, ${j.copies}, ${j.labels}, ${j.zpl}, 'queued', ${j.requestHash}, ${j.requestedBy}, ${j.requestedByName}, ${j.expiresAt.toISOString()})
      ON CONFLICT DO NOTHING RETURNING id`,
  );
  const job = await jobById(db, orgId, j.id);
  if (!job) throw new Error('label job vanished after insert');
  return { job, created: inserted.length > 0 };
}

export async function jobById(db: Db, orgId: string, id: string): Promise<StoredJob | undefined> {
  const [row] = await query<JobRow>(db, sql`SELECT ${JOB_COLUMNS} FROM label_jobs WHERE org_id = ${orgId} AND id = ${id}`);
  return row ? toJob(row) : undefined;
}

/** Jobs of a site past their expiry and never printed fail as expired (their agent never took them or never came back). */
export async function expireJobs(db: Db, orgId: string, siteId: string): Promise<StoredJob[]> {
  return (
    await query<JobRow>(
      db,
      sql`UPDATE label_jobs SET state = 'failed', reason = 'expired: ' || coalesce(reason, 'the print agent did not print it in time'), updated_at = now()
        WHERE org_id = ${orgId} AND site_id = ${siteId} AND state IN ('queued', 'sent', 'held') AND expires_at <= now()
        RETURNING ${JOB_COLUMNS}`,
    )
  ).map(toJob);
}

/** Jobs of every organisation past their expiry and never printed fail as expired; each is answered once (to the node whose update changed it). */
export async function expireDueJobs(db: Db): Promise<StoredJob[]> {
  return (
    await query<JobRow>(
      db,
      sql`UPDATE label_jobs SET state = 'failed', reason = 'expired: ' || coalesce(reason, 'the print agent did not print it in time'), updated_at = now()
        WHERE state IN ('queued', 'sent', 'held') AND expires_at <= now()
        RETURNING ${JOB_COLUMNS}`,
    )
  ).map(toJob);
}

/**
 * Jobs of every organisation not finished yet, by state (the metrics' gauge): finished jobs are kept
 * as history and only grow, so they are not counted at every scrape.
 */
export async function openJobCounts(db: Db): Promise<Array<{ state: JobState; count: number }>> {
  const rows = await query<{ state: JobState; count: number }>(
    db,
    sql`SELECT state, count(*)::integer AS count FROM label_jobs WHERE state IN ('queued', 'sent', 'held') GROUP BY state`,
  );
  return rows.map((r) => ({ state: r.state, count: Number(r.count) }));
}

export async function recentJobs(db: Db, orgId: string, siteId: string, limit: number): Promise<StoredJob[]> {
  return (
    await query<JobRow>(
      db,
      sql`SELECT ${JOB_COLUMNS} FROM label_jobs WHERE org_id = ${orgId} AND site_id = ${siteId} ORDER BY created_at DESC, id LIMIT ${limit}`,
    )
  ).map(toJob);
}

/** Jobs of an agent not yet printed or failed and not expired, oldest first. */
export async function pendingJobs(db: Db, orgId: string, siteId: string, agentId: string): Promise<StoredJob[]> {
  return (
    await query<JobRow>(
      db,
      sql`SELECT ${JOB_COLUMNS} FROM label_jobs WHERE org_id = ${orgId} AND site_id = ${siteId} AND agent_id = ${agentId}
        AND state IN ('queued', 'sent', 'held') AND expires_at > now() ORDER BY created_at, id`,
    )
  ).map(toJob);
}

/** Sets a job's state unless it is final already; answers the job when it changed. */
/**
 * An agent's report of a job: its state, why, and the labels printed so far (`printed`, never more
 * than the job has; absent keeps what was known). A final job does not change.
 */
export async function setJobState(
  db: Db,
  orgId: string,
  siteId: string,
  agentId: string,
  id: string,
  state: JobState,
  reason: string | null,
  printed?: number,
): Promise<StoredJob | undefined> {
  const count = printed === undefined ? null : printed;
  const rows = await query<JobRow>(
    db,
    sql`UPDATE label_jobs SET state = ${state}, reason = ${reason}, updated_at = now(),
        printed = COALESCE(LEAST(${count}::integer, labels * copies), printed)
      WHERE org_id = ${orgId} AND site_id = ${siteId} AND agent_id = ${agentId} AND id = ${id} AND state NOT IN ('printed', 'failed')
        AND (state <> ${state} OR reason IS DISTINCT FROM ${reason} OR (${count}::integer IS NOT NULL AND printed IS DISTINCT FROM LEAST(${count}::integer, labels * copies)))
      RETURNING ${JOB_COLUMNS}`,
  );
  return rows[0] ? toJob(rows[0]) : undefined;
}

/**
 * Records that `restId` prints the rest of job `id`; answers the job when it is now (or already was)
 * `restId`'s, undefined when another job already prints its rest (or there is no such job).
 */
export async function claimRest(db: Db, orgId: string, siteId: string, id: string, restId: string): Promise<StoredJob | undefined> {
  const rows = await query<JobRow>(
    db,
    sql`UPDATE label_jobs SET rest_job = ${restId}
      WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${id} AND (rest_job IS NULL OR rest_job = ${restId})
      RETURNING ${JOB_COLUMNS}`,
  );
  return rows[0] ? toJob(rows[0]) : undefined;
}

// ── agents ──

/**
 * How long an agent may go unheard before it is offline, per database (the app's
 * LABEL_AGENT_OFFLINE_SECS, set by registerAgentOps; tests open several apps).
 */
const offlineSecsOf = new WeakMap<Db, number>();
export const AGENT_OFFLINE_SECS_DEFAULT = 60;
export function setAgentOfflineSecs(db: Db, secs: number): void {
  offlineSecsOf.set(db, secs);
}
const offlineSecs = (db: Db) => offlineSecsOf.get(db) ?? AGENT_OFFLINE_SECS_DEFAULT;

interface AgentRow {
  id: string;
  name: string;
  connected: boolean;
  printers: Array<{ id: string; name: string; state: PrinterState; detail?: string }>;
  last_seen: string;
  paired: boolean;
  created_by_name: string | null;
  created_at: string | null;
  note: string | null;
}
/**
 * The site's agents: those that said hello and those added (a credential) that never did. Connected
 * means: a live connection, a credential, and heard from within the offline window (so a node that
 * died with its agents' rows still saying connected does not count).
 */
export async function agentsOf(db: Db, orgId: string, siteId: string): Promise<LabelAgent[]> {
  const rows = await query<AgentRow>(
    db,
    sql`SELECT coalesce(a.id, c.agent_id) AS id, coalesce(c.name, a.name) AS name,
        coalesce(a.connected AND a.socket_id IS NOT NULL AND c.agent_id IS NOT NULL AND a.last_seen > now() - make_interval(secs => ${offlineSecs(db)}), false) AS connected,
        coalesce(a.printers, '[]'::jsonb) AS printers, ${isoSql(sql`coalesce(a.last_seen, c.created_at)`)} AS last_seen,
        c.agent_id IS NOT NULL AS paired, c.created_by_name, ${isoSql(sql`c.created_at`)} AS created_at, a.note
      FROM (SELECT * FROM label_agents WHERE org_id = ${orgId} AND site_id = ${siteId}) a
      FULL JOIN (SELECT * FROM label_agent_credentials WHERE org_id = ${orgId} AND site_id = ${siteId}) c ON c.agent_id = a.id
      ORDER BY 2, 1`,
  );
  return rows.map((r) => ({
    agentId: r.id,
    name: r.name,
    connected: r.connected,
    lastSeen: r.last_seen,
    printers: r.printers,
    paired: r.paired,
    ...(r.created_by_name ? { createdBy: r.created_by_name } : {}),
    ...(r.created_at ? { createdAt: r.created_at } : {}),
    note: r.note,
  }));
}

/** The agent's row after a hello on `socketId`: that connection is the live one (the newest wins). */
export async function upsertAgent(
  db: Db,
  orgId: string,
  siteId: string,
  a: { id: string; name: string; accountId: string; printers: AgentRow['printers']; socketId: string; note: string | null },
): Promise<{ previousSocketId: string | null }> {
  const [before] = await query<{ socket_id: string | null; live: boolean }>(
    db,
    sql`SELECT socket_id, (connected AND last_seen > now() - make_interval(secs => ${offlineSecs(db)})) AS live FROM label_agents WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${a.id}`,
  );
  await query(
    db,
    sql`INSERT INTO label_agents (org_id, site_id, id, name, account_id, connected, printers, last_seen, socket_id, note)
      VALUES (${orgId}, ${siteId}, ${a.id}, ${a.name}, ${a.accountId}, true, ${JSON.stringify(a.printers)}::jsonb, now(), ${a.socketId}, ${a.note})
      ON CONFLICT (org_id, site_id, id) DO UPDATE SET name = excluded.name, account_id = excluded.account_id, connected = true, printers = excluded.printers,
        last_seen = now(), socket_id = excluded.socket_id, note = excluded.note`,
  );
  return { previousSocketId: before?.live && before.socket_id !== a.socketId ? before.socket_id : null };
}

/** An agent's row as last heard of, offline (the demo data). */
export async function insertOfflineAgent(
  db: Db,
  orgId: string,
  siteId: string,
  a: { id: string; name: string; accountId: string; printers: AgentRow['printers'] },
): Promise<void> {
  await query(
    db,
    sql`INSERT INTO label_agents (org_id, site_id, id, name, account_id, connected, printers, last_seen)
      VALUES (${orgId}, ${siteId}, ${a.id}, ${a.name}, ${a.accountId}, false, ${JSON.stringify(a.printers)}::jsonb, now())
      ON CONFLICT (org_id, site_id, id) DO NOTHING`,
  );
}

export async function setAgentNote(db: Db, orgId: string, siteId: string, id: string, socketId: string, note: string): Promise<void> {
  await query(
    db,
    sql`UPDATE label_agents SET note = ${note} WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${id} AND socket_id = ${socketId}`,
  );
}

/** The live connection's printer states (and its heartbeat); false when `socketId` is not the live connection. */
export async function setAgentPrinters(
  db: Db,
  orgId: string,
  siteId: string,
  id: string,
  socketId: string,
  printers: AgentRow['printers'],
): Promise<boolean> {
  const rows = await query<{ id: string }>(
    db,
    sql`UPDATE label_agents SET printers = ${JSON.stringify(printers)}::jsonb, last_seen = now(), connected = true
      WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${id} AND socket_id = ${socketId} RETURNING id`,
  );
  return rows.length > 0;
}

/** The live connection `socketId` closed: the agent is offline (unless a newer connection took over). */
export async function setAgentDisconnected(db: Db, orgId: string, siteId: string, id: string, socketId: string): Promise<boolean> {
  const rows = await query<{ id: string }>(
    db,
    sql`UPDATE label_agents SET connected = false, last_seen = now() WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${id} AND socket_id = ${socketId} RETURNING id`,
  );
  return rows.length > 0;
}

/** The socket id of an agent's live connection, when it has one heard from within the offline window and a credential. */
export async function liveSocketOf(db: Db, orgId: string, siteId: string, id: string): Promise<string | undefined> {
  const [row] = await query<{ socket_id: string }>(
    db,
    sql`SELECT a.socket_id FROM label_agents a JOIN label_agent_credentials c ON c.org_id = a.org_id AND c.site_id = a.site_id AND c.agent_id = a.id
      WHERE a.org_id = ${orgId} AND a.site_id = ${siteId} AND a.id = ${id} AND a.connected AND a.socket_id IS NOT NULL AND a.last_seen > now() - make_interval(secs => ${offlineSecs(db)})`,
  );
  return row?.socket_id;
}

/** Agents of every organisation not heard from within the offline window go offline; answers their sites, once (to the node whose update changed them). */
export async function sweepSilentAgents(db: Db): Promise<Array<{ orgId: string; siteId: string }>> {
  const rows = await query<{ org_id: string; site_id: string }>(
    db,
    sql`UPDATE label_agents SET connected = false, note = ${`offline: not heard from for ${offlineSecs(db)} s (the agent, its machine or the server node it was connected to stopped)`}
      WHERE connected AND last_seen <= now() - make_interval(secs => ${offlineSecs(db)}) RETURNING org_id, site_id`,
  );
  const sites = new Map(rows.map((r) => [`${r.org_id}\u0000${r.site_id}`, { orgId: r.org_id, siteId: r.site_id }]));
  return [...sites.values()];
}

export interface AgentCredential {
  agentId: string;
  name: string;
  createdByName: string;
  createdAt: string;
}
/** Inserts an agent's credential; false when the site has an agent of that id already. */
export async function insertAgentCredential(
  db: Db,
  orgId: string,
  siteId: string,
  c: { agentId: string; name: string; secretHash: string; createdBy: string; createdByName: string },
): Promise<boolean> {
  const rows = await query<{ agent_id: string }>(
    db,
    sql`INSERT INTO label_agent_credentials (org_id, site_id, agent_id, name, secret_hash, created_by, created_by_name)
      VALUES (${orgId}, ${siteId}, ${c.agentId}, ${c.name}, ${c.secretHash}, ${c.createdBy}, ${c.createdByName})
      ON CONFLICT DO NOTHING RETURNING agent_id`,
  );
  return rows.length > 0;
}

/** Removes an agent: its credential and its row; answers whether there was either. */
export async function deleteAgent(db: Db, orgId: string, siteId: string, id: string): Promise<boolean> {
  const creds = await query<{ agent_id: string }>(
    db,
    sql`DELETE FROM label_agent_credentials WHERE org_id = ${orgId} AND site_id = ${siteId} AND agent_id = ${id} RETURNING agent_id`,
  );
  const rows = await query<{ id: string }>(
    db,
    sql`DELETE FROM label_agents WHERE org_id = ${orgId} AND site_id = ${siteId} AND id = ${id} RETURNING id`,
  );
  return creds.length + rows.length > 0;
}

/** The jobs of a removed agent not yet printed or failed fail with `reason`. */
export async function failAgentJobs(db: Db, orgId: string, siteId: string, agentId: string, reason: string): Promise<StoredJob[]> {
  return (
    await query<JobRow>(
      db,
      sql`UPDATE label_jobs SET state = 'failed', reason = ${reason}, updated_at = now()
        WHERE org_id = ${orgId} AND site_id = ${siteId} AND agent_id = ${agentId} AND state IN ('queued', 'sent', 'held')
        RETURNING ${JOB_COLUMNS}`,
    )
  ).map(toJob);
}
