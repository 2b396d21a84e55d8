import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import type { JobState, PrintJob } from '@floorhand/contract/labels';

// The agent's durable queue: every job it was given, by id, with its state and whether the server has
// heard that state. Written whole to a temporary file and renamed over the queue file on every change,
// so a crash leaves the old or the new file, never half of one. 'sending' is written before the bytes
// go out, and while they go out the progress file (SendProgress) counts the label formats the
// operating system has taken: a job found 'sending' after a restart is resumed after those formats
// (docs/labels.md, "Exactly once").

export type LocalState = JobState | 'sending';
export interface QueuedJob {
  job: PrintJob;
  state: LocalState;
  reason?: string;
  /** The state the server acknowledged last. */
  reported?: JobState;
  /** Label formats that reached the printer before the agent was stopped while sending: the send resumes after them. */
  sentFormats?: number;
  /** Labels the printer's counters (~HS) say are printed, of formats x copies; absent while not known. */
  printed?: number;
  /** The count the server acknowledged last. */
  reportedPrinted?: number;
  receivedAt: string;
  updatedAt: string;
}

/** Jobs finished this long ago are forgotten (their ids kept that long, so a job sent again is not printed twice). */
const KEEP_DONE_MS = 24 * 60 * 60 * 1000;

export class DurableQueue {
  private readonly jobs = new Map<string, QueuedJob>();

  constructor(private readonly file: string) {
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { jobs?: QueuedJob[] };
      for (const j of saved.jobs ?? []) this.jobs.set(j.job.jobId, j);
    }
  }

  get(jobId: string): QueuedJob | undefined {
    return this.jobs.get(jobId);
  }

  all(): QueuedJob[] {
    return [...this.jobs.values()];
  }

  add(job: PrintJob, now = new Date()): QueuedJob {
    const entry: QueuedJob = { job, state: 'queued', receivedAt: now.toISOString(), updatedAt: now.toISOString() };
    this.jobs.set(job.jobId, entry);
    this.save();
    return entry;
  }

  set(jobId: string, state: LocalState, reason?: string, now = new Date()): QueuedJob | undefined {
    const entry = this.jobs.get(jobId);
    if (!entry) return undefined;
    entry.state = state;
    if (reason === undefined) delete entry.reason;
    else entry.reason = reason;
    entry.updatedAt = now.toISOString();
    this.save();
    return entry;
  }

  /** Where an interrupted send resumes (label formats already at the printer). */
  setSentFormats(jobId: string, formats: number): void {
    const entry = this.jobs.get(jobId);
    if (!entry) return;
    entry.sentFormats = formats;
    this.save();
  }

  /** Labels printed so far (the printer's counters). */
  setPrinted(jobId: string, printed: number): void {
    const entry = this.jobs.get(jobId);
    if (!entry || entry.printed === printed) return;
    entry.printed = printed;
    this.save();
  }

  markReported(jobId: string, state: JobState, printed?: number): void {
    const entry = this.jobs.get(jobId);
    if (!entry || (entry.reported === state && entry.reportedPrinted === printed)) return;
    entry.reported = state;
    if (printed === undefined) delete entry.reportedPrinted;
    else entry.reportedPrinted = printed;
    this.save();
  }

  /** Drops finished jobs older than a day. */
  prune(now = Date.now()): void {
    let changed = false;
    for (const [id, j] of this.jobs) {
      if ((j.state === 'printed' || j.state === 'failed') && j.reported === j.state && now - Date.parse(j.updatedAt) > KEEP_DONE_MS) {
        this.jobs.delete(id);
        changed = true;
      }
    }
    if (changed) this.save();
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ jobs: [...this.jobs.values()] }));
    renameSync(tmp, this.file);
  }
}

/** Bytes of the progress record: one fixed-size write, so a kill leaves the old record or the new one. */
const PROGRESS_BYTES = 160;

/**
 * How far the job being sent has got: `<jobId> <formats handed to the operating system>`, written in
 * place (one pwrite of a fixed size per format, no rename: a thousand labels cost microseconds each).
 */
export class SendProgress {
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  /** The formats of `jobId` known sent, or 0 when the record is of another job or absent. */
  read(jobId: string): number {
    if (!existsSync(this.file)) return 0;
    const [id, count] = readFileSync(this.file, 'utf8').trim().split(' ');
    return id === jobId ? Number(count) || 0 : 0;
  }

  record(jobId: string, formats: number): void {
    this.fd ??= openSync(this.file, 'w');
    writeSync(this.fd, `${jobId} ${formats}`.padEnd(PROGRESS_BYTES, ' ').slice(0, PROGRESS_BYTES), 0);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
