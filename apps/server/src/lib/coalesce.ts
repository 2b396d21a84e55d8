/*
 * Calls that queue run together. While fewer than `limit` calls are running, each runs on its own at
 * once; past that, calls wait, and when a running one ends, the oldest waiting call goes with every
 * other waiting call of its key (up to `maxBatch`) as one (`many`). A quiet server answers each call
 * exactly as before; a busy one sends its database one statement where it would have queued several,
 * and each statement has a price of its own on both sides (a round trip, two wake-ups, the
 * executor's start) that a handful of lookups then share (docs/performance.md, "Lookups that queue
 * run together").
 *
 * A batch that fails runs its calls again one by one, so one call's failure is never another's.
 */

export interface CoalesceOptions<T, R> {
  /** The most calls (or batches) running at once. */
  limit: number;
  /** The most calls in one batch. */
  maxBatch: number;
  /** Runs one call. */
  one(input: T): Promise<R>;
  /** Runs calls of one key together, answering each one's result in their order. */
  many(inputs: T[]): Promise<R[]>;
}

interface Waiting<T, R> {
  key: string;
  input: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

export class Coalescer<T, R> {
  private running = 0;
  private waiting: Waiting<T, R>[] = [];

  constructor(private readonly opts: CoalesceOptions<T, R>) {}

  /** Runs `input`, alone or with others of the same `key`. */
  run(key: string, input: T): Promise<R> {
    if (this.running < this.opts.limit) return this.start(() => this.opts.one(input));
    return new Promise<R>((resolve, reject) => this.waiting.push({ key, input, resolve, reject }));
  }

  /** How many calls wait (tests, metrics). */
  get queued(): number {
    return this.waiting.length;
  }

  private async start<X>(work: () => Promise<X>): Promise<X> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.next();
    }
  }

  private next(): void {
    while (this.running < this.opts.limit && this.waiting.length > 0) {
      const key = this.waiting[0]!.key;
      const batch: Waiting<T, R>[] = [];
      const rest: Waiting<T, R>[] = [];
      for (const w of this.waiting) (w.key === key && batch.length < this.opts.maxBatch ? batch : rest).push(w);
      this.waiting = rest;
      void this.start(() => this.runBatch(batch));
    }
  }

  private async runBatch(batch: Waiting<T, R>[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      await this.opts.one(only!.input).then(only!.resolve, only!.reject);
      return;
    }
    let results: R[];
    try {
      results = await this.opts.many(batch.map((w) => w.input));
    } catch {
      // One by one, each with its own answer or error (the batch keeps its slot meanwhile).
      await Promise.all(batch.map((w) => this.opts.one(w.input).then(w.resolve, w.reject)));
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  }
}
