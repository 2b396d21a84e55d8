import type { FastifyBaseLogger } from 'fastify';
import type { CallResponse } from '@floorhand/contract/api';
import {
  agentHelloSchema,
  agentResultSchema,
  printerProblemInWords,
  type LabelAgent,
  type LabelJob,
  type PrintJob,
} from '@floorhand/contract/labels';
import { accountKindOf } from '@floorhand/contract/rights';
import { isAdmin } from '@floorhand/contract/perms';
import type { Printer } from '@floorhand/contract/realtime';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Deps } from '../../lib/calls.ts';
import type { Db } from '../../db/client.ts';
import type { SocketClient } from '../../lib/realtime.ts';
import type { Body } from '../../lib/call-body.ts';
import { writeAuditLog } from '../../lib/audit.ts';
import { agentJti, newAgentKey } from '../../lib/agent-auth.ts';
import { badInput, conflict, forbidden, notFound } from '../../lib/errors.ts';
import * as repo from './repository.ts';
import { tk } from '@floorhand/contract/i18n';

// Print agents (docs/labels.md, Agent credentials): each agent has a credential of its own (an
// `agk_` key, label/agent/create), bound to one agent id of one site, that speaks only the agent
// protocol (agent/hello, agent/status, agent/result) and no HTTP call. One agent id has one live
// connection: a newer hello takes over and the older connection is told why and closed, on any node;
// jobs go to the live connection only. Revoking closes its connections at once. An agent not heard
// from within LABEL_AGENT_OFFLINE_SECS (its heartbeat is agent/status every quarter of it) is offline.

/** The socket room of the connections that said hello as one agent of a site. */
const agentRoom = (agentId: string) => `agent:${agentId}`;

/** Said to an old print agent still using a service account's API key (the migration, docs/labels.md). */
export const SERVICE_KEY_ON_AGENT = tk(
  'Print agents no longer use a service account’s API key. On Label Printers, choose “Add agent”, then put the agent key it shows in the agent’s config as "agentKey" (or "agentKeyEnv")',
);

/** The job as an agent gets it: the printer id of its own config. */
export const toPrintJob = (job: repo.StoredJob): PrintJob => ({
  jobId: job.jobId,
  printer: job.printerId.slice(job.printerId.indexOf('/') + 1),
  zpl: job.zpl,
  copies: job.copies,
  expiresAt: job.expiresAt,
});
/** The job as people see it (no bytes, no internals). */
export const publicJob = ({ zpl: _z, agentId: _a, siteId: _s, requestHash: _h, requestedById: _r, ...job }: repo.StoredJob): LabelJob =>
  job;
export function announceJob(deps: Deps, job: repo.StoredJob): void {
  deps.realtime.emit(job.siteId, 'labelJob', { job: publicJob(job) }, 'labelPrinter');
}

/** Sends a new job to its agent's live connection (on whichever node); none live: it waits for the agent's next hello. */
export async function sendToAgent(deps: Deps, orgId: string, job: repo.StoredJob): Promise<void> {
  const socketId = await repo.liveSocketOf(deps.db, orgId, job.siteId, job.agentId);
  if (socketId) deps.realtime.emit(job.siteId, 'printJob', toPrintJob(job), socketId);
}

/** The printers of a site's connected agents, as attachedPrinters and getAttachedPrinters give them. */
export const printersOfAgents = (agents: LabelAgent[]): Printer[] =>
  agents.filter((a) => a.connected).flatMap((a) => a.printers.map((p) => ({ id: p.id, name: p.name, agent: a.name })));

/** Tells a site's Label Printers pages and choosers what its agents and printers are now. */
async function publishAgents(deps: Deps, orgId: string, siteId: string): Promise<LabelAgent[]> {
  const agents = await repo.agentsOf(deps.db, orgId, siteId);
  deps.realtime.emit(siteId, 'labelAgents', { agents }, 'labelPrinter');
  deps.realtime.setPrinters(siteId, printersOfAgents(agents));
  return agents;
}

function requireAgentAdmin(auth: AuthContext): void {
  if (!isAdmin(auth.perms)) throw forbidden('Only an administrator can add or remove print agents');
}

/** label/agent/create: a new agent of the site and its key, answered once (only its SHA-256 is kept). */
export async function createAgent(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/agent/create'>,
): Promise<CallResponse<'label/agent/create'>> {
  requireAgentAdmin(auth);
  const key = newAgentKey();
  const inserted = await repo.insertAgentCredential(deps.db, auth.orgId, auth.siteId, {
    agentId: body.agentId,
    name: body.name,
    secretHash: key.hash,
    createdBy: auth.accountId,
    createdByName: auth.userName,
  });
  if (!inserted) throw conflict(`This site has an agent '${body.agentId}' already; revoke it first to give it a new key`);
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: auth.accountId,
    action: 'label/agent/create',
    entity: 'labelAgent',
    entityId: body.agentId,
    before: null,
    after: { agentId: body.agentId, name: body.name },
  });
  const agents = await publishAgents(deps, auth.orgId, auth.siteId);
  return { agentKey: key.key, agent: agents.find((a) => a.agentId === body.agentId) };
}

/** label/agent/revoke: the credential and the agent's printers go, its pending jobs fail, its connections close at once on every node. */
export async function revokeAgent(
  deps: Deps,
  auth: AuthContext,
  body: Body<'label/agent/revoke'>,
): Promise<CallResponse<'label/agent/revoke'>> {
  requireAgentAdmin(auth);
  if (!(await repo.deleteAgent(deps.db, auth.orgId, auth.siteId, body.agentId)))
    throw notFound(`No print agent '${body.agentId}' on this site`);
  const message = `The print agent '${body.agentId}' was revoked by ${auth.userName}; add it again on Label Printers to give it a new key`;
  deps.realtime.closeRoom(auth.siteId, agentRoom(body.agentId), { why: 'revoked', message });
  // Connections that never said hello too (every socket opened with the key is in its token room).
  deps.realtime.disconnectToken(auth.siteId, agentJti(body.agentId));
  const failed = await repo.failAgentJobs(deps.db, auth.orgId, auth.siteId, body.agentId, 'the print agent was revoked before printing it');
  for (const job of failed) announceJob(deps, job);
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: auth.accountId,
    action: 'label/agent/revoke',
    entity: 'labelAgent',
    entityId: body.agentId,
    before: { agentId: body.agentId },
    after: null,
  });
  await publishAgents(deps, auth.orgId, auth.siteId);
  return { agentId: body.agentId, failedJobs: failed.length };
}

/** Agents not heard from within the offline window go offline (every node sweeps; each site is told once). */
export async function sweepSilentAgents(deps: Deps): Promise<number> {
  const sites = await repo.sweepSilentAgents(deps.db);
  for (const s of sites) await publishAgents(deps, s.orgId, s.siteId);
  return sites.length;
}

interface AgentSocket {
  orgId: string;
  siteId: string;
  agentId: string;
}

/** The heartbeat an agent is asked for: four within the offline window. */
export const heartbeatSecs = (offlineSecs: number): number => Math.max(1, Math.floor(offlineSecs / 4));

/**
 * Registers agent/hello, agent/status and agent/result, marks an agent offline when its live
 * connection closes, and sweeps silent agents; answers the sweep's stop.
 */
export function registerAgentOps(deps: Deps, log: FastifyBaseLogger): () => void {
  const offlineSecs = deps.config.LABEL_AGENT_OFFLINE_SECS;
  repo.setAgentOfflineSecs(deps.db, offlineSecs);
  const agentOfSocket = new Map<string, AgentSocket>();

  // A socket subscribing on any node gets the printers from the database, not from this node's memory.
  deps.realtime.setPrinterSource((orgId, siteId) => attachedPrinters(deps.db, orgId, siteId));

  function agentOf(client: SocketClient): AgentSocket {
    const agent = agentOfSocket.get(client.id);
    if (!agent) throw badInput('Say agent/hello first');
    return agent;
  }

  deps.realtime.handle('agent/hello', async (client, data) => {
    const credential = client.auth.agent;
    if (!credential) {
      if (accountKindOf(client.auth.perms) === 'service') throw forbidden(SERVICE_KEY_ON_AGENT);
      throw forbidden('Only a print agent with its own agent key can attach printers');
    }
    const parsed = agentHelloSchema.safeParse(data);
    if (!parsed.success)
      throw badInput(
        `The agent's greeting is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    const hello = parsed.data;
    if (hello.agentId !== credential.agentId)
      throw forbidden(`This agent key belongs to the agent '${credential.agentId}'; it cannot say it is '${hello.agentId}'`);
    const { orgId, siteId } = client.auth;
    const printers = hello.printers.map((p) => ({
      ...p,
      id: `${hello.agentId}/${p.id}`,
      ...(p.detail ? { detail: printerProblemInWords(p.detail) } : {}),
    }));
    const at = new Date().toISOString();
    // The newest connection wins: it is recorded as the live one before the older ones are closed, so
    // from here on jobs go to it alone (sendToAgent reads the live socket id).
    const { previousSocketId } = await repo.upsertAgent(deps.db, orgId, siteId, {
      id: hello.agentId,
      name: credential.name,
      accountId: client.auth.accountId,
      printers,
      socketId: client.id,
      note: null,
    });
    deps.realtime.closeRoom(
      siteId,
      agentRoom(hello.agentId),
      {
        why: 'takenOver',
        message: `A newer connection of the agent '${hello.agentId}' took over at ${at}; this one stops (two copies of one agent must not run)`,
      },
      client.id,
    );
    if (previousSocketId) {
      const note = `took over from an older connection at ${at} (the older one was closed; two copies of this agent may be running)`;
      await repo.setAgentNote(deps.db, orgId, siteId, hello.agentId, client.id, note);
      log.warn(
        { agentId: hello.agentId, siteId, socket: client.id, older: previousSocketId },
        'print agent: a new connection took over from an older live one, which was closed',
      );
    } else {
      log.info({ agentId: hello.agentId, siteId, socket: client.id }, 'print agent connected');
    }
    agentOfSocket.set(client.id, { orgId, siteId, agentId: hello.agentId });
    await client.join(agentRoom(hello.agentId));
    await publishAgents(deps, orgId, siteId);
    const pending = await repo.pendingJobs(deps.db, orgId, siteId, hello.agentId);
    return { agentId: hello.agentId, pending: pending.map(toPrintJob), heartbeatSecs: heartbeatSecs(offlineSecs) };
  });

  deps.realtime.handle('agent/status', async (client, data) => {
    const agent = agentOf(client);
    const parsed = agentHelloSchema.pick({ printers: true }).safeParse(data);
    if (!parsed.success) throw badInput('The printer states are not valid');
    const printers = parsed.data.printers.map((p) => ({
      ...p,
      id: `${agent.agentId}/${p.id}`,
      ...(p.detail ? { detail: printerProblemInWords(p.detail) } : {}),
    }));
    if (!(await repo.setAgentPrinters(deps.db, agent.orgId, agent.siteId, agent.agentId, client.id, printers))) {
      throw forbidden('A newer connection of this agent took over, or the agent was revoked');
    }
    // Every status is a heartbeat too; the page hears of it only when something changed (or it was offline).
    await publishAgents(deps, agent.orgId, agent.siteId);
    return { ok: true };
  });

  deps.realtime.handle('agent/result', async (client, data) => {
    const agent = agentOf(client);
    const parsed = agentResultSchema.safeParse(data);
    if (!parsed.success) throw badInput('The job result is not valid');
    const job = await repo.setJobState(
      deps.db,
      agent.orgId,
      agent.siteId,
      agent.agentId,
      parsed.data.jobId,
      parsed.data.state,
      parsed.data.reason ? printerProblemInWords(parsed.data.reason) : null,
      parsed.data.printed,
    );
    if (job) announceJob(deps, job);
    return { ok: true };
  });

  deps.realtime.onDisconnect((client) => {
    const agent = agentOfSocket.get(client.id);
    if (!agent) return;
    agentOfSocket.delete(client.id);
    // Offline only when this was the live connection (not one a newer connection took over from).
    void repo
      .setAgentDisconnected(deps.db, agent.orgId, agent.siteId, agent.agentId, client.id)
      .then((changed) => (changed ? publishAgents(deps, agent.orgId, agent.siteId) : undefined))
      .catch(() => undefined);
  });

  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      sweepSilentAgents(deps)
        .catch((e: unknown) => log.warn({ err: e }, 'print agent offline sweep failed'))
        .finally(() => (running = false));
    },
    Math.max(1, Math.min(deps.config.LABEL_JOB_SWEEP_SECS, Math.ceil(offlineSecs / 6))) * 1000,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * docIo/zplPrinter/getAttachedPrinters: read from the database (label_agents), so every server node
 * answers the same whichever node the agent's socket is on.
 */
export async function attachedPrinters(db: Db, orgId: string, siteId: string): Promise<Printer[]> {
  return printersOfAgents(await repo.agentsOf(db, orgId, siteId));
}
