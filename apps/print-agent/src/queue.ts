import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { JobState, PrintJob } from '@floorhand/contract/labels';

// The agent's durable queue: every job it was given, by id, with its state and whether the server has
// heard that state. Written whole to a temporary file and renamed over the queue file on every change,
// so a crash leaves the old or the new file, never half of one. 'sending' is written before the bytes
// go out: a job found 'sending' after a restart may have printed, so it is not sent again (at most
// once); it is reported failed with that reason, and a person can reprint it.

export type LocalState = JobState | 'sending';
export interface QueuedJob {
  job: PrintJob;
  state: LocalState;
  reason?: string;
  /** The state the server acknowledged last. */
  reported?: JobState;
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

  markReported(jobId: string, state: JobState): void {
    const entry = this.jobs.get(jobId);
    if (!entry || entry.reported === state) return;
    entry.reported = state;
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
