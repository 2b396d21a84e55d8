import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { LabelJob } from '@floorhand/contract/labels';
import { LANGUAGE_HEADER } from '@floorhand/contract/i18n';
import { sql } from 'drizzle-orm';
import { call, createSecondNode, createTestApp, type TestApp } from '../../test/harness.ts';
import { query } from '../../db/sql.ts';
import * as repo from './repository.ts';
import { agentKeyFor, serviceApiKey, tokenFor } from '../../test/logins.ts';
import { calls } from '@floorhand/contract/api';
import { createAgent, type Agent } from '../../../../print-agent/src/agent.ts';
import { parseConfig } from '../../../../print-agent/src/config.ts';
import { startTestPrinter, type TestPrinter } from '../../../../print-agent/src/test-printer.ts';
import { renderZpl } from './render.ts';

// The print agent end to end: the app on a real port, the agent dialling out with its own agent key
// (label/agent/create), and a ZPL printer on loopback TCP that records the bytes it is sent.

let t: TestApp;
let base: string;
let clerk: string;
let admin: string;
let printer: TestPrinter;
/** The agent key of each agent id (added once per test app). */
const keys = new Map<string, string>();
async function keyOf(agentId: string): Promise<string> {
  const known = keys.get(agentId);
  if (known) return known;
  const key = await agentKeyFor(t.app, admin, agentId);
  keys.set(agentId, key);
  return key;
}
/** Seconds an agent may go unheard before it is offline (60 by default): short, so a test sees it. */
const OFFLINE_SECS = 3;
let dir: string;
const agents: Agent[] = [];
const startedIds: string[] = [];

beforeAll(async () => {
  // The expiry sweep every second (60 by default), so a test sees it without waiting.
  t = await createTestApp({ LABEL_JOB_SWEEP_SECS: '1', LABEL_AGENT_OFFLINE_SECS: String(OFFLINE_SECS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  clerk = await tokenFor(t.app, 'clerk');
  admin = await tokenFor(t.app, 'admin');
  printer = await startTestPrinter();
  dir = mkdtempSync(join(tmpdir(), 'fh-agent-'));
  const require = createRequire(import.meta.url);
  prepareZXingModule({
    overrides: { wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer },
  });
});
afterEach(async () => {
  for (const a of agents.splice(0)) await a.stop();
  // The server has seen them go (a closed connection is offline at once): the next test's agent of
  // the same id is then not taken as online before its own hello.
  const ids = new Set(startedIds.splice(0));
  await until(async () => ((await agentsNow()).some((a) => ids.has(a.agentId) && a.connected) ? undefined : true));
  printer.flags = {};
  printer.prints.length = 0;
});
afterAll(async () => {
  await printer?.close();
  await t?.close();
});

async function startAgent(
  agentId = 'dock',
  queueFile = join(dir, `${agentId}-${randomUUID()}.json`),
  server = base,
  extra: Record<string, unknown> = {},
): Promise<Agent> {
  const agentKey = await keyOf(agentId);
  const config = parseConfig({
    server,
    siteId: 'demo-main',
    agentKey,
    agentId,
    name: `Agent ${agentId}`,
    queueFile,
    retryMs: 150,
    statusIntervalMs: 60_000,
    ...extra,
    printers: [{ id: 'zebra', name: 'Zebra at the dock', host: '127.0.0.1', port: printer.port }],
  });
  const agent = createAgent(config);
  agents.push(agent);
  startedIds.push(agentId);
  agent.start();
  return agent;
}

async function until<T>(what: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const printerOnline = (agentId: string) =>
  until(async () => {
    const agents = (await call(t.app, 'label/agent/list', {}, clerk)).body.agents ?? [];
    return agents.find((a) => a.agentId === agentId && a.connected && a.printers.some((p) => p.state === 'online'));
  });

const jobState = (jobId: string, state: LabelJob['state'], timeoutMs?: number) =>
  until(
    async () => ((await call(t.app, 'label/job/list', {}, clerk)).body.jobs ?? []).find((j) => j.jobId === jobId && j.state === state),
    timeoutMs,
  );

const print = (printerId: string, idempotencyKey = randomUUID(), copies = 1) =>
  call(t.app, 'label/print', { idempotencyKey, kind: 'stock', printerId, copies, source: { stockIds: ['S000000001'] } }, clerk);

describe('the print agent', () => {
  it('attaches its printers, prints a stock label whose barcode reads back as the stock id, and reports printed', async () => {
    await startAgent('dock');
    const agent = await printerOnline('dock');
    expect(agent.printers[0]).toMatchObject({ id: 'dock/zebra', name: 'Zebra at the dock', state: 'online' });
    const attached = await call(t.app, 'docIo/zplPrinter/getAttachedPrinters', {}, clerk);
    expect(attached.body.printers).toContainEqual({ id: 'dock/zebra', name: 'Zebra at the dock', agent: 'Agent dock' });

    const res = await print('dock/zebra', undefined, 3);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [bytes] = await printer.waitForPrints(1);
    expect(bytes).toContain('^PQ3^XZ');
    const job = await jobState(res.body.job!.jobId, 'printed');
    expect(job).toMatchObject({ templateId: 'stock-4x2', templateVersion: 1, copies: 3, labels: 1, reason: null });

    // The recorded ZPL rendered (zebrash) and decoded (ZXing): both barcodes say the stock id.
    const [png] = await renderZpl(bytes!, 101.6, 50.8, 203);
    const image = PNG.sync.read(Buffer.from(png!, 'base64'));
    const reads = await readBarcodes(
      { data: new Uint8ClampedArray(image.data), width: image.width, height: image.height, colorSpace: 'srgb' },
      { formats: ['Code128', 'QRCode'] },
    );
    expect(reads.map((r) => [r.format, r.text]).sort()).toEqual([
      ['Code128', 'S000000001'],
      ['QRCode', 'S000000001'],
    ]);
  });

  it("prints the label's own words in the language of whoever prints; a reprint in another language is the same bytes (issue 29)", async () => {
    await startAgent('dock');
    await printerOnline('dock');
    const source = { stockIds: ['S000000001'] };
    const es = await call(t.app, 'label/print', { idempotencyKey: randomUUID(), kind: 'stock', printerId: 'dock/zebra', source }, clerk, {
      headers: { [LANGUAGE_HEADER]: 'es' },
    });
    expect(es.status, JSON.stringify(es.body)).toBe(200);
    const [spanish] = await printer.waitForPrints(1);
    expect(spanish).toMatch(/\^FDCant\. \d/);
    expect(spanish).toMatch(/\^FDLote \S* +Número de serie/);
    expect(spanish).toContain('^FDCondición ');
    expect(spanish).not.toMatch(/Qty|\{\{/);
    await jobState(es.body.job!.jobId, 'printed');
    const again = await call(t.app, 'label/job/reprint', { idempotencyKey: randomUUID(), jobId: es.body.job!.jobId }, clerk);
    await jobState(again.body.job!.jobId, 'printed');
    expect((await printer.waitForPrints(2))[1]).toBe(spanish);
    const en = await call(t.app, 'label/print', { idempotencyKey: randomUUID(), kind: 'stock', printerId: 'dock/zebra', source }, clerk);
    await jobState(en.body.job!.jobId, 'printed');
    const english = (await printer.waitForPrints(3))[2]!;
    expect(english).toMatch(/\^FDQty \d/);
    expect(english).toMatch(/\^FDLot \S* +Serial/);
  });

  it('prints a job once for one idempotency key, and a reprint is the same bytes', async () => {
    await startAgent('dock');
    await printerOnline('dock');
    const key = randomUUID();
    const first = await print('dock/zebra', key);
    const again = await print('dock/zebra', key);
    expect(again.body.job?.jobId).toBe(first.body.job?.jobId);
    await jobState(key, 'printed');
    const reprint = await call(t.app, 'label/job/reprint', { idempotencyKey: randomUUID(), jobId: key }, clerk);
    expect(reprint.status, JSON.stringify(reprint.body)).toBe(200);
    await jobState(reprint.body.job!.jobId, 'printed');
    const prints = await printer.waitForPrints(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(printer.prints).toHaveLength(2);
    expect(prints[1]).toBe(prints[0]);
    // The same key with another request is refused.
    expect(
      (
        await call(
          t.app,
          'label/print',
          { idempotencyKey: key, kind: 'stock', printerId: 'dock/zebra', source: { stockIds: ['S000000002'] } },
          clerk,
        )
      ).status,
    ).toBe(409);
  });

  it('holds a job while the printer says paper out, reports it, and prints it when paper is back', async () => {
    await startAgent('dock');
    await printerOnline('dock');
    printer.flags = { paperOut: true };
    const res = await print('dock/zebra');
    const held = await jobState(res.body.job!.jobId, 'held');
    expect(held.reason).toContain('out of paper');
    await new Promise((r) => setTimeout(r, 400));
    expect(printer.prints).toHaveLength(0);
    printer.flags = {};
    await jobState(res.body.job!.jobId, 'printed');
    expect(printer.prints).toHaveLength(1);
  });

  it('killed with a job in its queue, prints it exactly once after a restart', async () => {
    const queueFile = join(dir, 'restart.json');
    const first = await startAgent('bench', queueFile);
    await printerOnline('bench');
    printer.flags = { paused: true };
    const res = await print('bench/zebra');
    await jobState(res.body.job!.jobId, 'held');
    // Killed: nothing more is said to the server; the queue file is all that remains.
    await first.stop();
    const saved = JSON.parse(readFileSync(queueFile, 'utf8')) as { jobs: Array<{ job: { jobId: string }; state: string }> };
    expect(saved.jobs).toEqual([expect.objectContaining({ job: expect.objectContaining({ jobId: res.body.job!.jobId }), state: 'held' })]);
    printer.flags = {};
    // On the restart the server sends the pending job again too: the queue knows it, so it prints once.
    await startAgent('bench', queueFile);
    await jobState(res.body.job!.jobId, 'printed');
    await new Promise((r) => setTimeout(r, 500));
    expect(printer.prints).toHaveLength(1);
  });

  it('a job printed but not yet reported is reported after a restart, not printed again', async () => {
    const queueFile = join(dir, 'unreported.json');
    const a = await startAgent('yard', queueFile);
    await printerOnline('yard');
    const res = await print('yard/zebra');
    await printer.waitForPrints(1);
    await jobState(res.body.job!.jobId, 'printed');
    await a.stop();
    await startAgent('yard', queueFile);
    await printerOnline('yard');
    await new Promise((r) => setTimeout(r, 500));
    expect(printer.prints).toHaveLength(1);
  });

  it('fails a job past its expiry by the server’s timer, without anyone reading the job list', async () => {
    const a = await startAgent('late');
    await printerOnline('late');
    printer.flags = { paused: true };
    const res = await print('late/zebra');
    const jobId = res.body.job!.jobId;
    await jobState(jobId, 'held');
    await a.stop();
    await query(t.db, sql`UPDATE label_jobs SET expires_at = now() - interval '1 second' WHERE id = ${jobId}`);
    // Only the database is read from here on: label/job/list (which sweeps its site too) is not called.
    const failed = await until(async () => {
      const job = await repo.jobById(t.db, 'demo', jobId);
      return job?.state === 'failed' ? job : undefined;
    }, 5000);
    expect(failed.reason).toBe('expired: printer paused');
  });

  it('refuses agent/hello from a person’s token', async () => {
    const { io } = await import('socket.io-client');
    const socket = io(`${base}/demo-main`, { transports: ['websocket'], auth: { token: clerk }, reconnection: false, forceNew: true });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const reply = (await socket
      .timeout(5000)
      .emitWithAck('send', { op: 'agent/hello', data: { agentId: 'x', name: 'x', printers: [] } })) as { err?: { code: string } };
    socket.disconnect();
    expect(reply.err?.code).toBe('ERR_FORBIDDEN');
  });
});

/** A raw socket of the demo site with `token` (an agent key, an API key, a person's token); resolves when connected. */
async function rawSocket(token: string, server = base) {
  const { io } = await import('socket.io-client');
  const socket = io(`${server}/demo-main`, { transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
const say = async (socket: Awaited<ReturnType<typeof rawSocket>>, op: string, data: unknown) =>
  (await socket.timeout(5000).emitWithAck('send', { op, data })) as {
    err?: { code: string; message: string };
    data?: { agentId: string; pending: unknown[]; heartbeatSecs?: number };
  };
const hello = (agentId: string) => ({ agentId, name: agentId, printers: [{ id: 'zebra', name: 'Zebra', state: 'online' }] });
const agentsNow = async () => (await call(t.app, 'label/agent/list', {}, clerk)).body.agents ?? [];

describe('agent credentials', () => {
  it('an ordinary service key cannot speak the agent protocol, and is told to add an agent', async () => {
    const { key } = await serviceApiKey(t, admin);
    const socket = await rawSocket(key);
    try {
      const reply = await say(socket, 'agent/hello', hello('svc-agent'));
      expect(reply.err?.code).toBe('ERR_FORBIDDEN');
      expect(reply.err?.message).toContain('Add agent');
      expect((await say(socket, 'agent/result', { jobId: 'x', state: 'printed' })).err).toBeDefined();
    } finally {
      socket.disconnect();
    }
    expect((await agentsNow()).some((a) => a.agentId === 'svc-agent')).toBe(false);
  });

  it('an agent key cannot say it is another agent, and so never gets its jobs', async () => {
    await startAgent('victim');
    await printerOnline('victim');
    printer.flags = { paused: true };
    const job = await print('victim/zebra');
    expect(job.status).toBe(200);
    const socket = await rawSocket(await keyOf('thief'));
    const jobs: unknown[] = [];
    socket.on('printJob', (e) => jobs.push(e));
    try {
      const reply = await say(socket, 'agent/hello', hello('victim'));
      expect(reply.err?.code).toBe('ERR_FORBIDDEN');
      expect(reply.err?.message).toContain("belongs to the agent 'thief'");
      // Results for the victim's jobs need a hello first, which it cannot say.
      expect((await say(socket, 'agent/result', { jobId: job.body.job!.jobId, state: 'printed' })).err?.code).toBe('ERR_BAD_INPUT');
      await print('victim/zebra');
      await new Promise((r) => setTimeout(r, 300));
      expect(jobs).toEqual([]);
    } finally {
      socket.disconnect();
    }
    const victim = (await agentsNow()).find((a) => a.agentId === 'victim');
    expect(victim).toMatchObject({ connected: true, name: 'Agent victim' });
  });

  it('an agent key speaks only the agent operations: no topics', async () => {
    const socket = await rawSocket(await keyOf('quiet'));
    try {
      expect((await say(socket, 'subscribe', { topic: 'labelPrinter' })).err?.code).toBe('ERR_FORBIDDEN');
      expect((await say(socket, 'ping', {})).err).toBeUndefined();
    } finally {
      socket.disconnect();
    }
  });

  it('an agent key is refused on every HTTP call, whatever the call', async () => {
    const key = await keyOf('http');
    const answers = new Map<string, number>();
    for (const path of Object.keys(calls)) {
      const res = await call(t.app, path, {}, key);
      answers.set(path, res.status);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(JSON.stringify(res.body)).toContain('print agent');
    }
    expect(answers.size).toBeGreaterThan(50);
  });

  it('two copies of one agent: the newer takes over, the older stops, and every label prints once', async () => {
    const older = await startAgent('twin');
    await printerOnline('twin');
    const first = await print('twin/zebra');
    await jobState(first.body.job!.jobId, 'printed');
    // A job held by the older copy (printer paused) when the newer one connects.
    printer.flags = { paused: true };
    const held = await print('twin/zebra');
    await jobState(held.body.job!.jobId, 'held');
    const newer = await startAgent('twin');
    await until(() => older.stoppedBecause());
    expect(older.stoppedBecause()).toContain('took over');
    expect(older.connected()).toBe(false);
    const twin = await until(async () =>
      (await agentsNow()).find((a) => a.agentId === 'twin' && a.connected && a.note?.includes('took over')),
    );
    expect(twin.note).toContain('older connection');
    printer.flags = {};
    await jobState(held.body.job!.jobId, 'printed');
    const second = await print('twin/zebra');
    await jobState(second.body.job!.jobId, 'printed');
    await new Promise((r) => setTimeout(r, 500));
    // Three jobs, three labels: none twice.
    expect(printer.prints).toHaveLength(3);
    expect(newer.connected()).toBe(true);
  });

  it('revoking an agent ends its connection at once; its printers are no longer offered and a print is refused', async () => {
    const agent = await startAgent('gone');
    await printerOnline('gone');
    const res = await call(t.app, 'label/agent/revoke', { agentId: 'gone' }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const at = Date.now();
    await until(() => (agent.stoppedBecause() ? true : undefined), 1000);
    expect(Date.now() - at).toBeLessThan(1000);
    expect(agent.stoppedBecause()).toContain('revoked');
    const oldKey = keys.get('gone')!;
    keys.delete('gone');
    expect((await agentsNow()).some((a) => a.agentId === 'gone')).toBe(false);
    const attached = await call(t.app, 'docIo/zplPrinter/getAttachedPrinters', {}, clerk);
    expect(attached.body.printers?.some((p) => p.id === 'gone/zebra')).toBe(false);
    expect((await print('gone/zebra')).status).toBe(404);
    // The old key connects no more.
    await expect(rawSocket(oldKey)).rejects.toThrow('revoked');
    expect(printer.prints).toHaveLength(0);
  });

  it('revoking a service account’s API key ends its live sockets at once', async () => {
    const { key, id } = await serviceApiKey(t, admin);
    const socket = await rawSocket(key);
    const closed = new Promise<string>((r) => socket.once('disconnect', (reason) => r(reason)));
    expect((await call(t.app, 'admin/account/revokeApiKey', { accountId: id }, admin)).status).toBe(200);
    const at = Date.now();
    expect(await closed).toBe('io server disconnect');
    expect(Date.now() - at).toBeLessThan(1000);
  });

  it('an agent not heard from within the offline window is offline, its printers not offered, prints refused', async () => {
    // A connection that says hello and then nothing (a hung agent, or the node holding it died without closing it).
    const socket = await rawSocket(await keyOf('silent'));
    try {
      const answer = await say(socket, 'agent/hello', hello('silent'));
      expect(answer.data?.heartbeatSecs).toBe(1);
      expect((await agentsNow()).find((a) => a.agentId === 'silent')?.connected).toBe(true);
      const at = Date.now();
      await until(
        async () => ((await agentsNow()).find((a) => a.agentId === 'silent')?.connected === false ? true : undefined),
        (OFFLINE_SECS + 2) * 1000,
      );
      expect(Date.now() - at).toBeLessThan((OFFLINE_SECS + 1) * 1000);
      const attached = await call(t.app, 'docIo/zplPrinter/getAttachedPrinters', {}, clerk);
      expect(attached.body.printers?.some((p) => p.id === 'silent/zebra')).toBe(false);
      const refused = await print('silent/zebra');
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).toContain('offline');
      // The sweep (every second here) writes it down too, so the pages are told, with why.
      const row = await until(async () => {
        const [r] = await query<{ connected: boolean; note: string | null }>(
          t.db,
          sql`SELECT connected, note FROM label_agents WHERE id = 'silent'`,
        );
        return r && !r.connected ? r : undefined;
      }, 3000);
      expect(row.note).toContain('not heard from');
    } finally {
      socket.disconnect();
    }
  });

  it('a live agent’s heartbeat keeps it connected past the offline window', async () => {
    await startAgent('steady');
    await printerOnline('steady');
    await new Promise((r) => setTimeout(r, (OFFLINE_SECS + 1) * 1000));
    expect((await agentsNow()).find((a) => a.agentId === 'steady')?.connected).toBe(true);
  });

  it('adding and revoking agents is for administrators, and an agent id is added once', async () => {
    expect((await call(t.app, 'label/agent/create', { agentId: 'clerks', name: 'x' }, clerk)).status).toBe(403);
    expect((await call(t.app, 'label/agent/revoke', { agentId: 'victim' }, clerk)).status).toBe(403);
    await keyOf('once');
    expect((await call(t.app, 'label/agent/create', { agentId: 'once', name: 'again' }, admin)).status).toBe(409);
    expect((await call(t.app, 'label/agent/revoke', { agentId: 'no-such' }, admin)).status).toBe(404);
    for (const agentId of ['', 'a b', 'x'.repeat(61), '../x'])
      expect((await call(t.app, 'label/agent/create', { agentId, name: 'x' }, admin)).status).toBe(400);
    const listed = (await agentsNow()).find((a) => a.agentId === 'once');
    expect(listed).toMatchObject({ paired: true, connected: false, createdBy: 'admin' });
  });
});

describe('printed means printed (issue 26 item 8)', () => {
  afterEach(() => {
    printer.buffer.length = 0;
    printer.labelsOut = 0;
    printer.cancels = 0;
  });
  const fast = { progressMs: 40 };
  const jobOf = async (jobId: string) => ((await call(t.app, 'label/job/list', {}, clerk)).body.jobs ?? []).find((j) => j.jobId === jobId);

  it("a 20-copy job is printed only when the printer's counters say it has left the printer, with the count growing on the way", async () => {
    await startAgent('dock', undefined, base, fast);
    await printerOnline('dock');
    printer.flags = { labelMs: 60 };
    const res = await print('dock/zebra', randomUUID(), 20);
    await printer.waitForPrints(1);
    // The bytes are at the printer, labels are still coming out: sent, with a count below 20.
    const midway = await until(async () => {
      const j = await jobOf(res.body.job!.jobId);
      return j && j.state === 'sent' && (j.printed ?? 0) > 0 && (j.printed ?? 0) < 20 ? j : undefined;
    });
    expect(printer.labelsOut).toBeLessThan(20);
    expect(midway.printed).toBeLessThanOrEqual(printer.labelsOut);
    const done = await jobState(res.body.job!.jobId, 'printed');
    expect(printer.labelsOut).toBe(20);
    expect(done.printed).toBe(20);
  });

  it('paper out at label 5 of 20: failed "5 of 20", the rest cancelled at the printer; Print the rest prints 15 once', async () => {
    await startAgent('dock', undefined, base, fast);
    await printerOnline('dock');
    printer.flags = { labelMs: 20, paperOutAfter: 5 };
    const res = await print('dock/zebra', randomUUID(), 20);
    const failed = await jobState(res.body.job!.jobId, 'failed');
    expect(failed.printed).toBe(5);
    expect(failed.reason).toContain('5 of 20 label(s) printed');
    expect(failed.reason).toContain('out of paper');
    expect(printer.cancels).toBe(1);
    expect(printer.buffer).toEqual([]);
    // Paper back: nothing prints by itself.
    printer.flags = { labelMs: 5 };
    await new Promise((r) => setTimeout(r, 300));
    expect(printer.labelsOut).toBe(5);
    const key = randomUUID();
    const rest = await call(t.app, 'label/job/printRest', { idempotencyKey: key, jobId: failed.jobId }, clerk);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.job!.labels * rest.body.job!.copies).toBe(15);
    const restDone = await jobState(key, 'printed');
    expect(restDone.printed).toBe(15);
    expect(printer.labelsOut).toBe(20);
    // The first job names its rest; the same key again answers the same job, another key is 409.
    expect((await jobOf(failed.jobId))!.restJob).toBe(key);
    const again = await call(t.app, 'label/job/printRest', { idempotencyKey: key, jobId: failed.jobId }, clerk);
    expect(again.status).toBe(200);
    expect(again.body.job!.jobId).toBe(key);
    const other = await call(t.app, 'label/job/printRest', { idempotencyKey: randomUUID(), jobId: failed.jobId }, clerk);
    expect(other.status).toBe(409);
    expect(other.body.err!.message).toContain(key);
    // A printed job has no rest; an unknown one is 404.
    expect((await call(t.app, 'label/job/printRest', { idempotencyKey: randomUUID(), jobId: key }, clerk)).status).toBe(409);
    expect((await call(t.app, 'label/job/printRest', { idempotencyKey: randomUUID(), jobId: 'no-such-job' }, clerk)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(printer.labelsOut).toBe(20);
  });

  it('a job the printer finishes at once is printed with its whole count', async () => {
    await startAgent('dock', undefined, base, fast);
    await printerOnline('dock');
    const res = await print('dock/zebra');
    const done = await jobState(res.body.job!.jobId, 'printed');
    // The test printer answers counters of 0 at once: the whole job is printed.
    expect(done.printed).toBe(1);
  });

  it('agent/result refuses a count out of range and stores one in range, never more than the job has', async () => {
    const socket = await rawSocket(await keyOf('counter'));
    try {
      await say(socket, 'agent/hello', { agentId: 'counter', name: 'Counter', printers: [{ id: 'p', name: 'P', state: 'online' }] });
      const job = await print('counter/p', randomUUID(), 3);
      expect(job.status).toBe(200);
      for (const printed of [-1, 1.5, 'x', 10_000_000])
        expect((await say(socket, 'agent/result', { jobId: job.body.job!.jobId, state: 'sent', printed })).err?.code).toBe('ERR_BAD_INPUT');
      expect((await say(socket, 'agent/result', { jobId: job.body.job!.jobId, state: 'sent', printed: 2 })).err).toBeUndefined();
      expect((await jobOf(job.body.job!.jobId))!.printed).toBe(2);
      expect(
        (
          await say(socket, 'agent/result', {
            jobId: job.body.job!.jobId,
            state: 'failed',
            printed: 50,
            reason: 'printer unreachable: connect ECONNREFUSED 10.1.2.3:9100',
          })
        ).err,
      ).toBeUndefined();
      const failed = (await jobOf(job.body.job!.jobId))!;
      expect(failed.printed).toBe(3);
      expect(failed.reason).toBe('printer not answering at 10.1.2.3:9100');
    } finally {
      socket.disconnect();
    }
  });

  it('label/job/printRest: any body is a 4xx, never a 500', async () => {
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ maxLength: 120 }),
      fc.constantFrom('', '__proto__', 'constructor', -1, null),
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ idempotencyKey: fc.oneof(fc.uuid(), weird), jobId: weird }, { requiredKeys: [] }), async (b) => {
        const res = await call(t.app, 'label/job/printRest', b as never, clerk);
        expect(res.status, `${JSON.stringify(b)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        expect(res.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 60 },
    );
  });
});

describe('agent calls and ops: fuzz', () => {
  it('never answer 500 to any body of label/agent/create and revoke, nor fail on any agent op data', async () => {
    const weird = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ maxLength: 70 }),
      fc.constantFrom('', '__proto__', 'constructor', 'a/b', '../x', -1, null),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('label/agent/create', 'label/agent/revoke'),
        fc.record({ agentId: fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), weird), name: weird }),
        async (path, b) => {
          const res = await call(t.app, path, b as never, admin);
          expect(res.status, `${path} ${JSON.stringify(b)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    const socket = await rawSocket(await keyOf('fuzzy'));
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('agent/hello', 'agent/status', 'agent/result'), weird, async (op, data) => {
          const reply = await say(socket, op, data);
          if (reply.err) expect(reply.err.code).not.toBe('ERR');
        }),
        { numRuns: 60 },
      );
    } finally {
      socket.disconnect();
    }
  });
});

describe('the print agent as a process', () => {
  it('killed (SIGKILL) with a job in its queue, prints it exactly once when started again', async () => {
    const { spawn } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const bin = fileURLToPath(new URL('../../../../print-agent/bin/print-agent.mjs', import.meta.url));
    const config = join(dir, 'proc.json');
    writeFileSync(
      config,
      JSON.stringify({
        server: base,
        siteId: 'demo-main',
        agentKey: await keyOf('proc'),
        agentId: 'proc',
        name: 'Process agent',
        queueFile: 'proc.queue.json',
        retryMs: 150,
        statusIntervalMs: 60_000,
        printers: [{ id: 'zebra', name: 'Zebra', host: '127.0.0.1', port: printer.port }],
      }),
    );
    const run = () => spawn(process.execPath, [bin, '--config', config], { stdio: 'ignore' });
    let child = run();
    try {
      await printerOnline('proc');
      printer.flags = { headOpen: true };
      const res = await print('proc/zebra');
      const held = await jobState(res.body.job!.jobId, 'held');
      expect(held.reason).toContain('head open');
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      printer.flags = {};
      child = run();
      await jobState(res.body.job!.jobId, 'printed');
      await new Promise((r) => setTimeout(r, 500));
      expect(printer.prints).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('killed (SIGKILL) in the middle of writing a job, sends every label of it exactly once in full after a restart', async () => {
    const { spawn } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const bin = fileURLToPath(new URL('../../../../print-agent/bin/print-agent.mjs', import.meta.url));
    const config = join(dir, 'cut.json');
    writeFileSync(
      config,
      JSON.stringify({
        server: base,
        siteId: 'demo-main',
        agentKey: await keyOf('cut'),
        agentId: 'cut',
        name: 'Cut agent',
        queueFile: 'cut.queue.json',
        retryMs: 150,
        statusIntervalMs: 60_000,
        printers: [{ id: 'zebra', name: 'Zebra', host: '127.0.0.1', port: printer.port }],
      }),
    );
    const run = () => spawn(process.execPath, [bin, '--config', config], { stdio: 'ignore' });
    let child = run();
    try {
      await printerOnline('cut');
      // 2,000 stock labels of about 4.5 KB each (a template printing a 360-character text twelve
      // times): 9 MB, more than the loopback socket buffers take (4 MB to send, 128 KB to receive).
      // The printer stops reading after 200 KB, like a printer whose buffer is full: the agent is then
      // in the middle of writing the job when it is killed. (Labels are made of real records only,
      // docs/labels.md: 2,000 of the demo's stock records.)
      const field = `^FO30,112^A0N,20,20^FB740,1,0,L^FD${'x'.repeat(360)}^FS`;
      const zpl = `^XA^CI28^FO30,25^A0N,40,40^FD{{stockId}}  line {{location}}^FS${field.repeat(12)}^XZ`;
      const saved = await call(
        t.app,
        'label/template/save',
        { kind: 'stock', name: 'Long stock', zpl, widthMm: 101.6, heightMm: 76.2, dpi: 203 },
        await tokenFor(t.app, 'admin'),
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      printer.flags = { stallAfterBytes: 200_000 };
      const stockIds = (
        await query<{ stock_id: string }>(t.db, sql`SELECT stock_id FROM stock_records WHERE org_id = 'demo' ORDER BY stock_id LIMIT 2000`)
      ).map((r) => r.stock_id);
      expect(stockIds).toHaveLength(2000);
      const res = await call(
        t.app,
        'label/print',
        {
          idempotencyKey: randomUUID(),
          kind: 'stock',
          printerId: 'cut/zebra',
          copies: 1,
          templateId: saved.body.template!.templateId,
          source: { stockIds },
        },
        clerk,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await until(() => printer.stalled() > 0 || undefined, 20_000);
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      // The printer reads again: what the kernel had taken arrives, then the connection ends.
      printer.flags = {};
      printer.resume();
      const [cut] = await printer.waitForPrints(1);
      const full = stockIds.length;
      expect(cut!.length).toBeLessThan(full * 4000);
      expect(cut).not.toMatch(/\^XZ\s*$/);
      child = run();
      const job = await jobState(res.body.job!.jobId, 'printed', 30_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(printer.prints).toHaveLength(2);
      const [, rest] = printer.prints;
      expect(rest!.trimStart().startsWith('^XA')).toBe(true);
      // Every label whole exactly once, in order: the complete formats of the cut connection, then the rest.
      const complete = (bytes: string) => bytes.split(/(?<=\^XZ)/).filter((f) => /\^XZ$/.test(f));
      const printed = [...complete(cut!), ...complete(rest!)].map((f) => /\^FD(S\d+) {2}line/.exec(f)?.[1]);
      expect(printed).toEqual(stockIds);
      // The partial label at the end of the cut connection is sent again whole, not resumed in the middle.
      expect(rest!.length).toBeGreaterThan(cut!.length - cut!.lastIndexOf('^XZ'));
      expect(job.reason).toMatch(/^resumed after the agent stopped while sending: labels \d+ to 2000 of 2000/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('several server nodes', () => {
  it('answers the attached printers the same on a node the agent is not connected to, and its jobs reach the agent', async () => {
    const second = await createSecondNode(t);
    const { io } = await import('socket.io-client');
    try {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const secondBase = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`;
      await startAgent('multi'); // on the first node
      await printerOnline('multi');
      const expected = { id: 'multi/zebra', name: 'Zebra at the dock', agent: 'Agent multi' };
      const answered = await call(second.app, 'docIo/zplPrinter/getAttachedPrinters', {}, clerk);
      expect(answered.status).toBe(200);
      expect(answered.body.printers).toContainEqual(expected);
      // A browser subscribing to the labelPrinter topic on the second node is told the printer at once.
      const socket = io(`${secondBase}/demo-main`, {
        transports: ['websocket'],
        auth: { token: clerk },
        reconnection: false,
        forceNew: true,
      });
      try {
        const first = new Promise<unknown>((resolve) => socket.once('attachedPrinters', (e) => resolve(e.data.printers)));
        await new Promise<void>((r) => socket.once('connect', () => r()));
        await socket.timeout(5000).emitWithAck('send', { op: 'subscribe', data: { topic: 'labelPrinter' } });
        expect(await first).toContainEqual(expected);
      } finally {
        socket.disconnect();
      }
      // Printed through the second node: with Redis (REDIS_URL) the printJob event crosses to the
      // agent's node at once; without it the agent would get it only at its next hello.
      if (process.env.REDIS_URL) {
        const res = await call(
          second.app,
          'label/print',
          { idempotencyKey: randomUUID(), kind: 'stock', printerId: 'multi/zebra', copies: 1, source: { stockIds: ['S000000001'] } },
          clerk,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        await jobState(res.body.job!.jobId, 'printed');
        expect(printer.prints).toHaveLength(1);
        // Revoked through the second node: the agent's connection on the first ends at once.
        const agent = agents[agents.length - 1]!;
        expect((await call(second.app, 'label/agent/revoke', { agentId: 'multi' }, admin)).status).toBe(200);
        const at = Date.now();
        await until(() => (agent.stoppedBecause() ? true : undefined), 1000);
        expect(Date.now() - at).toBeLessThan(1000);
        keys.delete('multi');
      }
    } finally {
      await second.close();
    }
  });
});
