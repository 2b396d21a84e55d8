import { io, type Socket } from 'socket.io-client';
import { FINAL_JOB_STATES, printJobSchema, withCopies, type JobState, type PrintJob, type PrinterState } from '@floorhand/contract/labels';
import type { ClientToServerEvents, SendReply, ServerToClientEvents } from '@floorhand/contract/realtime';
import type { AgentConfig, PrinterConfig } from './config.ts';
import { cancelAll, labelFormats, queryStatus, sendFormats } from './printer.ts';
import { DurableQueue, SendProgress, type QueuedJob } from './queue.ts';
import type { HostStatus } from './zebra-status.ts';

// The print agent (docs/labels.md): dials out to the server's socket with its own agent key (Label
// Printers → Add agent), says who it is and what its printers say to ~HS (agent/hello, agent/status), takes jobs (the
// printJob event, and the pending jobs agent/hello answers), keeps them in a durable queue, prints
// them one at a time with copies by ^PQ, holds a job while its printer is not ready and retries until
// the job expires, and reports every state (agent/result) until the server has acknowledged it. Its
// printer states go to the server at least every heartbeat the server asks for (agent/status), so a
// dead agent shows offline. When the server closes its connection (a newer copy of the agent took
// over, or the agent was revoked) it stops: it prints nothing more and does not reconnect.

export const AGENT_VERSION = '0.1.0';

export interface AgentLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface Agent {
  start(): void;
  /** Closes the socket and timers; the queue file stays as it is. */
  stop(): Promise<void>;
  readonly queue: DurableQueue;
  /** The printers' states as last asked. */
  states(): Map<string, HostStatus>;
  /** Resolves when no job is waiting to be printed (tests). */
  idle(): Promise<void>;
  connected(): boolean;
  /** Why the server stopped this agent (taken over, revoked), once it has. */
  stoppedBecause(): string | undefined;
}

export interface AgentOptions {
  /** Called once when the server has stopped the agent (taken over by a newer copy, or revoked). */
  onStopped?: (why: string) => void;
}

type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export function createAgent(
  config: AgentConfig,
  log: AgentLog = { info: () => undefined, warn: () => undefined },
  options: AgentOptions = {},
): Agent {
  const queue = new DurableQueue(config.queueFile);
  const progress = new SendProgress(`${config.queueFile}.sending`);
  const printers = new Map<string, PrinterConfig>(config.printers.map((p) => [p.id, p]));
  const states = new Map<string, HostStatus>();
  let socket: AgentSocket | undefined;
  let stopped = false;
  let working = false;
  let again = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let statusTimer: NodeJS.Timeout | undefined;
  let lastPrintJobEventId = 0;
  let stoppedBecause: string | undefined;
  let closedNotice: string | undefined;
  const idleWaiters: Array<() => void> = [];

  function send<T>(op: 'agent/hello' | 'agent/status' | 'agent/result', data: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      if (!socket?.connected) return reject(new Error('not connected'));
      socket.timeout(10_000).emit('send', { op, data, clientTime: new Date().toISOString() }, (err: Error | null, reply: SendReply) => {
        if (err) return reject(err);
        if (reply.err) return reject(new Error(reply.err.message));
        resolve(reply.data as T);
      });
    });
  }

  const printerList = () =>
    config.printers.map((p) => ({
      id: p.id,
      name: p.name,
      state: states.get(p.id)?.state ?? 'unknown',
      ...(states.get(p.id)?.detail ? { detail: states.get(p.id)!.detail } : {}),
    }));

  /** Records a printer's state; answers whether it changed. */
  function note(printerId: string, s: HostStatus): boolean {
    const before = states.get(printerId);
    states.set(printerId, s);
    return before?.state !== s.state || before?.detail !== s.detail;
  }

  /** A printer's state changed during a job: the server hears it at once. */
  function noteAndTell(printerId: string, s: HostStatus): void {
    if (note(printerId, s) && socket?.connected) void send('agent/status', { printers: printerList() }).catch(() => undefined);
  }

  async function refreshStates(): Promise<boolean> {
    let changed = false;
    await Promise.all(
      config.printers.map(async (p) => {
        if (note(p.id, await queryStatus(p))) changed = true;
      }),
    );
    return changed;
  }

  async function report(entry: QueuedJob): Promise<void> {
    if (entry.state === 'sending' || (entry.reported === entry.state && entry.reportedPrinted === entry.printed)) return;
    const state: JobState = entry.state;
    const printed = entry.printed;
    try {
      await send('agent/result', {
        jobId: entry.job.jobId,
        state,
        ...(entry.reason ? { reason: entry.reason.slice(0, 500) } : {}),
        ...(printed !== undefined ? { printed } : {}),
      });
      queue.markReported(entry.job.jobId, state, printed);
    } catch (e) {
      log.warn(`could not report ${entry.job.jobId} ${state}: ${(e as Error).message}`);
    }
  }

  function accept(job: PrintJob): void {
    const known = queue.get(job.jobId);
    if (known) {
      // The same job again (after a reconnect): never printed twice; its state is told again.
      void report(known);
      return;
    }
    const entry = queue.add(job);
    log.info(`job ${job.jobId} queued for ${job.printer}`);
    void report(entry);
    kick();
  }

  function set(entry: QueuedJob, state: QueuedJob['state'], reason?: string): void {
    if (entry.state === state && entry.reason === reason) return;
    queue.set(entry.job.jobId, state, reason);
    void report(entry);
  }

  async function printOne(entry: QueuedJob): Promise<'done' | 'held'> {
    const { job } = entry;
    const printer = printers.get(job.printer);
    if (!printer) {
      set(entry, 'failed', `this agent has no printer '${job.printer}'`);
      return 'done';
    }
    // Sent before the agent stopped: only its printing is still to watch.
    if (entry.state === 'sent') return watch(entry, printer, entry.reason);
    if (Date.parse(job.expiresAt) <= Date.now()) {
      set(entry, 'failed', `expired${entry.reason ? `: ${entry.reason}` : ''}`);
      return 'done';
    }
    const before = await queryStatus(printer);
    noteAndTell(printer.id, before);
    if (before.state !== 'online') {
      set(entry, 'held', `printer ${describe(before.state, before.detail)}`);
      return 'held';
    }
    const formats = labelFormats(withCopies(job.zpl, job.copies));
    const from = Math.min(entry.sentFormats ?? 0, formats.length);
    // The progress record first (this job, `from` formats), then 'sending': a kill in between finds 'sending' with a true count.
    progress.record(job.jobId, from);
    // A resumed job keeps saying why; any other reason (a printer that was paused) is over.
    const carried = from > 0 ? entry.reason : undefined;
    queue.set(job.jobId, 'sending', carried);
    try {
      if (from < formats.length) await sendFormats(printer, formats.slice(from), (n) => progress.record(job.jobId, from + n));
    } catch (e) {
      // Nothing reached the printer when the connection failed before it opened; otherwise it may have.
      const refused = /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND/.test(String((e as Error).message));
      if (refused) {
        set(entry, 'held', `printer unreachable: ${(e as Error).message}`);
        return 'held';
      }
      set(entry, 'failed', `sending failed part way (${(e as Error).message}); the label may have printed`);
      return 'done';
    }
    const resumed =
      from >= formats.length
        ? `the agent stopped after sending all ${formats.length} label(s); not sent again`
        : from > 0
          ? `resumed after the agent stopped while sending: labels ${from + 1} to ${formats.length} of ${formats.length} sent after the restart`
          : undefined;
    set(entry, 'sent', resumed);
    return watch(entry, printer, resumed);
  }

  /**
   * Printed means printed (docs/labels.md): after the bytes, the printer's ~HS counters (formats in
   * its buffer, labels remaining of the one printing) are asked every progressMs until the job has
   * left the printer; the count printed goes to the server as it grows. A printer that stops mid-job
   * (paper out, head open, ribbon out) has the rest of the job cancelled in it (~JA), and the job fails
   * with "n of N printed", so the rest is printed only by "Print the rest" (never twice). A printer
   * without counters (a raw queue, an answer not understood) is "printed" as before with a reason
   * saying the printer did not confirm it.
   */
  async function watch(entry: QueuedJob, printer: PrinterConfig, carried: string | undefined): Promise<'done'> {
    const { job } = entry;
    const total = labelFormats(withCopies(job.zpl, job.copies)).length * job.copies;
    const progressMs = config.progressMs ?? 500;
    const stallMs = config.stallMs ?? 120_000;
    const words = (n: number) => `${n} of ${total} label(s) printed`;
    let printed = entry.printed ?? 0;
    let lastProgress = Date.now();
    for (;;) {
      if (stopped) return 'done';
      const st = await queryStatus(printer);
      noteAndTell(printer.id, st);
      if (st.formatsInBuffer === undefined || st.labelsRemaining === undefined) {
        if (st.state === 'unreachable') {
          if (Date.now() - lastProgress > stallMs) {
            set(
              entry,
              'failed',
              `printer stopped answering after the job was sent (${st.detail ?? 'unreachable'}); ${words(printed)} when last heard; check the printer before printing the rest`,
            );
            return 'done';
          }
          await new Promise((r) => setTimeout(r, progressMs));
          continue;
        }
        // No counters: the printer (or its queue) took the job, and that is all it says.
        if (st.state === 'online' || st.state === 'unknown')
          set(
            entry,
            'printed',
            carried ?? `sent; ${printer.host ? 'the printer' : `the queue '${printer.queue ?? ''}'`} does not report labels printed`,
          );
        else set(entry, 'failed', `the printer took the job and then reported ${describe(st.state, st.detail)}; check the label`);
        return 'done';
      }
      const left = st.formatsInBuffer * job.copies + st.labelsRemaining;
      const now = Math.max(printed, Math.min(total, total - left));
      if (now !== printed) {
        printed = now;
        lastProgress = Date.now();
        queue.setPrinted(job.jobId, printed);
        void report(entry);
      }
      if (left === 0 && st.state !== 'paperOut' && st.state !== 'headOpen' && st.state !== 'ribbonOut') {
        queue.setPrinted(job.jobId, total);
        set(entry, 'printed', carried);
        return 'done';
      }
      if (st.state === 'paperOut' || st.state === 'headOpen' || st.state === 'ribbonOut') {
        // Interrupted: the printer's rest of the job is cancelled, so only "Print the rest" prints it.
        await cancelAll(printer).catch(() => undefined);
        set(
          entry,
          'failed',
          `${STATE_WORDS.get(st.state) ?? st.state} after ${words(printed)}; the rest was cancelled at the printer: print the rest`,
        );
        return 'done';
      }
      if (Date.now() - lastProgress > stallMs) {
        await cancelAll(printer).catch(() => undefined);
        set(
          entry,
          'failed',
          `the printer made no progress for ${Math.round(stallMs / 1000)} s (${describe(st.state, st.detail)}) after ${words(printed)}; the rest was cancelled at the printer: print the rest`,
        );
        return 'done';
      }
      await new Promise((r) => setTimeout(r, progressMs));
    }
  }

  async function work(): Promise<void> {
    if (working) {
      again = true;
      return;
    }
    working = true;
    try {
      do {
        again = false;
        let held = false;
        const waiting = queue
          .all()
          .filter((j) => j.state === 'queued' || j.state === 'held' || j.state === 'sent')
          .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
        // One job at a time per printer, in the order received; a held printer holds only its own jobs.
        const heldPrinters = new Set<string>();
        for (const entry of waiting) {
          if (stopped) return;
          if (heldPrinters.has(entry.job.printer)) continue;
          const outcome = await printOne(entry);
          if (outcome === 'held') {
            held = true;
            heldPrinters.add(entry.job.printer);
          }
        }
        if (held && !stopped) {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(kick, config.retryMs);
        }
      } while (again && !stopped);
    } finally {
      working = false;
      queue.prune();
      if (!queue.all().some((j) => j.state === 'queued')) for (const w of idleWaiters.splice(0)) w();
    }
  }

  function kick(): void {
    void work().catch((e: unknown) => log.warn(`printing failed: ${String(e)}`));
  }

  async function hello(): Promise<void> {
    await refreshStates();
    const answer = await send<{ pending: PrintJob[]; heartbeatSecs?: number }>('agent/hello', {
      agentId: config.agentId,
      name: config.name,
      version: AGENT_VERSION,
      printers: printerList(),
    });
    log.info(`connected as ${config.agentId}; ${answer.pending.length} pending job(s)`);
    // The states go to the server at least every heartbeat it asks for (so it knows the agent lives).
    const every = Math.min(config.statusIntervalMs, (answer.heartbeatSecs ?? Infinity) * 1000);
    clearInterval(statusTimer);
    statusTimer = setInterval(() => void pollStates().catch(() => undefined), every);
    // States the server has not heard yet (a crash or a lost connection in between).
    for (const entry of queue.all()) void report(entry);
    for (const job of answer.pending) accept(job);
    kick();
  }

  async function pollStates(): Promise<void> {
    const changed = await refreshStates();
    // Sent every time: it is the heartbeat too.
    if (socket?.connected) await send('agent/status', { printers: printerList() }).catch(() => undefined);
    // A printer back online releases its held jobs.
    if (changed) kick();
  }

  /** The server closed the connection for good: nothing more is printed, no reconnect. */
  function halt(why: string): void {
    if (stoppedBecause) return;
    stoppedBecause = why;
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(statusTimer);
    log.warn(`stopped by the server: ${why}`);
    options.onStopped?.(why);
  }

  return {
    queue,
    states: () => states,
    connected: () => socket?.connected ?? false,
    stoppedBecause: () => stoppedBecause,
    idle: () =>
      new Promise<void>((resolve) => {
        if (!working && !queue.all().some((j) => j.state === 'queued')) resolve();
        else idleWaiters.push(resolve);
      }),
    start() {
      // A job found 'sending' was interrupted while its bytes went out: the label formats the operating
      // system had taken reached the printer (the kernel delivers them after the process dies); the
      // send resumes after them, so each label is sent whole once (docs/labels.md, "Exactly once").
      for (const entry of queue.all()) {
        if (entry.state !== 'sending') continue;
        const total = labelFormats(withCopies(entry.job.zpl, entry.job.copies)).length;
        const sent = Math.min(progress.read(entry.job.jobId), total);
        queue.setSentFormats(entry.job.jobId, sent);
        queue.set(
          entry.job.jobId,
          'queued',
          sent >= total
            ? `the agent stopped after sending all ${total} label(s); not sent again`
            : `the agent stopped while sending: ${sent} of ${total} label(s) had reached the printer; the other ${total - sent} are sent after a restart`,
        );
      }
      socket = io(`${config.server}/${config.siteId}`, {
        transports: ['websocket'],
        auth: { token: config.agentKey },
        query: { client: `print-agent ${config.agentId}` },
        reconnectionDelay: 1000,
        reconnectionDelayMax: 32_000,
      });
      socket.on('connect', () => {
        void hello().catch((e: unknown) => log.warn(`agent/hello failed: ${String(e)}`));
      });
      socket.on('connect_error', (e: Error & { data?: { message?: string } }) =>
        log.warn(`cannot connect: ${e.data?.message ?? e.message}`),
      );
      socket.on('agentClosed', (e) => {
        closedNotice = e.data.message;
      });
      socket.on('disconnect', (reason) => {
        // Only the server's own close (taken over, revoked): a lost network reconnects as before.
        if (reason === 'io server disconnect') {
          halt(closedNotice ?? 'the server closed the connection (the agent was revoked, or a newer copy of it took over)');
        }
      });
      socket.on('printJob', (e) => {
        // Spec: an event whose id is not newer than the last one seen is dropped.
        if (e.eventId <= lastPrintJobEventId) return;
        lastPrintJobEventId = e.eventId;
        const parsed = printJobSchema.safeParse(e.data);
        if (parsed.success) accept(parsed.data);
      });
      statusTimer = setInterval(() => void pollStates().catch(() => undefined), config.statusIntervalMs);
      kick();
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(statusTimer);
      socket?.disconnect();
      while (working) await new Promise((r) => setTimeout(r, 10));
      progress.close();
    },
  };
}

const STATE_WORDS = new Map<PrinterState, string>([
  ['online', 'online'],
  ['paused', 'paused'],
  ['paperOut', 'out of paper'],
  ['headOpen', 'head open'],
  ['ribbonOut', 'out of ribbon'],
  ['unreachable', 'unreachable'],
  ['unknown', 'state unknown'],
]);
const describe = (state: PrinterState, detail?: string) =>
  `${STATE_WORDS.get(state) ?? state}${detail && !detail.includes(STATE_WORDS.get(state) ?? '') ? ` (${detail})` : ''}`;

export { FINAL_JOB_STATES };
